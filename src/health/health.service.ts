import { databaseFileProblem, type Database } from '../db/database.ts'

/**
 * Whether the database can really be read: the file SQLite has open is still the one at its path
 * (the page cache would hide a deleted or replaced file) and a query on a real table answers.
 * The file itself is never opened here: see `databaseFileProblem`.
 */
export function isDatabaseReadable(deps: { db: Database }): boolean {
  const { db } = deps
  try {
    if (databaseFileProblem(db) !== null) return false
    db.sqlite.prepare('SELECT count(*) FROM sqlite_schema').pluck().get()
    db.sqlite.prepare('SELECT id FROM manifests ORDER BY id DESC LIMIT 1').get()
    return true
  } catch {
    return false
  }
}
