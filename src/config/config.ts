import { existsSync, readFileSync } from 'node:fs'
import { dirname, isAbsolute, resolve } from 'node:path'
import { Compile } from 'typebox/compile'
import { isKnownZone } from '../core/clock.ts'
import {
  ConfigSchema,
  DEFAULT_CONFIG,
  defaultConfigFor,
  KEEP_ALIVE_SECONDS,
  type Config,
  type ConfigFile,
} from './config.schema.ts'
import { parseJsonText } from '../core/json-text.ts'
import { describeJsonError, describeUnreadableFile, decodeConfigText } from './config-file.ts'
import { problemsOf, shown, type Problem } from '../schemas/schema-errors.ts'

export { DEFAULT_CONFIG, defaultConfigFor, KEEP_ALIVE_SECONDS, type Config, type ConfigFile }

/** A configuration that cannot be used; the CLI prints `message` and exits with code 2. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError'

  constructor(
    message: string,
    /** The file could not be read at all (missing, not allowed, not text): no key is at fault. */
    readonly unreadable = false,
  ) {
    super(message)
  }
}

/** The shortest key accepted: a key is a secret, and a short one is guessed (the guide makes 64 hex digits). */
export const MIN_KEY_LENGTH = 16

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
  const merged = mergeDefaults(defaultConfigFor(contractIn(fromFile)), fromFile)
  const fromEnv = applyEnvOverrides(merged, env)
  const config = resolvePaths(
    validateConfig(merged, file ?? 'configuración', fromEnv),
    file === null ? cwd : dirname(file),
  )
  const database = config.database.path
  if ([database, `${database}-wal`, `${database}-shm`].includes(config.log.file)) {
    // The log writer would open the database's own files (and drop SQLite's locks on them).
    throw new ConfigError(
      `${file ?? 'configuración'}: «log.file» no puede ser la base de datos ni sus archivos -wal/-shm (${config.log.file})`,
    )
  }
  return { config, file }
}

/**
 * Validates a complete configuration object, reporting every problem in one pass: types, limits
 * and the rules between keys. A value that came from an environment variable is named with it.
 * The result is the configuration the service runs on: `server.trustProxy` written as true or
 * false (the first release's form) becomes 1 or 0 proxies.
 * @param fromEnv dotted key → `NAME=value` of the variable that set it.
 * @throws ConfigError
 */
export function validateConfig(
  value: unknown,
  source: string,
  fromEnv: ReadonlyMap<string, string> = new Map(),
): Config {
  const schemaProblems = compiled.Check(value)
    ? []
    : problemsOf(compiled, value).map((problem) => describeProblem(problem, fromEnv))
  const problems = [...schemaProblems, ...findImpossibleValues(value as PartialConfig)]
  if (problems.length > 0) throw new ConfigError(`${source}: ${problems.join('; ')}`)
  const file = value as ConfigFile
  const { trustProxy } = file.server
  return {
    ...file,
    server: { ...file.server, trustProxy: typeof trustProxy === 'boolean' ? Number(trustProxy) : trustProxy },
  }
}

/**
 * The contract a file asks for, to pick the defaults: anything but "v2" takes v1's (a wrong value
 * is then reported by validation).
 */
export function contractIn(file: unknown): Config['clientContract'] {
  return isPlainObject(file) && file.clientContract === 'v2' ? 'v2' : 'v1'
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
  let bytes: Buffer
  try {
    bytes = readFileSync(file)
  } catch (error) {
    throw new ConfigError(describeUnreadableFile(file, (error as NodeJS.ErrnoException).code ?? 'error'), true)
  }
  const decoded = decodeConfigText(file, bytes)
  if ('problem' in decoded) throw new ConfigError(decoded.problem, true)
  const { text } = decoded
  try {
    return parseJsonText(text)
  } catch (error) {
    throw new ConfigError(describeJsonError(file, text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, error as Error))
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

/**
 * Env values replace single keys; a wrong value (a non-numeric port) is then caught by validation,
 * which names the variable. @returns dotted key → `NAME=value` for each key an env var set.
 */
function applyEnvOverrides(config: Record<string, unknown>, env: NodeJS.ProcessEnv): Map<string, string> {
  const origins = new Map<string, string>()
  for (const [name, section, key, parse] of ENV_OVERRIDES) {
    const raw = env[name]
    const target = config[section]
    if (raw === undefined || raw === '' || !isPlainObject(target)) continue
    target[key] = parse(raw)
    // A key's value is a secret: only its variable is named, never the value.
    origins.set(`${section}.${key}`, name.endsWith('_KEY') ? name : `${name}=${raw}`)
  }
  return origins
}

/** Several keys in one variable are separated by commas (rotation). */
function splitKeys(raw: string): string | string[] {
  const keys = raw
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key.length > 0)
  return keys.length === 1 ? keys[0]! : keys
}

function parseInteger(raw: string): number | string {
  return /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : raw
}

const BOUNDS = new Set(['minimum', 'exclusiveMinimum', 'maximum', 'exclusiveMaximum', 'minItems', 'minLength'])

/** One problem, named by its key as written in the file (`«server.port»`). */
function describeProblem(problem: Problem, fromEnv: ReadonlyMap<string, string>): string {
  const key = problem.path
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : part))
    .join('.')
    .replace(/\.\[/g, '[')
  if (problem.kind === 'unknown') return `clave desconocida «${key}»`
  if (problem.kind === 'missing') return `falta la clave «${key}»`
  const variable = fromEnv.get(key)
  const named = variable === undefined ? `«${key}»` : `«${key}» (de la variable de entorno ${variable})`
  // Keys are secrets: never echoed, not even a wrong one.
  const received = /^auth\.\w*[kK]ey\b/.test(key) ? 'un valor que no se muestra' : shown(problem.value)
  if (BOUNDS.has(problem.keyword)) return `${named} tiene un valor imposible ${received} (${problem.phrase})`
  return `${named} ${problem.phrase} (se recibió ${received})`
}

/** The configuration as read, before it is known to have the right types. */
type PartialConfig = { [Section in keyof ConfigFile]?: Partial<ConfigFile[Section]> } | null

/**
 * The rules a schema cannot say: a known time zone, keys not shared between the two sides, the
 * certificate with its key, a web address. Each is checked only when its keys have the right types
 * (a wrong type is already reported), so every problem of a file is reported at once.
 */
function findImpossibleValues(config: PartialConfig): string[] {
  const problems: string[] = []
  const zone = config?.dates?.timezone
  if (typeof zone === 'string' && !isKnownZone(zone)) {
    problems.push(`«dates.timezone» no es una zona horaria conocida (${JSON.stringify(zone)})`)
  }
  const keys = (value: unknown) =>
    typeof value === 'string' || Array.isArray(value) ? keyList(value as string | string[]) : []
  const operatorKeys = keys(config?.auth?.operatorKey)
  if (keys(config?.auth?.apiKey).some((key) => operatorKeys.includes(key))) {
    problems.push(
      '«auth.apiKey» y «auth.operatorKey» no pueden compartir una clave: la del cliente nunca debe abrir la API de operadores',
    )
  }
  const https = config?.server?.https
  if (
    typeof https?.certFile === 'string' &&
    typeof https.keyFile === 'string' &&
    (https.certFile === '') !== (https.keyFile === '')
  ) {
    problems.push('«server.https» necesita certFile y keyFile juntos (o ambos vacíos)')
  }
  if (config?.clientContract === 'v2' && config.returns?.windowBusinessDays === 0) {
    problems.push(
      '«returns.windowBusinessDays» no puede ser 0 con «clientContract» "v2": en ese contrato el proveedor recibe el paquete completo de ' +
        'devoluciones de cada manifiesto cuando cierra su plazo. Quite la clave (7 días hábiles) o indique cuántos días hábiles dura el plazo.',
    )
  }
  const banks = config?.settlement?.banks
  if (Array.isArray(banks)) {
    const seen = new Set<string>()
    for (const bank of banks) {
      if (typeof bank !== 'string') continue
      const key = bank.trim().toLocaleLowerCase('es')
      if (bank.trim() !== bank || key === '')
        problems.push(
          `«settlement.banks» tiene un banco con espacios al principio o al final (${JSON.stringify(bank)}): escríbalo sin ellos`,
        )
      else if (seen.has(key))
        problems.push(`«settlement.banks» nombra dos veces el banco ${JSON.stringify(bank)}: déjelo una sola vez`)
      seen.add(key)
    }
  }
  const maxAdjustment = config?.settlement?.maxAdjustment
  if (typeof maxAdjustment === 'number' && Math.abs(maxAdjustment * 100 - Math.round(maxAdjustment * 100)) > 1e-6) {
    problems.push(
      `«settlement.maxAdjustment» debe tener a lo sumo dos decimales, en lempiras (se recibió ${maxAdjustment}); por ejemplo 1.00`,
    )
  }
  for (const key of ['apiKey', 'operatorKey'] as const) {
    const short = keys(config?.auth?.[key]).find((value) => value.length < MIN_KEY_LENGTH)
    if (short !== undefined) {
      problems.push(
        `«auth.${key}» tiene una clave demasiado corta (${short.length} caracteres): una clave debe tener al menos ${MIN_KEY_LENGTH}. ` +
          'Genere una larga y aleatoria: openssl rand -hex 32 en Linux, o el comando de PowerShell de la guía de administración (Requisitos del servidor)',
      )
    }
  }
  const webhook = config?.alerts?.webhookUrl
  if (typeof webhook === 'string' && webhook !== '' && !/^https?:\/\/\S+$/.test(webhook)) {
    problems.push(`«alerts.webhookUrl» debe ser una URL http(s) (se recibió ${JSON.stringify(webhook)})`)
  }
  return problems
}

function resolvePaths(config: Config, base: string): Config {
  const at = (path: string) => (path === '' || path === ':memory:' || isAbsolute(path) ? path : resolve(base, path))
  return {
    ...config,
    server: {
      ...config.server,
      https: { certFile: at(config.server.https.certFile), keyFile: at(config.server.https.keyFile) },
    },
    database: { path: at(config.database.path) },
    backup: { ...config.backup, dir: at(config.backup.dir), copyTo: at(config.backup.copyTo) },
    log: { ...config.log, file: at(config.log.file) },
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
