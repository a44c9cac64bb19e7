import { statSync } from 'node:fs'
import { Instant } from '@js-joda/core'
import type { Alerter } from '../alerts/alerter.ts'
import type { Snapshotter } from '../backup/backup.service.ts'
import {
  formatLocalDateTime,
  isoWithOffset,
  nowMillis,
  startOfLocalDay,
  today,
  toStoredInstant,
  type Clock,
} from '../core/clock.ts'
import type { Config } from '../config/config.ts'
import type { Database } from '../db/database.ts'
import type { Monitor } from '../monitoring/monitor.ts'
import type { RecentErrors } from '../monitoring/recent-errors.ts'
import { VERSION } from '../core/version.ts'
import type { ServiceStatus } from './status.schemas.ts'
import { countPendingConflicts } from '../conflicts/conflicts.store.ts'
import { countPendingReissues } from '../reissues/reissues.store.ts'
import { countPendingReturns } from '../returns/returns.store.ts'
import { countBatchesSince, findLastBatch } from './status.store.ts'

/** The status counts every warehouse's pending work (a null scope: no warehouse filter). */
const EVERY_WAREHOUSE = null

export interface StatusDeps {
  db: Database
  clock: Clock
  config: Config
  /** When the service started (createApp). */
  startedAt: Instant
  monitor: Monitor
  snapshots: Snapshotter
  errors: RecentErrors
  alerter: Alerter
}

/** Internal errors listed (the count covers them all). */
const RECENT_ERRORS = 20

/**
 * Everything an administrator watches, in one answer: version and uptime, the database's size and
 * free disk at its folder, batches, what waits for a decision, the automatic backups and free disk
 * at their folder, the alerts in force and the internal errors of the last 24 hours. Sizes come
 * from `stat` and free space from `statfs` on the folders: the database file is never opened here.
 */
export function getServiceStatus(deps: StatusDeps): ServiceStatus {
  const { db, clock, config } = deps
  const local = (millis: number) => formatLocalDateTime(clock, toStoredInstant(Instant.ofEpochMilli(millis)))
  const disks = deps.monitor.disks()
  const last = findLastBatch(db)
  const batches = countBatchesSince(db, startOfLocalDay(clock, today(clock).toString()))
  const errors = deps.errors.lastDay(RECENT_ERRORS)
  const next = deps.snapshots.nextDue()
  return {
    servicio: {
      version: VERSION,
      iniciado_en: formatLocalDateTime(clock, toStoredInstant(deps.startedAt)),
      activo_segundos: Math.max(0, Math.floor((nowMillis(clock) - deps.startedAt.toEpochMilli()) / 1000)),
      hora_servidor: isoWithOffset(clock),
      contrato_cliente: config.clientContract,
    },
    base_de_datos: {
      ruta: db.path,
      tamano_bytes: sizeOf(db.path),
      wal_bytes: sizeOf(`${db.path}-wal`),
      disco_libre_bytes: disks.database.freeBytes,
      disco_bajo: disks.database.low,
    },
    lotes: {
      ultimo:
        last === undefined
          ? null
          : { batch_uuid: last.uuid, recibido_en: formatLocalDateTime(clock, last.received_at), estado: last.estado },
      hoy: batches.total,
      fallidos_hoy: batches.failed,
    },
    pendientes: {
      conflictos: countPendingConflicts(db, EVERY_WAREHOUSE),
      devoluciones: countPendingReturns(db, EVERY_WAREHOUSE),
      reemisiones: countPendingReissues(db, EVERY_WAREHOUSE),
    },
    copias: {
      automaticas: config.backup.everyHours > 0,
      carpeta: config.backup.dir,
      disco_libre_bytes: disks.backups.freeBytes,
      disco_bajo: disks.backups.low,
      ultima: lastBackup(deps, local),
      proxima: next === null ? null : local(next),
      fuera_del_servidor: offMachine(deps, local),
    },
    alertas: {
      webhook: config.alerts.webhookUrl !== '',
      min_disco_libre_mb: config.alerts.minFreeDiskMB,
      activas: deps.alerter.activeConditions(),
    },
    errores_internos: {
      ultimas_24_horas: errors.count,
      recientes: errors.recent.map(({ at, ...error }) => ({ hora: local(at), ...error })),
    },
  }
}

/** The last snapshot tried since the start, else the newest one in the folder (a file with its final name is complete). */
function lastBackup(deps: StatusDeps, local: (millis: number) => string): ServiceStatus['copias']['ultima'] {
  return outcome(deps.snapshots.lastAttempt(), deps.snapshots.snapshots()[0], local)
}

/** backup.copyTo: its last copy (tried, else the newest there), the newest one's time and whether it is late. */
function offMachine(
  deps: StatusDeps,
  local: (millis: number) => string,
): ServiceStatus['copias']['fuera_del_servidor'] {
  const copies = deps.snapshots.offMachine
  if (copies === null) return null
  const newest = copies.copies()[0]
  const disk = deps.monitor.disks().offMachine
  return {
    carpeta: copies.folder,
    disco_libre_bytes: disk?.freeBytes ?? null,
    ultima: outcome(copies.lastAttempt(), newest, local),
    mas_reciente: newest === undefined ? null : local(newest.takenAt),
    atrasada: deps.snapshots.offMachineFreshness()?.late ?? false,
  }
}

function outcome(
  attempt: { at: number; file: string; bytes: number | null; error: string | null; durationMs: number } | null,
  newest: { file: string; takenAt: number } | undefined,
  local: (millis: number) => string,
): ServiceStatus['copias']['ultima'] {
  if (attempt !== null) {
    return {
      hora: local(attempt.at),
      archivo: attempt.file,
      tamano_bytes: attempt.bytes,
      resultado: attempt.error === null ? 'ok' : 'error',
      error: attempt.error,
      duracion_segundos: Math.round(attempt.durationMs / 100) / 10,
    }
  }
  if (newest === undefined) return null
  return {
    hora: local(newest.takenAt),
    archivo: newest.file,
    tamano_bytes: sizeOf(newest.file),
    resultado: 'ok',
    error: null,
    duracion_segundos: null,
  }
}

function sizeOf(file: string): number | null {
  try {
    return statSync(file).size
  } catch {
    return null
  }
}
