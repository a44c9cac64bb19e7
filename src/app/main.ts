import type { Listener } from 'listhen'
import type { DestinationStream } from 'pino'
import { createApp } from './app.ts'
import { DEFAULT_PASSWORD_COST } from '../accounts/passwords.ts'
import { pruneSessions } from '../accounts/sessions.service.ts'
import { countAdministrators } from '../accounts/users.service.ts'
import { failInterruptedBatches, pruneRawPayloads } from '../batches/batches.service.ts'
import { systemClock } from '../core/clock.ts'
import { keyList, type LoadedConfig } from '../config/config.ts'
import { closeDatabase, openDatabase } from '../db/database.ts'
import { migrateDatabase } from '../db/migrate.ts'
import { QuietCheckpoints } from '../db/quiet-checkpoints.ts'
import { pruneReceipts } from '../settlement/receipts.service.ts'
import { collectStartupGarbage } from './startup-heap.ts'
import { prepareInvoiceInserts } from '../invoices/invoices.store.ts'
import { startServer } from '../http/server.ts'
import { createLogger } from '../logging/logger.ts'
import { MONITOR_EVERY_MS } from '../monitoring/monitor.ts'
import { VERSION } from '../core/version.ts'
import { DERIVED_VALUES } from './derived-values.ts'

export interface RunningService {
  listener: Listener
  /** Stops accepting requests, lets the ones in flight finish, closes the database. */
  stop: () => Promise<void>
}

/**
 * `manifiesto serve`: owns the process. Opens and migrates the database, listens, then starts the
 * background work (pruning, snapshots, the disk watch), and on SIGTERM/SIGINT drains and closes
 * cleanly. Throws (before anything runs in the background) on an unusable database or address.
 */
export async function serve(
  { config, file }: LoadedConfig,
  options: { stdout?: DestinationStream } = {},
): Promise<RunningService> {
  const clock = systemClock(config.dates.timezone)
  const log = createLogger(config.log, { clock, ...(options.stdout === undefined ? {} : { stdout: options.stdout }) })
  const db = openDatabase(config.database.path)
  let stopping: Promise<void> | undefined
  try {
    const migrationStarted = clock.now()
    const migration = migrateDatabase(db, DERIVED_VALUES)
    if (migration.from > 0 && migration.from !== migration.to) {
      const segundos = Math.round((clock.now().toEpochMilli() - migrationStarted.toEpochMilli()) / 100) / 10
      log.info({ desde: migration.from, hasta: migration.to, segundos }, 'base de datos migrada')
    }
    prepareInvoiceInserts(db)
    const interrupted = failInterruptedBatches({ db, clock })
    if (interrupted > 0)
      log.warn(
        { lotes: interrupted },
        'lotes interrumpidos por una detención anterior: marcados como fallidos (un reenvío se procesa)',
      )
    const {
      listener: requestListener,
      monitor,
      snapshots,
      errors,
      close: closeApp,
    } = createApp({ config, db, clock, log })
    const checkpoints = new QuietCheckpoints(db, (error) => {
      log.error(
        { err: error },
        'no se pudo copiar el registro WAL a la base de datos; se reintenta en el próximo momento sin solicitudes',
      )
      errors.record(error)
    })
    const listener = await startServer(
      (request, response) => {
        checkpoints.track(request, response)
        return requestListener(request, response)
      },
      config.server,
      { log, clock },
    )
    checkpoints.soon()

    const prune = () => {
      try {
        const removed = pruneRawPayloads({ db, clock }, config.intake.rawPayloadRetentionDays)
        if (removed > 0)
          log.info(
            { lotes: removed, dias: config.intake.rawPayloadRetentionDays },
            'cuerpos originales de lotes antiguos eliminados',
          )
        const sessions = pruneSessions({ db, clock, settings: config.auth, passwordCost: DEFAULT_PASSWORD_COST })
        if (sessions > 0) log.info({ sesiones: sessions }, 'sesiones vencidas eliminadas')
        const receipts = pruneReceipts({ db, clock, config })
        if (receipts > 0)
          log.info(
            { comprobantes: receipts, dias: config.settlement.receiptRetentionDays },
            'comprobantes de depósitos antiguos eliminados (los depósitos se conservan)',
          )
      } catch (error) {
        log.error(
          { err: error },
          'no se pudieron eliminar los cuerpos originales antiguos, las sesiones vencidas o los comprobantes antiguos; se reintenta mañana',
        )
        errors.record(error)
      }
    }
    prune()
    const pruneTimer = setInterval(prune, 24 * 60 * 60 * 1000).unref()
    const watch = () => void monitor.tick()
    watch()
    const monitorTimer = setInterval(watch, MONITOR_EVERY_MS).unref()

    announce({
      config,
      file,
      log,
      url: serviceUrl(config.server, listener.address.port),
      schema: migration.to,
      administrators: countAdministrators({ db }),
    })
    collectStartupGarbage()

    const stop = () =>
      (stopping ??= (async () => {
        log.info('deteniendo: no se aceptan más solicitudes; se terminan las que están en curso')
        clearInterval(pruneTimer)
        clearInterval(monitorTimer)
        await listener.close()
        checkpoints.stop()
        // A copy off the machine can take minutes on a slow share: it is stopped (and tried again at the next start).
        snapshots.stop()
        await snapshots.idle()
        await closeApp()
        closeDatabase(db)
        log.info('detenido')
        log.flush()
      })())
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => void stop().then(() => process.exit(0)))
    }
    return { listener, stop }
  } catch (error) {
    closeDatabase(db)
    throw error
  }
}

/**
 * The address to type in a browser on the server itself: an address that listens on every
 * interface (0.0.0.0, ::) is reached there as localhost (and from elsewhere by the server's name).
 */
function serviceUrl(server: LoadedConfig['config']['server'], port: number): string {
  const everywhere = server.host === '0.0.0.0' || server.host === '::'
  const host = everywhere ? 'localhost' : server.host.includes(':') ? `[${server.host}]` : server.host
  return `${server.https.certFile === '' ? 'http' : 'https'}://${host}:${port}/`
}

/**
 * What an administrator needs to see at start: where the service and its console answer, which
 * configuration, database and backup folder it uses, and whether keys and accounts are set up —
 * each missing one with the next step.
 */
function announce(options: {
  config: LoadedConfig['config']
  file: string | null
  log: ReturnType<typeof createLogger>
  url: string
  schema: number
  administrators: number
}): void {
  const { config, file, log } = options
  const clientKeys = keyList(config.auth.apiKey).length
  const operatorKeys = keyList(config.auth.operatorKey).length
  log.info(
    {
      version: VERSION,
      url: options.url,
      consola: new URL('/consola/', options.url).toString(),
      config: file ?? 'valores por defecto',
      base_de_datos: config.database.path,
      copias: config.backup.everyHours > 0 ? config.backup.dir : 'desactivadas (backup.everyHours = 0)',
      registro: config.log.file === '' ? 'solo salida estándar' : config.log.file,
      schema: options.schema,
      claves_cliente: clientKeys,
      claves_operadores: operatorKeys,
      administradores: options.administrators,
    },
    'manifiesto escuchando',
  )
  log.info({ contrato: config.clientContract }, `contrato con el cliente: ${config.clientContract}`)
  if (options.administrators === 0) {
    const command = `manifiesto usuario crear admin --rol admin${file === null ? '' : ` --config ${file}`}`
    log.warn(
      { comando: command },
      `no hay ningún administrador activo: créelo con «${command}» (pide la contraseña), y entre a la consola con él`,
    )
  }
  if (clientKeys === 0) {
    log.warn(
      'sin auth.apiKey configurada: los endpoints protegidos responden 503 (ver la guía de administración, "Referencia de la configuración")',
    )
  }
  if (operatorKeys === 0 && options.administrators === 0) {
    log.warn('sin auth.operatorKey ni cuentas personales: nadie puede usar la API de operadores ni la consola todavía')
  }
}
