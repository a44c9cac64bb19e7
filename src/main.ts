import type { Listener } from 'listhen'
import { createApp } from './app.ts'
import { Snapshotter } from './backup/backup.service.ts'
import { DEFAULT_PASSWORD_COST } from './accounts/passwords.ts'
import { pruneSessions } from './accounts/sessions.service.ts'
import { hasActiveAdmin } from './accounts/users.service.ts'
import { failInterruptedBatches, pruneRawPayloads } from './batches/batches.service.ts'
import { systemClock } from './clock.ts'
import { keyList, type LoadedConfig } from './config.ts'
import { closeDatabase, openDatabase } from './db/database.ts'
import { migrateDatabase } from './db/migrate.ts'
import { startServer } from './http/server.ts'
import { createLogger } from './logger.ts'
import { VERSION } from './version.ts'

export interface RunningService {
  listener: Listener
  /** Stops accepting requests, lets the ones in flight finish, closes the database. */
  stop: () => Promise<void>
}

/**
 * `manifiesto serve`: owns the process. Opens and migrates the database, serves, and on
 * SIGTERM/SIGINT drains and closes cleanly. Throws (before listening) on an unusable database.
 */
export async function serve({ config, file }: LoadedConfig): Promise<RunningService> {
  const log = createLogger(config.log)
  const clock = systemClock(config.dates.timezone)
  const db = openDatabase(config.database.path)
  let stopping: Promise<void> | undefined
  try {
    const migration = migrateDatabase(db)
    const interrupted = failInterruptedBatches({ db, clock })
    if (interrupted > 0) log.warn({ lotes: interrupted }, 'lotes interrumpidos por una detención anterior: marcados como fallidos (un reenvío se procesa)')
    const prune = () => {
      try {
        const removed = pruneRawPayloads({ db, clock }, config.intake.rawPayloadRetentionDays)
        if (removed > 0) log.info({ lotes: removed, dias: config.intake.rawPayloadRetentionDays }, 'cuerpos originales de lotes antiguos eliminados')
        const sessions = pruneSessions({ db, clock, settings: config.auth, passwordCost: DEFAULT_PASSWORD_COST })
        if (sessions > 0) log.info({ sesiones: sessions }, 'sesiones vencidas eliminadas')
      } catch (error) {
        log.error({ err: error }, 'no se pudieron eliminar los cuerpos originales antiguos o las sesiones vencidas; se reintenta mañana')
      }
    }
    prune()
    const pruneTimer = setInterval(prune, 24 * 60 * 60 * 1000).unref()
    const snapshots = new Snapshotter(db, clock, config.backup, log)
    const snapshot = () =>
      void snapshots.runIfDue().catch((error: unknown) => log.error({ err: error }, 'no se pudo crear la copia de seguridad automática'))
    snapshot()
    const snapshotTimer = setInterval(snapshot, 10 * 60 * 1000).unref()
    const { listener: requestListener } = createApp({ config, db, clock, log })
    const listener = await startServer(requestListener, config.server)
    log.info(
      {
        version: VERSION,
        url: listener.url,
        config: file ?? 'valores por defecto',
        database: config.database.path,
        schema: migration.to,
      },
      'manifiesto escuchando',
    )
    log.info({ contrato: config.clientContract }, `contrato con el cliente: ${config.clientContract}`)
    if (!hasActiveAdmin({ db })) {
      const command = `manifiesto usuario crear admin --rol admin${file === null ? '' : ` --config ${file}`}`
      log.warn({ comando: command }, `no hay ningún administrador activo: créelo con «${command}» (pide la contraseña), y entre a la consola con él`)
    }
    if (keyList(config.auth.apiKey).length === 0) {
      log.warn('sin auth.apiKey configurada: los endpoints protegidos responden 503 (ver README, "Configuración")')
    }
    const stop = () =>
      (stopping ??= (async () => {
        log.info('deteniendo: no se aceptan más solicitudes; se terminan las que están en curso')
        clearInterval(pruneTimer)
        clearInterval(snapshotTimer)
        await listener.close()
        await snapshots.idle()
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
