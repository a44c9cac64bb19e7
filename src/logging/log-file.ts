import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs'
import { basename, dirname, extname, join } from 'node:path'
import { Instant, LocalDate } from '@js-joda/core'
import { today, type Clock } from '../core/clock.ts'

/**
 * `log.file`, one file per local day: today's lines go to `log.file` itself; at the first line of
 * a new day (by the injected clock) the file is renamed after the day it holds
 * (`manifiesto-2026-11-21.log`) and a new one begun, and dated files older than `keepDays` days
 * are deleted. Each line is written synchronously (a few lines per request), so nothing is lost
 * at a stop and no worker thread is needed (the single executable cannot start pino's transports).
 * Opens only the log file, never the database (test/hardening/no-outside-open.test.ts).
 */
export class DailyLogFile {
  private descriptor: number | null = null
  /** The local day whose lines `file` holds. */
  private day: string | null = null
  private readonly folder: string
  private readonly stem: string
  private readonly extension: string

  constructor(
    private readonly file: string,
    private readonly clock: Clock,
    private readonly keepDays: number,
  ) {
    this.folder = dirname(file)
    this.extension = extname(file)
    this.stem = basename(file, this.extension)
    mkdirSync(this.folder, { recursive: true })
  }

  /** pino's destination: one JSON line. */
  write(line: string): void {
    const day = today(this.clock).toString()
    if (day !== this.day) this.begin(day)
    writeSync(this.descriptor!, line)
  }

  /** Lines are already on disk; pino calls this before exiting. */
  flushSync(): void {}

  end(): void {
    if (this.descriptor !== null) closeSync(this.descriptor)
    this.descriptor = null
    this.day = null
  }

  /** The dated name of the file of a day (`manifiesto-2026-11-21.log`). */
  datedName(day: string): string {
    return `${this.stem}-${day}${this.extension}`
  }

  private begin(day: string): void {
    const written = this.day
    this.end()
    if (existsSync(this.file)) {
      // At start the file's day is the day it was last written (the service may have been down at midnight).
      const held =
        written ??
        LocalDate.ofInstant(Instant.ofEpochMilli(Math.floor(statSync(this.file).mtimeMs)), this.clock.zone).toString()
      if (held !== day) renameSync(this.file, this.freeDatedPath(held))
    }
    this.descriptor = openSync(this.file, 'a')
    this.day = day
    this.prune(LocalDate.parse(day))
  }

  /** A dated name not yet taken (a clock set back could bring a day twice). */
  private freeDatedPath(day: string): string {
    let candidate = join(this.folder, this.datedName(day))
    for (let n = 2; existsSync(candidate); n++)
      candidate = join(this.folder, `${this.stem}-${day}-${n}${this.extension}`)
    return candidate
  }

  private prune(todayDate: LocalDate): void {
    const oldest = todayDate.minusDays(this.keepDays)
    const pattern = new RegExp(`^${escape(this.stem)}-(\\d{4}-\\d{2}-\\d{2})(?:-\\d+)?${escape(this.extension)}$`)
    for (const name of readdirSync(this.folder)) {
      const match = pattern.exec(name)
      if (match === null) continue
      let date: LocalDate
      try {
        date = LocalDate.parse(match[1]!)
      } catch {
        continue
      }
      if (date.isBefore(oldest)) rmSync(join(this.folder, name), { force: true })
    }
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
