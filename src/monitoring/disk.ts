import { existsSync, statfsSync } from 'node:fs'
import { dirname } from 'node:path'

/** Free bytes for the service's user at a folder, or null when the file system cannot be asked. */
export type DiskReader = (folder: string) => number | null

/**
 * Free space with `statfs` on the folder (never a file: the database is only ever opened by
 * SQLite). A folder not made yet (the backups' before the first snapshot) is measured at the
 * nearest folder above it that exists: it will be made on that file system.
 */
export function readFreeDisk(folder: string): number | null {
  let existing = folder
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing)
  try {
    const stats = statfsSync(existing)
    return Number(stats.bavail) * Number(stats.bsize)
  } catch {
    return null
  }
}
