import assert from 'node:assert/strict'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { closeDatabase, openDatabase, type Database } from '../../src/db/database.ts'
import { migrateDatabase } from '../../src/db/migrate.ts'
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from '../../src/db/migrations/index.ts'
import { insertBatchRow, insertInvoiceRow, insertManifestRow } from '../support/fixtures.ts'
import { DERIVED_VALUES } from '../../src/app/derived-values.ts'

/** Migration 7: each return carries its invoice's warehouse — back-filled, set on insert, kept on change. */
function databaseAt(version: number): Database {
  const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'manifiesto-m7-')), 'm.db'))
  migrateDatabase(
    db,
    DERIVED_VALUES,
    MIGRATIONS.filter((migration) => migration.version <= version),
  )
  return db
}

function seedInvoice(db: Database, nfactura: string, almacen: string): number {
  const batchId = insertBatchRow(db, `lote-${nfactura}`)
  const manifestId = insertManifestRow(db, {
    numero: `9${nfactura.replace(/\D/g, '')}`,
    createdAt: '2026-11-22T16:00:00.000Z',
    batchId,
  })
  const invoiceId = insertInvoiceRow(db, { nfactura, manifestId, batchId, total: 10 })
  db.sqlite.prepare('UPDATE invoices SET almacen = ? WHERE id = ?').run(almacen, invoiceId)
  return invoiceId
}

const insertReturn = (db: Database, invoiceId: number) =>
  Number(
    db.sqlite
      .prepare(
        "INSERT INTO returns (invoice_id, reason_codigo, fecha, estado, total_cents, listed_lines, registered_at, registered_date, registered_by) VALUES (?, 'DANADO', '2026-11-22T09:00:00', 'pending', 100, '[]', '2026-11-22T16:00:00.000Z', '2026-11-22', 'Ana')",
      )
      .run(invoiceId).lastInsertRowid,
  )

const almacenOf = (db: Database, returnId: number) =>
  db.sqlite.prepare('SELECT almacen FROM returns WHERE id = ?').pluck().get(returnId)

function withReason(db: Database): void {
  db.sqlite.exec(
    "INSERT INTO return_reasons (codigo, descripcion, created_at) VALUES ('DANADO', 'Dañado', '2026-11-22T16:00:00.000Z')",
  )
}

test("migration 7: returns stored before it get their invoice's warehouse", () => {
  const db = databaseAt(5)
  withReason(db)
  const returns = [insertReturn(db, seedInvoice(db, 'F-1', 'OAC')), insertReturn(db, seedInvoice(db, 'F-2', 'OAS'))]
  assert.deepEqual(migrateDatabase(db, DERIVED_VALUES), { from: 5, to: LATEST_SCHEMA_VERSION })
  assert.deepEqual(
    returns.map((id) => almacenOf(db, id)),
    ['OAC', 'OAS'],
  )
  closeDatabase(db)
})

test("migration 7: a new return takes its invoice's warehouse; it follows a change of the invoice's warehouse", () => {
  const db = databaseAt(LATEST_SCHEMA_VERSION)
  withReason(db)
  const invoiceId = seedInvoice(db, 'F-1', 'OAC')
  const other = insertReturn(db, seedInvoice(db, 'F-2', 'OAS'))
  const returnId = insertReturn(db, invoiceId)
  assert.equal(almacenOf(db, returnId), 'OAC')
  db.sqlite.prepare("UPDATE invoices SET almacen = 'OAO' WHERE id = ?").run(invoiceId)
  assert.deepEqual([almacenOf(db, returnId), almacenOf(db, other)], ['OAO', 'OAS'])
  closeDatabase(db)
})
