import { existsSync } from 'node:fs'
import { dirname } from 'node:path'
import type { Logger } from 'pino'
import type { Alerter } from '../alerts/alerter.ts'
import type { Snapshotter } from '../backup/backup.service.ts'
import type { Config } from '../config/config.ts'
import type { DiskReader } from './disk.ts'
import type { RecentErrors } from './recent-errors.ts'

export interface FolderDisk {
  folder: string
  /** Free bytes, or null when the file system could not be asked. */
  freeBytes: number | null
  /** Under `alerts.minFreeDiskMB`. */
  low: boolean
}

export interface MonitorDeps {
  config: Config
  log: Logger
  alerter: Alerter
  snapshots: Snapshotter
  readFreeDisk: DiskReader
  errors: RecentErrors
}

/** How often the service runs a round (main.ts): the snapshot when due, then the disks. */
export const MONITOR_EVERY_MS = 10 * 60 * 1000

/**
 * The service's background watch: the automatic snapshot when due, and free disk at the
 * database's and the backups' folders. A failed snapshot and a disk under `alerts.minFreeDiskMB`
 * are conditions: alerted once when they begin, again only after they cleared.
 */
export class Monitor {
  constructor(private readonly deps: MonitorDeps) {}

  /** One round. Never throws: what fails is logged, alerted and counted among the internal errors. */
  async tick(): Promise<void> {
    await this.snapshotIfDue()
    this.checkOffMachine()
    this.checkDisks()
  }

  /** Free disk now at the database's folder, at the backups' folder and at backup.copyTo (null without it). */
  disks(): { database: FolderDisk; backups: FolderDisk; offMachine: FolderDisk | null } {
    const { copyTo } = this.deps.config.backup
    return {
      database: this.measure(dirname(this.deps.config.database.path)),
      backups: this.measure(this.deps.config.backup.dir),
      // Not there (a share not mounted): unknown, not the free space of the disk under its mount point.
      offMachine:
        copyTo === ''
          ? null
          : existsSync(copyTo)
            ? this.measure(copyTo)
            : { folder: copyTo, freeBytes: null, low: false },
    }
  }

  private async snapshotIfDue(): Promise<void> {
    const { snapshots, alerter, errors, log, config } = this.deps
    try {
      const taken = await snapshots.runIfDue()
      if (taken !== null) alerter.condition('copia_fallida', false, '')
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      log.error({ err: error }, 'no se pudo crear la copia de seguridad automática')
      errors.record(error, {})
      alerter.condition(
        'copia_fallida',
        true,
        `La copia de seguridad automática falló: ${reason}. Revise la carpeta backup.dir (${config.backup.dir}): que exista, que el servicio pueda escribir en ella y que tenga espacio. Se reintenta cada ${MONITOR_EVERY_MS / 60_000} minutos.`,
        { carpeta: config.backup.dir, error: reason },
      )
    }
  }

  /**
   * backup.copyTo: the last copy failed (alerted until one succeeds), or the newest copy there is
   * older than twice backup.everyHours (alerted until a fresh one arrives).
   */
  private checkOffMachine(): void {
    const { snapshots, alerter, config } = this.deps
    const folder = config.backup.copyTo
    const attempt = snapshots.offMachine?.lastAttempt() ?? null
    alerter.condition(
      'copia_externa_fallida',
      attempt?.error != null,
      `La copia fuera del servidor falló: ${attempt?.error ?? ''}. Revise backup.copyTo (${folder}): que esté montada, que el servicio pueda escribir en ella y que tenga espacio. ` +
        `La copia local de backup.dir (${config.backup.dir}) está bien; se reintenta cada ${MONITOR_EVERY_MS / 60_000} minutos.`,
      { carpeta: folder, error: attempt?.error ?? null },
    )
    const freshness = snapshots.offMachineFreshness()
    if (freshness === null) return
    const hours = 2 * config.backup.everyHours
    alerter.condition(
      'copia_externa_atrasada',
      freshness.late,
      `No hay una copia fuera del servidor de las últimas ${hours} horas en backup.copyTo (${folder})${freshness.newestAt === null ? ': no hay ninguna' : ''}. ` +
        'Revise que la carpeta esté montada y que el servicio pueda escribir en ella; el estado del servicio (copias.fuera_del_servidor) dice cómo salió el último intento.',
      { carpeta: folder, horas: hours },
    )
  }

  private checkDisks(): void {
    const { database, backups } = this.disks()
    this.alertDisk(
      'disco_base_de_datos',
      'la carpeta de la base de datos',
      database,
      'sin espacio, el servicio no puede guardar lotes ni devoluciones',
    )
    this.alertDisk(
      'disco_copias',
      'la carpeta de las copias de seguridad',
      backups,
      'lleve las copias viejas a otra máquina y bórrelas, o baje backup.keep',
    )
  }

  private alertDisk(kind: string, where: string, disk: FolderDisk, advice: string): void {
    if (disk.freeBytes === null) return
    const minimum = this.deps.config.alerts.minFreeDiskMB
    const freeMB = Math.floor(disk.freeBytes / MB)
    this.deps.alerter.condition(
      kind,
      disk.low,
      `Queda poco disco en ${where} (${disk.folder}): ${freeMB} MB libres, menos que alerts.minFreeDiskMB (${minimum} MB). Libere espacio o amplíe el disco: ${advice}.`,
      { carpeta: disk.folder, libre_mb: freeMB, minimo_mb: minimum },
    )
  }

  private measure(folder: string): FolderDisk {
    const freeBytes = this.deps.readFreeDisk(folder)
    return { folder, freeBytes, low: freeBytes !== null && freeBytes < this.deps.config.alerts.minFreeDiskMB * MB }
  }
}

const MB = 1024 * 1024
