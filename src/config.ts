import { existsSync, readFileSync } from 'node:fs'
import { dirname, isAbsolute, resolve } from 'node:path'
import Type, { type Static } from 'typebox'
import { Compile } from 'typebox/compile'
import { isKnownZone } from './clock.ts'
import { parseJsonText } from './json-text.ts'

/** One or several keys: an array lets a key be rotated without downtime. */
const KeySet = Type.Union([Type.String(), Type.Array(Type.String({ minLength: 1 }))])
const PerMinute = Type.Integer({ minimum: 1 })
const Port = Type.Integer({ minimum: 0, maximum: 65535 })

const ConfigSchema = Type.Object(
  {
    server: Type.Object(
      {
        host: Type.String({ minLength: 1 }),
        port: Port,
        trustProxy: Type.Boolean(),
        maxBodyMB: Type.Number({ exclusiveMinimum: 0, maximum: 2048 }),
        bodyTimeoutSeconds: Type.Integer({ minimum: 1, maximum: 3600 }),
        https: Type.Object(
          { certFile: Type.String(), keyFile: Type.String() },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
    database: Type.Object({ path: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
    auth: Type.Object({ apiKey: KeySet, operatorKey: KeySet }, { additionalProperties: false }),
    warehouses: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
    dates: Type.Object(
      {
        timezone: Type.String({ minLength: 1 }),
        maxAgeDays: Type.Integer({ minimum: 0, maximum: 3650 }),
        strictMixedDates: Type.Boolean(),
      },
      { additionalProperties: false },
    ),
    rateLimits: Type.Object(
      {
        insertPerMinute: PerMinute,
        returnsPerMinute: PerMinute,
        generalPerMinute: PerMinute,
        operatorPerMinute: PerMinute,
      },
      { additionalProperties: false },
    ),
    returnsCache: Type.Object(
      { pastDateMinutes: Type.Integer({ minimum: 0 }), todayMinutes: Type.Integer({ minimum: 0 }) },
      { additionalProperties: false },
    ),
    intake: Type.Object(
      {
        autoUpdateFields: Type.Array(Type.String({ minLength: 1 })),
        rawPayloadRetentionDays: Type.Integer({ minimum: 1 }),
        maxConcurrentBatches: Type.Integer({ minimum: 1, maximum: 16 }),
      },
      { additionalProperties: false },
    ),
    backup: Type.Object(
      {
        dir: Type.String({ minLength: 1 }),
        everyHours: Type.Number({ minimum: 0 }),
        keep: Type.Integer({ minimum: 1 }),
      },
      { additionalProperties: false },
    ),
    alerts: Type.Object({ webhookUrl: Type.String() }, { additionalProperties: false }),
    log: Type.Object(
      {
        level: Type.Union([
          Type.Literal('fatal'),
          Type.Literal('error'),
          Type.Literal('warn'),
          Type.Literal('info'),
          Type.Literal('debug'),
          Type.Literal('trace'),
        ]),
        file: Type.String(),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
)

export type Config = Static<typeof ConfigSchema>

/** The built-in defaults; `config.example.json` shows the same values (a test keeps them equal). */
export const DEFAULT_CONFIG: Config = {
  server: { host: '0.0.0.0', port: 8080, trustProxy: false, maxBodyMB: 128, bodyTimeoutSeconds: 120, https: { certFile: '', keyFile: '' } },
  database: { path: 'data/manifiesto.db' },
  auth: { apiKey: '', operatorKey: '' },
  warehouses: ['OAC', 'OAS', 'OAO'],
  dates: { timezone: 'America/Tegucigalpa', maxAgeDays: 30, strictMixedDates: false },
  rateLimits: { insertPerMinute: 5, returnsPerMinute: 10, generalPerMinute: 60, operatorPerMinute: 600 },
  returnsCache: { pastDateMinutes: 60, todayMinutes: 5 },
  intake: { autoUpdateFields: [], rawPayloadRetentionDays: 180, maxConcurrentBatches: 2 },
  backup: { dir: 'backups', everyHours: 24, keep: 14 },
  alerts: { webhookUrl: '' },
  log: { level: 'info', file: '' },
}

/** A configuration that cannot be used; the CLI prints `message` and exits with code 2. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError'
}

export interface LoadedConfig {
  config: Config
  /** The file read, or null when running on defaults. */
  file: string | null
}

export interface LoadConfigOptions {
  /** `--config FILE` from the command line. */
  flag?: string | undefined
  env?: NodeJS.ProcessEnv
  cwd?: string
}

/**
 * Resolves and validates the configuration: `--config FILE`, else `MANIFIESTO_CONFIG`, else
 * `./config.json` when it exists, else the defaults; then the single-key env overrides.
 * Relative paths become relative to the config file's folder (or `cwd` without a file).
 * @throws ConfigError naming the file, the key and the problem.
 */
export function loadConfig(options: LoadConfigOptions = {}): LoadedConfig {
  const env = options.env ?? process.env
  const cwd = options.cwd ?? process.cwd()
  const file = resolveConfigFile(options.flag, env, cwd)
  const fromFile = file === null ? {} : readConfigFile(file)
  const merged = mergeDefaults(DEFAULT_CONFIG, fromFile)
  applyEnvOverrides(merged, env)
  const config = validateConfig(merged, file ?? 'configuración')
  return { config: resolvePaths(config, file === null ? cwd : dirname(file)), file }
}

/** Validates a complete configuration object. @throws ConfigError */
export function validateConfig(value: unknown, source: string): Config {
  if (!compiled.Check(value)) {
    const problems = describeErrors(value)
    throw new ConfigError(`${source}: ${problems.join('; ')}`)
  }
  const config = value as Config
  const impossible = findImpossibleValues(config)
  if (impossible.length > 0) throw new ConfigError(`${source}: ${impossible.join('; ')}`)
  return config
}

/** Normalises a key setting to the list of usable keys (an empty string means "not configured"). */
export function keyList(keys: string | string[]): string[] {
  return (Array.isArray(keys) ? keys : [keys]).filter((key) => key.length > 0)
}

const compiled = Compile(ConfigSchema)

function resolveConfigFile(flag: string | undefined, env: NodeJS.ProcessEnv, cwd: string): string | null {
  if (flag !== undefined) return resolve(cwd, flag)
  if (env.MANIFIESTO_CONFIG) return resolve(cwd, env.MANIFIESTO_CONFIG)
  const local = resolve(cwd, 'config.json')
  return existsSync(local) ? local : null
}

function readConfigFile(file: string): unknown {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new ConfigError(`${file}: no se puede leer el archivo de configuración (${(error as NodeJS.ErrnoException).code ?? String(error)})`)
  }
  try {
    return parseJsonText(text)
  } catch (error) {
    throw new ConfigError(`${file}: no es JSON válido (${(error as Error).message})`)
  }
}

/** Deep-merges plain objects; arrays and scalars from `override` replace the default. */
function mergeDefaults(defaults: unknown, override: unknown): Record<string, unknown> {
  if (!isPlainObject(override)) return override as Record<string, unknown>
  const result: Record<string, unknown> = structuredClone(defaults) as Record<string, unknown>
  for (const key of Object.keys(override)) {
    const base = Object.hasOwn(result, key) ? result[key] : undefined
    const value = override[key]
    const merged = isPlainObject(base) && isPlainObject(value) ? mergeDefaults(base, value) : value
    // defineProperty: a "__proto__" key in the file must stay data, never a prototype.
    Object.defineProperty(result, key, { value: merged, enumerable: true, writable: true, configurable: true })
  }
  return result
}

type EnvOverride = readonly [name: string, section: string, key: string, parse: (raw: string) => unknown]

const ENV_OVERRIDES: readonly EnvOverride[] = [
  ['MANIFIESTO_API_KEY', 'auth', 'apiKey', splitKeys],
  ['MANIFIESTO_OPERATOR_KEY', 'auth', 'operatorKey', splitKeys],
  ['MANIFIESTO_PORT', 'server', 'port', parseInteger],
  ['MANIFIESTO_HOST', 'server', 'host', (raw) => raw],
  ['MANIFIESTO_DB', 'database', 'path', (raw) => raw],
]

/** Env values replace single keys; a wrong value (a non-numeric port) is then caught by validation. */
function applyEnvOverrides(config: Record<string, unknown>, env: NodeJS.ProcessEnv): void {
  for (const [name, section, key, parse] of ENV_OVERRIDES) {
    const raw = env[name]
    const target = config[section]
    if (raw !== undefined && raw !== '' && isPlainObject(target)) target[key] = parse(raw)
  }
}

/** Several keys in one variable are separated by commas (rotation). */
function splitKeys(raw: string): string | string[] {
  const keys = raw.split(',').map((key) => key.trim()).filter((key) => key.length > 0)
  return keys.length === 1 ? keys[0]! : keys
}

function parseInteger(raw: string): number | string {
  return /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : raw
}

function describeErrors(value: unknown): string[] {
  const problems: string[] = []
  const seen = new Set<string>()
  for (const error of compiled.Errors(value)) {
    const message = describeError(error, value)
    if (message === null || seen.has(message)) continue
    seen.add(message)
    problems.push(message)
  }
  return problems.length > 0 ? problems : ['configuración inválida']
}

interface SchemaError {
  keyword: string
  instancePath: string
  schemaPath: string
  params: Record<string, unknown>
  message: string
}

function describeError(error: SchemaError, root: unknown): string | null {
  const key = keyName(error.instancePath)
  const received = JSON.stringify(valueAt(root, error.instancePath))
  switch (error.keyword) {
    case 'additionalProperties': {
      const extra = (error.params.additionalProperties as string[] | undefined) ?? []
      return extra.map((name) => `clave desconocida «${key ? `${key}.` : ''}${name}»`).join('; ')
    }
    case 'required': {
      const missing = (error.params.requiredProperties as string[] | undefined) ?? []
      return missing.map((name) => `falta la clave «${key ? `${key}.` : ''}${name}»`).join('; ')
    }
    case 'boolean':
      return null // reported by the additionalProperties error of the parent
    case 'type':
      return `«${key}» debe ser de tipo ${spanishType(String(error.params.type))} (se recibió ${received})`
    case 'minimum':
    case 'exclusiveMinimum':
    case 'maximum':
    case 'minItems':
    case 'minLength':
      return `«${key}» tiene un valor imposible ${received} (${describeBound(error)})`
    case 'anyOf':
      return `«${key}» debe ser una cadena o una lista de cadenas no vacías (se recibió ${received})`
    case 'const':
      return `«${key}» tiene un valor no admitido ${received}`
    default:
      return `«${key}»: ${error.message} (se recibió ${received})`
  }
}

function describeBound(error: SchemaError): string {
  const limit = error.params.limit
  switch (error.keyword) {
    case 'minimum':
      return `debe ser al menos ${limit}`
    case 'exclusiveMinimum':
      return `debe ser mayor que ${limit}`
    case 'maximum':
      return `debe ser como máximo ${limit}`
    case 'minItems':
      return `debe tener al menos ${limit} elemento(s)`
    default:
      return 'no puede estar vacío'
  }
}

function findImpossibleValues(config: Config): string[] {
  const problems: string[] = []
  if (!isKnownZone(config.dates.timezone)) {
    problems.push(`«dates.timezone» no es una zona horaria conocida (${JSON.stringify(config.dates.timezone)})`)
  }
  const shared = keyList(config.auth.apiKey).filter((key) => keyList(config.auth.operatorKey).includes(key))
  if (shared.length > 0) {
    problems.push('«auth.apiKey» y «auth.operatorKey» no pueden compartir una clave: la del cliente nunca debe abrir la API de operadores')
  }
  const { certFile, keyFile } = config.server.https
  if ((certFile === '') !== (keyFile === '')) {
    problems.push('«server.https» necesita certFile y keyFile juntos (o ambos vacíos)')
  }
  if (config.alerts.webhookUrl !== '' && !/^https?:\/\/\S+$/.test(config.alerts.webhookUrl)) {
    problems.push(`«alerts.webhookUrl» debe ser una URL http(s) (se recibió ${JSON.stringify(config.alerts.webhookUrl)})`)
  }
  return problems
}

function resolvePaths(config: Config, base: string): Config {
  const at = (path: string) => (path === '' || path === ':memory:' || isAbsolute(path) ? path : resolve(base, path))
  return {
    ...config,
    server: { ...config.server, https: { certFile: at(config.server.https.certFile), keyFile: at(config.server.https.keyFile) } },
    database: { path: at(config.database.path) },
    backup: { ...config.backup, dir: at(config.backup.dir) },
    log: { ...config.log, file: at(config.log.file) },
  }
}

function keyName(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : part))
    .join('.')
    .replace(/\.\[/g, '[')
}

function valueAt(root: unknown, instancePath: string): unknown {
  let current = root
  for (const part of instancePath.split('/').slice(1)) {
    if (current === null || typeof current !== 'object') return undefined
    current = (current as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')]
  }
  return current
}

function spanishType(type: string): string {
  const names: Record<string, string> = {
    integer: 'entero',
    number: 'número',
    string: 'cadena',
    boolean: 'booleano (true o false)',
    object: 'objeto',
    array: 'lista',
  }
  return names[type] ?? type
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
