import { mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { DateTimeFormatter, LocalDateTime } from '@js-joda/core'
import type { Logger } from 'pino'
import { localDateTime, nowMillis, type Clock } from '../core/clock.ts'
import type { Config } from '../config/config.ts'
import { closeDatabase, openDatabase, type Database } from '../db/database.ts'

export interface BackupResult {
  file: string
  bytes: number
}

/**
 * A consistent online snapshot with SQLite's backup API: it sees the last committed state even
 * while a batch is being written. Written to a temporary name, switched to a single-file journal
 * (no -wal beside it), then renamed into place, so `file` is never a half-written snapshot.
 */
export async function backupDatabase(deps: { db: Database }, file: string): Promise<BackupResult> {
  const { db } = deps
  mkdirSync(dirname(file), { recursive: true })
  const temporary = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`)
  rmSync(temporary, { force: true })
  try {
    await db.sqlite.backup(temporary)
    const copy = openDatabase(temporary, { mustExist: true })
    try {
      copy.sqlite.pragma('journal_mode = DELETE')
    } finally {
      closeDatabase(copy)
    }
    renameSync(temporary, file)
  } catch (error) {
    rmSync(temporary, { force: true })
    throw error
  }
  return { file, bytes: statSync(file).size }
}

/** The last automatic snapshot tried since the start: when, where, and how it went. */
export interface SnapshotAttempt {
  /** Epoch milliseconds. */
  at: number
  file: string
  /** Size of the snapshot written, or null when it failed. */
  bytes: number | null
  error: string | null
}

const SNAPSHOT = /^manifiesto-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2})\.db$/

/**
 * The automatic snapshots of contract §5: every `backup.everyHours` a snapshot goes to
 * `backup.dir` (named by its local time), keeping the newest `backup.keep`. `everyHours: 0`
 * turns them off.
 */
export class Snapshotter {
  private running: Promise<void> | null = null
  private attempt: SnapshotAttempt | null = null

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly settings: Config['backup'],
    private readonly log: Logger,
  ) {}

  /** Takes a snapshot if the newest one is older than the interval (or there is none). */
  async runIfDue(): Promise<BackupResult | null> {
    if (this.settings.everyHours <= 0 || this.running) return null
    const newest = this.snapshots()[0]
    if (newest && nowMillis(this.clock) - newest.takenAt < this.settings.everyHours * 3_600_000) return null
    let result: BackupResult | null = null
    const at = nowMillis(this.clock)
    const file = join(this.settings.dir, `manifiesto-${localDateTime(this.clock).format(STAMP)}.db`)
    this.running = (async () => {
      try {
        result = await backupDatabase({ db: this.db }, file)
      } catch (error) {
        this.attempt = { at, file, bytes: null, error: error instanceof Error ? error.message : String(error) }
        throw error
      }
      this.attempt = { at, file, bytes: result.bytes, error: null }
      this.rotate()
      this.log.info({ file: result.file, bytes: result.bytes }, 'copia de seguridad automática creada')
    })()
    try {
      await this.running
    } finally {
      this.running = null
    }
    return result
  }

  /** Resolves when no snapshot is being written (the service waits for it before closing). */
  async idle(): Promise<void> {
    await this.running?.catch(() => {})
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
    let names: string[]
    try {
      names = readdirSync(this.settings.dir)
    } catch {
      return []
    }
    return names
      .map((name) => ({ name, match: SNAPSHOT.exec(name) }))
      .filter((entry) => entry.match !== null)
      .map((entry) => ({ file: join(this.settings.dir, entry.name), takenAt: this.localStampToMillis(entry.match![1]!) }))
      .sort((a, b) => b.takenAt - a.takenAt)
  }

  private rotate(): void {
    for (const old of this.snapshots().slice(this.settings.keep)) rmSync(old.file, { force: true })
  }

  private localStampToMillis(stamp: string): number {
    return LocalDateTime.parse(stamp, STAMP).atZone(this.clock.zone).toInstant().toEpochMilli()
  }
}

/** Snapshot names carry their local time with dashes (`:` is not allowed in Windows names). */
const STAMP = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH-mm-ss")
