import assert from 'node:assert/strict'
import Database from 'better-sqlite3'

/** A snapshot (or any copy of the database) passes SQLite's integrity check; returns how many invoices it holds. */
export function invoicesInSnapshot(file: string): number {
  const db = new Database(file, { readonly: true })
  try {
    assert.equal(db.pragma('integrity_check', { simple: true }), 'ok')
    return Number(db.prepare('SELECT count(*) FROM invoices').pluck().get())
  } finally {
    db.close()
  }
}
