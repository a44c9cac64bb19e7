import assert from 'node:assert/strict'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { gzipSync } from 'node:zlib'
import { bodyOf } from '../../src/batches/batches.service.ts'
import { findBatchRecord } from '../../src/batches/batches.store.ts'
import { closeDatabase, openDatabase } from '../../src/db/database.ts'
import { migrateDatabase } from '../../src/db/migrate.ts'
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from '../../src/db/migrations/index.ts'
import { findInvoiceOriginal } from '../../src/invoices/invoices.store.ts'
import { insertBatchRow, insertInvoiceRow, insertManifestRow } from '../support/fixtures.ts'
import { DERIVED_VALUES } from '../../src/app/derived-values.ts'

/** Migration 8: what was stored before it (originals as text, bodies as one gzip) is read as before. */
test('migration 8: invoices keep their text originals, batches their gzip bodies and content hashes', () => {
  const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'manifiesto-m8-')), 'm.db'))
  try {
    migrateDatabase(
      db,
      DERIVED_VALUES,
      MIGRATIONS.filter((migration) => migration.version <= 7),
    )
    const batchId = insertBatchRow(db, 'lote-viejo')
    const manifestId = insertManifestRow(db, { numero: '905112', createdAt: '2026-11-22T16:00:00.000Z', batchId })
    const invoiceId = insertInvoiceRow(db, { nfactura: 'F-1', manifestId, batchId, total: 10 })
    const body = Buffer.from('[{"Nfactura":"F-1","Total":10}]')
    db.sqlite
      .prepare("INSERT INTO batch_payloads (batch_id, encoding, byte_length, data) VALUES (?, 'gzip', ?, ?)")
      .run(batchId, body.length, gzipSync(body))

    migrateDatabase(db, DERIVED_VALUES)
    assert.equal(db.sqlite.pragma('user_version', { simple: true }), LATEST_SCHEMA_VERSION)
    assert.equal(findInvoiceOriginal(db, invoiceId), JSON.stringify({ Nfactura: 'F-1', Total: 10 }))
    assert.deepEqual(bodyOf(db, batchId), body)
    assert.equal(findBatchRecord(db, 'lote-viejo')?.payload_bytes, body.length)
    const batch = db.sqlite
      .prepare('SELECT content_hash, body_hash, numbers_hash FROM batches WHERE id = ?')
      .get(batchId)
    assert.deepEqual(
      batch,
      { content_hash: 'hash-lote-viejo', body_hash: null, numbers_hash: null },
      'its content hash still finds a duplicate the same day',
    )
    const columns = db.sqlite.prepare("SELECT name FROM pragma_table_info('invoices')").pluck().all() as string[]
    assert.ok(!columns.includes('content_hash'))
    assert.ok(columns.includes('original_offset'))
  } finally {
    closeDatabase(db)
  }
})
