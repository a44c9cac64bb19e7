import { closeSync, openSync, readSync } from 'node:fs'
import type { Database } from '../db/database.ts'

const SQLITE_HEADER = 'SQLite format 3\u0000'

/**
 * Whether the database can really be read: the file on disk is still there and still a SQLite
 * database (the page cache would hide a deleted or replaced file), and a query on a real table
 * answers.
 */
export function isDatabaseReadable(db: Database): boolean {
  try {
    if (db.path !== ':memory:' && readFileHeader(db.path) !== SQLITE_HEADER) return false
    db.sqlite.prepare('SELECT count(*) FROM sqlite_schema').pluck().get()
    db.sqlite.prepare('SELECT id FROM manifests ORDER BY id DESC LIMIT 1').get()
    return true
  } catch {
    return false
  }
}

function readFileHeader(path: string): string {
  const fd = openSync(path, 'r')
  try {
    const header = Buffer.alloc(16)
    const read = readSync(fd, header, 0, 16, 0)
    return header.subarray(0, read).toString('latin1')
  } finally {
    closeSync(fd)
  }
}
