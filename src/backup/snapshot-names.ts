import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { DateTimeFormatter, LocalDateTime } from '@js-joda/core'
import type { Clock } from '../core/clock.ts'

/** Snapshot names carry their local time with dashes (`:` is not allowed in Windows names). */
export const STAMP = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH-mm-ss")

const SNAPSHOT = /^manifiesto-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2})\.db$/

/** The snapshot files of a folder (named by their local time), newest first; none when it cannot be read. */
export function snapshotsIn(folder: string, clock: Clock): Array<{ file: string; takenAt: number }> {
  let names: string[]
  try {
    names = readdirSync(folder)
  } catch {
    return []
  }
  return names
    .map((name) => ({ name, match: SNAPSHOT.exec(name) }))
    .filter((entry) => entry.match !== null)
    .map((entry) => ({
      file: join(folder, entry.name),
      takenAt: LocalDateTime.parse(entry.match![1]!, STAMP).atZone(clock.zone).toInstant().toEpochMilli(),
    }))
    .sort((a, b) => b.takenAt - a.takenAt)
}

/**
 * The temporary files of snapshots a stop cut short (SIGKILL, a power cut) in `folder`: only the
 * service writes names like these there (a manual backup's temporary file is named after its own).
 */
export function removeLeftovers(folder: string): void {
  let names: string[]
  try {
    names = readdirSync(folder)
  } catch {
    return
  }
  for (const name of names)
    if (/^\.manifiesto-.*\.db\.\d+\.tmp$/.test(name)) rmSync(join(folder, name), { force: true })
}
