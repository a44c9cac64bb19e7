import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { ConfigError, DEFAULT_CONFIG, loadConfig } from '../../src/config/config.ts'

function folder(): string {
  return mkdtempSync(join(tmpdir(), 'manifiesto-config-'))
}

function writeConfig(dir: string, content: unknown, name = 'config.json'): string {
  const file = join(dir, name)
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content))
  return file
}

interface BadConfig {
  name: string
  content: unknown
  message: RegExp
}

const badConfigs: BadConfig[] = [
  { name: 'unknown top-level key', content: { servidor: {} }, message: /clave desconocida «servidor»/ },
  { name: 'unknown nested key', content: { server: { prot: 80 } }, message: /clave desconocida «server\.prot»/ },
  {
    name: '__proto__ key is reported, not merged',
    content: '{"__proto__": {"polluted": true}}',
    message: /clave desconocida «__proto__»/,
  },
  {
    name: 'port of the wrong type',
    content: { server: { port: '8080' } },
    message: /«server\.port» debe ser un entero \(se recibió "8080"\)/,
  },
  {
    name: 'boolean of the wrong type',
    content: { dates: { strictMixedDates: 'si' } },
    message: /«dates\.strictMixedDates» debe ser true o false/,
  },
  { name: 'section of the wrong type', content: { rateLimits: 5 }, message: /«rateLimits» debe ser un objeto/ },
  {
    name: 'impossible port',
    content: { server: { port: 70000 } },
    message: /«server\.port» tiene un valor imposible 70000/,
  },
  {
    name: 'rate limit of zero',
    content: { rateLimits: { insertPerMinute: 0 } },
    message: /«rateLimits\.insertPerMinute» tiene un valor imposible 0/,
  },
  {
    name: 'fractional rate limit',
    content: { rateLimits: { generalPerMinute: 2.5 } },
    message: /«rateLimits\.generalPerMinute» debe ser un entero/,
  },
  {
    name: 'negative age limit',
    content: { dates: { maxAgeDays: -1 } },
    message: /«dates\.maxAgeDays» tiene un valor imposible -1/,
  },
  {
    name: 'unknown time zone',
    content: { dates: { timezone: 'Marte/Olympus' } },
    message: /«dates\.timezone» no es una zona horaria conocida/,
  },
  { name: 'no warehouses', content: { warehouses: [] }, message: /«warehouses» tiene un valor imposible/ },
  {
    name: 'api key of the wrong type',
    content: { auth: { apiKey: 42 } },
    message: /«auth\.apiKey» debe ser una cadena o una lista de cadenas no vacías/,
  },
  { name: 'empty key in a rotation list', content: { auth: { apiKey: ['buena', ''] } }, message: /«auth\.apiKey»/ },
  {
    name: 'a negative number of proxies',
    content: { server: { trustProxy: -1 } },
    message: /«server\.trustProxy» tiene un valor imposible -1/,
  },
  {
    name: 'a number of proxies written as text',
    content: { server: { trustProxy: '1' } },
    message:
      /«server\.trustProxy» debe ser el número de proxies delante del servicio: un entero desde 0, o true, que vale 1, o false, que vale 0 \(se recibió "1"\)/,
  },
  {
    name: 'half a proxy',
    content: { server: { trustProxy: 1.5 } },
    message: /«server\.trustProxy» debe ser el número de proxies/,
  },
  {
    name: 'no connection allowed per address',
    content: { server: { maxConnectionsPerIp: 0 } },
    message: /«server\.maxConnectionsPerIp» tiene un valor imposible 0 \(debe ser al menos 1\)/,
  },
  {
    name: 'connections per address as text',
    content: { server: { maxConnectionsPerIp: '32' } },
    message: /«server\.maxConnectionsPerIp» debe ser un entero \(se recibió "32"\)/,
  },
  {
    name: 'no connection allowed at all',
    content: { server: { maxConnections: 0 } },
    message: /«server\.maxConnections» tiene un valor imposible 0 \(debe ser al menos 1\)/,
  },
  {
    name: 'a fractional connection cap',
    content: { server: { maxConnections: 512.5 } },
    message: /«server\.maxConnections» debe ser un entero/,
  },
  {
    name: 'a header time no longer than the 5-s keep-alive',
    content: { server: { headersTimeoutSeconds: 5 } },
    message: /«server\.headersTimeoutSeconds» tiene un valor imposible 5 \(debe ser al menos 6\)/,
  },
  {
    name: 'a header time over five minutes',
    content: { server: { headersTimeoutSeconds: 301 } },
    message: /«server\.headersTimeoutSeconds» tiene un valor imposible 301 \(debe ser como máximo 300\)/,
  },
  {
    name: 'https certificate without its key',
    content: { server: { https: { certFile: 'cert.pem', keyFile: '' } } },
    message: /«server\.https» necesita certFile y keyFile juntos/,
  },
  {
    name: 'the same key for the client and the operators',
    content: { auth: { apiKey: ['clave-a-0123456789', 'clave-b-0123456789'], operatorKey: 'clave-b-0123456789' } },
    message: /no pueden compartir una clave/,
  },
  { name: 'log level not known', content: { log: { level: 'verbose' } }, message: /«log\.level»/ },
  {
    name: 'a re-issue window of a week (repeat orders come 5–7 days apart)',
    content: { intake: { reissue: { windowDays: 5 } } },
    message: /«intake\.reissue\.windowDays» tiene un valor imposible 5 \(debe ser como máximo 4\)/,
  },
  {
    name: 'a block threshold of zero',
    content: { intake: { reissue: { blockThreshold: 0 } } },
    message: /«intake\.reissue\.blockThreshold» tiene un valor imposible 0/,
  },
  {
    name: 'an unknown re-issue action',
    content: { intake: { reissue: { action: 'block' } } },
    message: /«intake\.reissue\.action» debe ser "flag" o "reject" \(se recibió "block"\)/,
  },
  {
    name: 'a negative returns window',
    content: { returns: { windowBusinessDays: -1 } },
    message: /«returns\.windowBusinessDays» tiene un valor imposible -1/,
  },
  {
    name: 'a holiday that is no real date',
    content: { returns: { holidays: ['2026-09-15', '2026-02-30'] } },
    message: /«returns\.holidays\[1\]» debe ser una fecha real en formato YYYY-MM-DD \(se recibió "2026-02-30"\)/,
  },
  {
    name: 'a holiday written dd/MM/yyyy',
    content: { returns: { holidays: ['15/09/2026'] } },
    message: /«returns\.holidays\[0\]» debe ser una fecha real en formato YYYY-MM-DD/,
  },
  {
    name: 'an unknown client contract',
    content: { clientContract: 'v3' },
    message: /«clientContract» debe ser "v1" o "v2" \(se recibió "v3"\)/,
  },
  {
    name: 'contract v2 with an explicit window of 0 business days',
    content: { clientContract: 'v2', returns: { windowBusinessDays: 0 } },
    message:
      /«returns\.windowBusinessDays» no puede ser 0 con «clientContract» "v2": en ese contrato el proveedor recibe el paquete completo de devoluciones de cada manifiesto cuando cierra su plazo\. Quite la clave \(7 días hábiles\) o indique cuántos días hábiles dura el plazo\./,
  },
  {
    name: 'a listing range of 0 days',
    content: { returns: { listing: { maxRangeDays: 0 } } },
    message: /«returns\.listing\.maxRangeDays» tiene un valor imposible 0/,
  },
  { name: 'not JSON', content: '{ "server": ', message: /no es JSON válido/ },
  { name: 'not an object', content: '[1, 2]', message: /debe ser un objeto/ },
]

for (const scenario of badConfigs) {
  test(`config: ${scenario.name} → ConfigError naming the key`, () => {
    const dir = folder()
    const file = writeConfig(dir, scenario.content)
    assert.throws(
      () => loadConfig({ flag: file, env: {}, cwd: dir }),
      (error: unknown) =>
        error instanceof ConfigError && scenario.message.test(error.message) && error.message.startsWith(file),
    )
    assert.equal(({} as Record<string, unknown>).polluted, undefined)
  })
}

const trustProxyForms: Array<{ written: boolean | number; proxies: number }> = [
  { written: false, proxies: 0 },
  { written: true, proxies: 1 },
  { written: 0, proxies: 0 },
  { written: 2, proxies: 2 },
]
for (const { written, proxies } of trustProxyForms) {
  test(`config: server.trustProxy ${String(written)} → ${proxies} proxies in front`, () => {
    const dir = folder()
    const file = writeConfig(dir, { server: { trustProxy: written } })
    assert.equal(loadConfig({ flag: file, env: {}, cwd: dir }).config.server.trustProxy, proxies)
  })
}

test('config: a missing --config file is an error naming the file and what to do', () => {
  const dir = folder()
  assert.throws(
    () => loadConfig({ flag: 'no-existe.json', env: {}, cwd: dir }),
    /no-existe\.json: el archivo de configuración no existe\. Revise la ruta que dio con --config/,
  )
})

test('config: no file anywhere → the built-in defaults, paths relative to the working folder', () => {
  const dir = folder()
  const { config, file } = loadConfig({ env: {}, cwd: dir })
  assert.equal(file, null)
  assert.deepEqual({ ...config, database: DEFAULT_CONFIG.database, backup: DEFAULT_CONFIG.backup }, DEFAULT_CONFIG)
  assert.equal(config.database.path, join(dir, 'data/manifiesto.db'))
  assert.equal(config.backup.dir, join(dir, 'backups'))
})

test('config: config.example.json shows exactly the defaults', () => {
  const example = JSON.parse(readFileSync(new URL('../../config.example.json', import.meta.url), 'utf8')) as unknown
  assert.deepEqual(example, DEFAULT_CONFIG)
})

test('config: resolution order --config, then MANIFIESTO_CONFIG, then ./config.json', () => {
  const dir = folder()
  writeConfig(dir, { server: { port: 1001 } })
  const fromEnv = writeConfig(dir, { server: { port: 1002 } }, 'env.json')
  const fromFlag = writeConfig(dir, { server: { port: 1003 } }, 'flag.json')
  assert.equal(loadConfig({ env: {}, cwd: dir }).config.server.port, 1001)
  assert.equal(loadConfig({ env: { MANIFIESTO_CONFIG: fromEnv }, cwd: dir }).config.server.port, 1002)
  assert.equal(loadConfig({ flag: fromFlag, env: { MANIFIESTO_CONFIG: fromEnv }, cwd: dir }).config.server.port, 1003)
})

test('config: a partial file keeps the defaults of every other key', () => {
  const dir = folder()
  const file = writeConfig(dir, { rateLimits: { insertPerMinute: 7 } })
  const { config } = loadConfig({ flag: file, env: {}, cwd: dir })
  assert.deepEqual(config.rateLimits, { ...DEFAULT_CONFIG.rateLimits, insertPerMinute: 7 })
  assert.deepEqual(config.warehouses, DEFAULT_CONFIG.warehouses)
})

test('config: relative paths are relative to the config file folder', () => {
  const dir = folder()
  mkdirSync(join(dir, 'etc'))
  const file = writeConfig(join(dir, 'etc'), { database: { path: '../datos/m.db' }, log: { file: 'logs/m.log' } })
  const { config } = loadConfig({ flag: file, env: {}, cwd: '/' })
  assert.equal(config.database.path, join(dir, 'datos/m.db'))
  assert.equal(config.log.file, join(dir, 'etc/logs/m.log'))
  assert.equal(config.server.https.certFile, '')
})

test('config: env vars override single keys, over the file', () => {
  const dir = folder()
  const file = writeConfig(dir, {
    server: { port: 9000, host: '127.0.0.1' },
    auth: { apiKey: 'clave-de-archivo-0123456789' },
  })
  const { config } = loadConfig({
    flag: file,
    cwd: dir,
    env: {
      MANIFIESTO_API_KEY: 'clave-del-entorno-0123456789',
      MANIFIESTO_OPERATOR_KEY: 'operadores-1-0123456789, operadores-2-0123456789',
      MANIFIESTO_PORT: '9100',
      MANIFIESTO_HOST: '10.1.1.1',
      MANIFIESTO_DB: 'otra/base.db',
    },
  })
  assert.equal(config.auth.apiKey, 'clave-del-entorno-0123456789')
  assert.deepEqual(
    config.auth.operatorKey,
    ['operadores-1-0123456789', 'operadores-2-0123456789'],
    'a comma-separated list rotates keys',
  )
  assert.equal(config.server.port, 9100)
  assert.equal(config.server.host, '10.1.1.1')
  assert.equal(config.database.path, join(dir, 'otra/base.db'))
})

test('config: a bad env override is reported like a bad file value', () => {
  assert.throws(
    () => loadConfig({ env: { MANIFIESTO_PORT: 'ochenta' }, cwd: folder() }),
    /«server\.port» \(de la variable de entorno MANIFIESTO_PORT=ochenta\) debe ser un entero \(se recibió "ochenta"\)/,
  )
})

test('config: keys may be an array (rotation)', () => {
  const dir = folder()
  const file = writeConfig(dir, { auth: { apiKey: ['clave-vieja-0123456789', 'clave-nueva-0123456789'] } })
  assert.deepEqual(loadConfig({ flag: file, env: {}, cwd: dir }).config.auth.apiKey, [
    'clave-vieja-0123456789',
    'clave-nueva-0123456789',
  ])
})

test('config: every problem of a file is reported in one pass — types, limits and the rules between keys together', () => {
  const dir = folder()
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({
      server: { port: 'ocho' },
      dates: { timezone: 'Marte/Olympus' },
      rateLimits: { insertPerMinute: 0 },
      auth: { apiKey: 'la-misma-clave-0123456789', operatorKey: 'la-misma-clave-0123456789' },
    }),
  )
  assert.throws(
    () => loadConfig({ env: {}, cwd: dir }),
    (error: Error) =>
      error.message ===
      `${join(dir, 'config.json')}: «server.port» debe ser un entero (se recibió "ocho"); «rateLimits.insertPerMinute» tiene un valor imposible 0 (debe ser al menos 1); «dates.timezone» no es una zona horaria conocida ("Marte/Olympus"); «auth.apiKey» y «auth.operatorKey» no pueden compartir una clave: la del cliente nunca debe abrir la API de operadores`,
  )
})

test('config: a wrong key is never echoed in the message', () => {
  const dir = folder()
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ auth: { apiKey: ['secreta-buena', ''] } }))
  assert.throws(
    () => loadConfig({ env: {}, cwd: dir }),
    (error: Error) => error.message.includes('«auth.apiKey»') && !error.message.includes('secreta-buena'),
  )
})

test('config: clientContract "v2" brings its defaults — a 7-business-day window and re-issue blocks refused — and a written value still wins', () => {
  const dir = folder()
  const defaults = loadConfig({ flag: writeConfig(dir, { clientContract: 'v2' }), env: {}, cwd: dir }).config
  assert.deepEqual(
    [
      defaults.clientContract,
      defaults.returns.windowBusinessDays,
      defaults.intake.reissue.action,
      defaults.returns.listing.maxRangeDays,
    ],
    ['v2', 7, 'reject', 31],
  )
  const written = loadConfig({
    flag: writeConfig(dir, {
      clientContract: 'v2',
      returns: { windowBusinessDays: 5 },
      intake: { reissue: { action: 'flag' } },
    }),
    env: {},
    cwd: dir,
  }).config
  assert.deepEqual([written.returns.windowBusinessDays, written.intake.reissue.action], [5, 'flag'])
  const v1 = loadConfig({ flag: writeConfig(dir, { clientContract: 'v1' }), env: {}, cwd: dir }).config
  assert.deepEqual([v1.returns.windowBusinessDays, v1.intake.reissue.action], [0, 'flag'])
})
