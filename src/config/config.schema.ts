import Type, { type Static } from 'typebox'
import { LocalDate } from '../schemas/vocabulary.ts'

/**
 * Every configuration key with its type and limits (contract §2 and §10), and the built-in
 * defaults. `config.example.json` shows the same values; a test keeps them equal.
 */
/** One or several keys: an array lets a key be rotated without downtime. */
const KeySet = Type.Union([Type.String(), Type.Array(Type.String({ minLength: 1 }))], {
  errorMessage: 'una cadena o una lista de cadenas no vacías',
})
const PerMinute = Type.Integer({ minimum: 1 })
const Port = Type.Integer({ minimum: 0, maximum: 65535 })

/**
 * Node's time for an idle kept-alive connection (its default, written out by the server). The
 * headers of a request must be allowed longer: Node's guidance, so that a proxy's kept-alive
 * connection is never cut by the header time while it waits for its next request.
 */
export const KEEP_ALIVE_SECONDS = 5

export const ConfigSchema = Type.Object(
  {
    server: Type.Object(
      {
        host: Type.String({ minLength: 1 }),
        port: Port,
        // How many proxies stand in front (0 = none); true and false, as the first release wrote it, are 1 and 0.
        trustProxy: Type.Union([Type.Integer({ minimum: 0 }), Type.Boolean()], {
          errorMessage:
            'el número de proxies delante del servicio: un entero desde 0, o true, que vale 1, o false, que vale 0',
        }),
        maxBodyMB: Type.Number({ exclusiveMinimum: 0, maximum: 2048 }),
        bodyTimeoutSeconds: Type.Integer({ minimum: 1, maximum: 3600 }),
        headersTimeoutSeconds: Type.Integer({ minimum: KEEP_ALIVE_SECONDS + 1, maximum: 300 }),
        // Each open connection holds a file descriptor: the total stays well below the process's
        // limit (1,024 by default on Linux), so SQLite, the log and the backups always find theirs.
        maxConnections: Type.Integer({ minimum: 1, maximum: 100_000 }),
        maxConnectionsPerIp: Type.Integer({ minimum: 1, maximum: 100_000 }),
        https: Type.Object({ certFile: Type.String(), keyFile: Type.String() }, { additionalProperties: false }),
      },
      { additionalProperties: false },
    ),
    database: Type.Object({ path: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
    auth: Type.Object(
      {
        apiKey: KeySet,
        operatorKey: KeySet,
        sessionIdleHours: Type.Number({ exclusiveMinimum: 0, maximum: 24 * 30 }),
        sessionMaxDays: Type.Number({ exclusiveMinimum: 0, maximum: 365 }),
      },
      { additionalProperties: false },
    ),
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
        validatePerMinute: PerMinute,
        returnsPerMinute: PerMinute,
        generalPerMinute: PerMinute,
        operatorPerMinute: PerMinute,
        loginPerMinute: PerMinute,
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
        reissue: Type.Object(
          {
            enabled: Type.Boolean(),
            // Legitimate repeat orders (the same weekly basket) come 5–7 days apart: never that far.
            windowDays: Type.Integer({ minimum: 0, maximum: 4 }),
            blockThreshold: Type.Integer({ minimum: 1, maximum: 10_000 }),
            action: Type.Union([Type.Literal('flag'), Type.Literal('reject')], { errorMessage: '"flag" o "reject"' }),
          },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
    returns: Type.Object(
      {
        windowBusinessDays: Type.Integer({ minimum: 0, maximum: 60 }),
        holidays: Type.Array(LocalDate('Feriado: no es día hábil para el plazo de devoluciones'), { maxItems: 1000 }),
        listing: Type.Object(
          { maxRangeDays: Type.Integer({ minimum: 1, maximum: 366 }) },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
    clientContract: Type.Union([Type.Literal('v1'), Type.Literal('v2')], { errorMessage: '"v1" o "v2"' }),
    backup: Type.Object(
      {
        dir: Type.String({ minLength: 1 }),
        // 0 turns the automatic snapshots off; the watch that takes them runs every 10 minutes.
        everyHours: Type.Number({ minimum: 0, maximum: 24 * 366 }),
        keep: Type.Integer({ minimum: 1, maximum: 10_000 }),
        // A second folder off the machine (a mounted share, a NAS, a USB disk) that receives each
        // snapshot; "" = none. Never created by the service: a missing folder is an unmounted one.
        copyTo: Type.String(),
      },
      { additionalProperties: false },
    ),
    alerts: Type.Object(
      {
        webhookUrl: Type.String(),
        // Under this many MB free at the database's or the backups' folder, the webhook is alerted.
        minFreeDiskMB: Type.Integer({ minimum: 0, maximum: 10_000_000 }),
      },
      { additionalProperties: false },
    ),
    settlement: Type.Object(
      {
        // The banks a deposit may name, as the console offers them (a deposit keeps the name it was given).
        banks: Type.Array(Type.String({ minLength: 1, maxLength: 60 }), { minItems: 1, maxItems: 50 }),
        maxReceiptMB: Type.Number({ exclusiveMinimum: 0, maximum: 50 }),
        // 0 keeps every receipt file for ever.
        receiptRetentionDays: Type.Integer({ minimum: 0, maximum: 36_500 }),
        // Lempiras with at most two decimals (a cent adjustment, not a way to square a manifest by hand).
        maxAdjustment: Type.Number({ minimum: 0.01, maximum: 100 }),
        closeRequiresSettlement: Type.Boolean(),
      },
      { additionalProperties: false },
    ),
    log: Type.Object(
      {
        level: Type.Union(
          [
            Type.Literal('fatal'),
            Type.Literal('error'),
            Type.Literal('warn'),
            Type.Literal('info'),
            Type.Literal('debug'),
            Type.Literal('trace'),
          ],
          { errorMessage: 'fatal, error, warn, info, debug o trace' },
        ),
        file: Type.String(),
        // Files of earlier days kept beside log.file (one per local day).
        keepDays: Type.Integer({ minimum: 1, maximum: 3650 }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
)

/** The configuration as a file may write it (`server.trustProxy` still possibly true or false). */
export type ConfigFile = Static<typeof ConfigSchema>

/** The configuration the service runs on: `server.trustProxy` is the number of proxies in front. */
export type Config = Omit<ConfigFile, 'server'> & {
  server: Omit<ConfigFile['server'], 'trustProxy'> & { trustProxy: number }
}

/** The built-in defaults; `config.example.json` shows the same values (a test keeps them equal). */
export const DEFAULT_CONFIG: Config = {
  server: {
    host: '0.0.0.0',
    port: 8080,
    trustProxy: 0,
    maxBodyMB: 128,
    bodyTimeoutSeconds: 120,
    headersTimeoutSeconds: 20,
    maxConnections: 512,
    maxConnectionsPerIp: 32,
    https: { certFile: '', keyFile: '' },
  },
  database: { path: 'data/manifiesto.db' },
  auth: { apiKey: '', operatorKey: '', sessionIdleHours: 12, sessionMaxDays: 7 },
  warehouses: ['OAC', 'OAS', 'OAO'],
  dates: { timezone: 'America/Tegucigalpa', maxAgeDays: 30, strictMixedDates: false },
  rateLimits: {
    insertPerMinute: 5,
    validatePerMinute: 30,
    returnsPerMinute: 10,
    generalPerMinute: 60,
    operatorPerMinute: 600,
    loginPerMinute: 10,
  },
  returnsCache: { pastDateMinutes: 60, todayMinutes: 5 },
  intake: {
    autoUpdateFields: [],
    rawPayloadRetentionDays: 180,
    maxConcurrentBatches: 2,
    reissue: { enabled: true, windowDays: 3, blockThreshold: 3, action: 'flag' },
  },
  returns: { windowBusinessDays: 0, holidays: [], listing: { maxRangeDays: 31 } },
  clientContract: 'v1',
  backup: { dir: 'backups', everyHours: 24, keep: 14, copyTo: '' },
  alerts: { webhookUrl: '', minFreeDiskMB: 1024 },
  settlement: {
    banks: ['Banco de Occidente', 'BAC Credomatic', 'Ficohsa', 'Banco Atlántida', 'Banpaís'],
    maxReceiptMB: 5,
    receiptRetentionDays: 400,
    maxAdjustment: 1,
    closeRequiresSettlement: true,
  },
  log: { level: 'info', file: '', keepDays: 30 },
}

/**
 * The keys whose default depends on the client contract (issue 19): in v2 the supplier expects
 * complete packages after a 7-business-day window, and blocks of re-issues refused. A value
 * written in the file always wins over these.
 */
export function defaultConfigFor(contract: Config['clientContract']): Config {
  if (contract === 'v1') return DEFAULT_CONFIG
  const defaults = structuredClone(DEFAULT_CONFIG)
  defaults.clientContract = 'v2'
  defaults.returns.windowBusinessDays = 7
  defaults.intake.reissue.action = 'reject'
  return defaults
}
