import { mkdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import type { Logger } from 'pino'
import { localDateTime, nowMillis, type Clock } from '../core/clock.ts'
import type { Config } from '../config/config.ts'
import type { Database } from '../db/database.ts'
import { nativeAddon } from '../db/native-addon.ts'
import { checkIntegrityInThread } from './integrity-thread.ts'
import { OffMachineCopies, type CopyFile } from './off-machine-copy.ts'
import { removeLeftovers, snapshotsIn, STAMP } from './snapshot-names.ts'

export interface BackupResult {
  file: string
  bytes: number
}

const PAGES_PER_STEP = 100

/** Pages of a snapshot written so far, of the database's total. */
export type SnapshotProgress = (report: { done: number; total: number }) => void

/** The snapshot was written but did not pass its integrity check: it was deleted. */
export class SnapshotDamaged extends Error {
  override readonly name = 'SnapshotDamaged'
}

/**
 * A consistent online snapshot with SQLite's backup API: it sees the last committed state even
 * while a batch is being written. Written to a temporary name, switched to a single-file journal
 * (no -wal beside it), checked with SQLite's integrity check on a worker thread, then renamed into
 * place, so `file` is never a half-written or unchecked snapshot. The folder is made when missing.
 * The pages are copied a hundred at a time between turns of the event loop (better-sqlite3's
 * backup), so requests are answered meanwhile; the service's own connection copies them, so a
 * batch committed meanwhile is carried into the copy rather than restarting it.
 * @throws SnapshotDamaged, or the file system's or SQLite's error (nothing is left behind).
 */
export async function backupDatabase(
  deps: { db: Database },
  file: string,
  options: BackupOptions = {},
): Promise<BackupResult> {
  mkdirSync(dirname(file), { recursive: true })
  const temporary = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`)
  rmSync(temporary, { force: true })
  try {
    await writeSnapshot(deps.db, temporary, options.onProgress ?? (() => {}), options)
    const problems = await (options.verify ?? ((copy) => problemsOf(copy, options.signal)))(temporary)
    if (problems.length > 0)
      throw new SnapshotDamaged(
        `la copia no pasó la verificación de integridad de SQLite (${problems.slice(0, 3).join('; ')})`,
      )
    renameSync(temporary, file)
  } catch (error) {
    rmSync(temporary, { force: true })
    throw error
  }
  return { file, bytes: statSync(file).size }
}

export interface BackupOptions extends SnapshotOptions {
  onProgress?: SnapshotProgress
  /** The check of the written copy (the command line shows its progress): its problems. */
  verify?: (file: string) => Promise<string[]>
}

export interface SnapshotOptions {
  /**
   * For a connection that writes nothing meanwhile (the `backup` command's own): one read
   * transaction for the whole copy. SQLite restarts a backup whenever another connection writes
   * the source, so the command's copy of a database of gigabytes would start over at every batch
   * the service commits; inside one read transaction it copies the state of its start, whole.
   * The service's own snapshots must not (its connection writes the batches).
   */
  holdReadTransaction?: boolean
  /** Stops the snapshot between two steps (the service is closing): it fails, and its temporary file goes. */
  signal?: AbortSignal
}

/** The backup API into `file` (which must not exist), then a single-file journal on the copy. */
export async function writeSnapshot(
  db: Database,
  file: string,
  onProgress: SnapshotProgress,
  options: SnapshotOptions = {},
): Promise<void> {
  if (options.holdReadTransaction) {
    db.sqlite.exec('BEGIN')
    db.sqlite.prepare('SELECT count(*) FROM sqlite_schema').get()
  }
  try {
    await db.sqlite.backup(file, {
      progress: ({ totalPages, remainingPages }) => {
        // Thrown here, it ends the backup (better-sqlite3 closes it and rejects).
        options.signal?.throwIfAborted()
        onProgress({ done: totalPages - remainingPages, total: totalPages })
        // Pages per step, each step one turn of the event loop (better-sqlite3's own default).
        return PAGES_PER_STEP
      },
    })
  } finally {
    if (options.holdReadTransaction) db.sqlite.exec('COMMIT')
  }
  const addon = nativeAddon()
  const copy = new BetterSqlite3(file, {
    fileMustExist: true,
    ...(addon === undefined ? {} : { nativeBinding: addon as unknown as string }),
  })
  try {
    copy.pragma('journal_mode = DELETE')
  } finally {
    copy.close()
  }
}

/** SQLite's integrity check of a written copy, on a worker thread: its problems (none: intact). */
async function problemsOf(file: string, signal: AbortSignal | undefined): Promise<string[]> {
  return (await checkIntegrityInThread(file, undefined, signal)).problems
}

/** The last snapshot tried since the start: when, where, how it went and how long it took. */
export interface SnapshotAttempt {
  /** Epoch milliseconds. */
  at: number
  file: string
  /** Size of the snapshot written, or null when it failed. */
  bytes: number | null
  error: string | null
  /** Milliseconds from its start to its end (written, checked and renamed, or failed). */
  durationMs: number
}

export interface SnapshotterOptions {
  /** How a snapshot reaches backup.copyTo (tests slow it down); a streamed copy by default. */
  copyFile?: CopyFile
}

/**
 * The automatic snapshots of contract §5: every `backup.everyHours` a snapshot goes to
 * `backup.dir` (named by its local time), checked, keeping the newest `backup.keep`; then, with
 * `backup.copyTo`, the same snapshot is copied off the machine (off-machine-copy.ts).
 * `everyHours: 0` turns them off.
 */
export class Snapshotter {
  private running: Promise<void> | null = null
  private controller: AbortController | null = null
  private attempt: SnapshotAttempt | null = null
  /** The copies in backup.copyTo, or null without one. */
  readonly offMachine: OffMachineCopies | null
  /** When this service started watching (epoch ms): with no copy off the machine yet, lateness counts from here. */
  private readonly since: number

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly settings: Config['backup'],
    private readonly log: Logger,
    options: SnapshotterOptions = {},
  ) {
    this.offMachine = settings.copyTo === '' ? null : new OffMachineCopies(settings, clock, log, options.copyFile)
    this.since = nowMillis(clock)
  }

  /**
   * How current the copies off the machine are: the newest one's time, and whether it is older
   * than twice the interval (then an alert is due: a copy failed or stopped being made). With no
   * copy there yet, counted from the start of the service. Null without backup.copyTo or snapshots.
   */
  offMachineFreshness(): { newestAt: number | null; late: boolean } | null {
    if (this.offMachine === null || this.settings.everyHours <= 0) return null
    const newestAt = this.offMachine.copies()[0]?.takenAt ?? null
    return {
      newestAt,
      late: nowMillis(this.clock) - (newestAt ?? this.since) > 2 * this.settings.everyHours * 3_600_000,
    }
  }

  /**
   * Takes a snapshot if the newest one is older than the interval (or there is none), then copies
   * it off the machine. Not due, it copies the newest snapshot off the machine when the copy
   * there is missing (a share that was not mounted at the last round). The snapshot's failure is
   * thrown; the copy's is kept in `offMachine.lastAttempt()` (the local snapshot is there either way).
   */
  async runIfDue(): Promise<BackupResult | null> {
    if (this.settings.everyHours <= 0 || this.running) return null
    const newest = this.snapshots()[0]
    if (newest && nowMillis(this.clock) - newest.takenAt < this.settings.everyHours * 3_600_000) {
      const offMachine = this.offMachine
      if (offMachine !== null && !offMachine.holds(newest.file))
        await this.whileRunning(async (signal) => void (await offMachine.copy(newest.file, signal)))
      return null
    }
    let result: BackupResult | null = null
    const at = nowMillis(this.clock)
    const file = join(this.settings.dir, `manifiesto-${localDateTime(this.clock).format(STAMP)}.db`)
    await this.whileRunning(async (signal) => {
      removeLeftovers(this.settings.dir)
      try {
        result = await backupDatabase({ db: this.db }, file, { signal })
      } catch (error) {
        this.attempt = {
          at,
          file,
          bytes: null,
          error: error instanceof Error ? error.message : String(error),
          durationMs: nowMillis(this.clock) - at,
        }
        throw error
      }
      this.attempt = { at, file, bytes: result.bytes, error: null, durationMs: nowMillis(this.clock) - at }
      this.rotate()
      this.log.info(
        { file: result.file, bytes: result.bytes, segundos: Math.round(this.attempt.durationMs / 100) / 10 },
        'copia de seguridad automática creada',
      )
      await this.offMachine?.copy(result.file, signal)
    })
    return result
  }

  /** Resolves when no snapshot is being written (the service waits for it before closing). */
  async idle(): Promise<void> {
    await this.running?.catch(() => {})
  }

  /** Stops the snapshot or the copy off the machine under way (the service is closing; its temporary file is removed). */
  stop(): void {
    this.controller?.abort(new Error('se interrumpió: el servicio se detuvo'))
  }

  /** The last snapshot tried since the start, or null when none was (yet). */
  lastAttempt(): SnapshotAttempt | null {
    return this.attempt
  }

  /**
   * When the next snapshot is due (epoch ms): the newest one's time plus the interval, or now when
   * that passed (or there is none); null when automatic snapshots are off.
   */
  nextDue(): number | null {
    if (this.settings.everyHours <= 0) return null
    const newest = this.snapshots()[0]
    const now = nowMillis(this.clock)
    return newest === undefined ? now : Math.max(now, newest.takenAt + this.settings.everyHours * 3_600_000)
  }

  /** Snapshot files, newest first, by the time in their names. */
  snapshots(): Array<{ file: string; takenAt: number }> {
    return snapshotsIn(this.settings.dir, this.clock)
  }

  private async whileRunning(work: (signal: AbortSignal) => Promise<void>): Promise<void> {
    const controller = (this.controller = new AbortController())
    this.running = work(controller.signal)
    try {
      await this.running
    } finally {
      this.running = null
      this.controller = null
    }
  }

  private rotate(): void {
    for (const old of this.snapshots().slice(this.settings.keep)) rmSync(old.file, { force: true })
  }
}
