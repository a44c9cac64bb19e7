import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { all, closeDatabase, first, openDatabase, run, transaction, type Database } from '../../src/db/database.ts'
import { DatabaseTooNewError, LATEST_SCHEMA_VERSION, migrateDatabase, schemaVersion } from '../../src/db/migrate.ts'
import { MIGRATIONS } from '../../src/db/migrations/index.ts'
import { insertBatchRow, insertInvoiceRow, insertManifestRow } from '../support/fixtures.ts'
import { DERIVED_VALUES } from '../../src/app/derived-values.ts'

function freshDatabase(): Database {
  return openDatabase(join(mkdtempSync(join(tmpdir(), 'manifiesto-db-')), 'sub', 'm.db'))
}

/** sqlite_schema with whitespace normalised: the statements SQLite really keeps. */
function schemaOf(db: Database): Array<{ type: string; name: string; sql: string }> {
  return (
    db.sqlite
      .prepare("SELECT type, name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY name")
      .all() as Array<{ type: string; name: string; sql: string }>
  ).map(
    // ALTER TABLE … ADD COLUMN keeps the stored statement as `last TEXT\n, added TEXT)`.
    (row) => ({
      ...row,
      sql: row.sql
        .replace(/--[^\n]*/g, '')
        .replace(/\s+/g, ' ')
        .replace(/\( /g, '(')
        .replace(/ \)/g, ')')
        .replace(/ ,/g, ',')
        .trim(),
    }),
  )
}

test('db: an empty database is created (with its folder) and migrated to the latest version', () => {
  const db = freshDatabase()
  assert.equal(schemaVersion(db), 0)
  assert.deepEqual(migrateDatabase(db, DERIVED_VALUES), { from: 0, to: LATEST_SCHEMA_VERSION })
  assert.equal(schemaVersion(db), LATEST_SCHEMA_VERSION)
  const tables = schemaOf(db)
    .filter((row) => row.type === 'table')
    .map((row) => row.name)
  assert.deepEqual(tables, [
    'audit_log',
    'batch_body_chunks',
    'batch_payloads',
    'batches',
    'deposit_receipts',
    'deposits',
    'invoice_conflicts',
    'invoice_lines',
    'invoice_prints',
    'invoice_reissues',
    'invoice_search',
    'invoice_search_config',
    'invoice_search_data',
    'invoice_search_docsize',
    'invoice_search_idx',
    'invoices',
    'login_lockouts',
    'manifest_totals',
    'manifests',
    'return_lines',
    'return_reasons',
    'returns',
    'sessions',
    'settlement_adjustments',
    'users',
  ])
  closeDatabase(db)
})

test('db: the pragmas of contract §5 are set', () => {
  const db = freshDatabase()
  const pragma = (name: string) => db.sqlite.pragma(name, { simple: true })
  assert.deepEqual(
    {
      journal: pragma('journal_mode'),
      synchronous: pragma('synchronous'),
      foreignKeys: pragma('foreign_keys'),
      busy: pragma('busy_timeout'),
    },
    { journal: 'wal', synchronous: 2, foreignKeys: 1, busy: 5000 },
  )
  closeDatabase(db)
})

test('db: migrating twice changes nothing', () => {
  const db = freshDatabase()
  migrateDatabase(db, DERIVED_VALUES)
  const before = schemaOf(db)
  assert.deepEqual(migrateDatabase(db, DERIVED_VALUES), { from: LATEST_SCHEMA_VERSION, to: LATEST_SCHEMA_VERSION })
  assert.deepEqual(schemaOf(db), before)
  closeDatabase(db)
})

test('db: schema.sql describes exactly what the migrations build', () => {
  const migrated = freshDatabase()
  migrateDatabase(migrated, DERIVED_VALUES)
  const described = freshDatabase()
  described.sqlite.exec(readFileSync(new URL('../../schema.sql', import.meta.url), 'utf8'))
  assert.deepEqual(schemaOf(described), schemaOf(migrated))
  assert.match(
    readFileSync(new URL('../../schema.sql', import.meta.url), 'utf8'),
    new RegExp(`schema version ${LATEST_SCHEMA_VERSION}\\b`),
  )
  closeDatabase(migrated)
  closeDatabase(described)
})

test('db: a database written by a newer version is refused with a clear message and left untouched', () => {
  const db = freshDatabase()
  migrateDatabase(db, DERIVED_VALUES)
  db.sqlite.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 1}`)
  assert.throws(
    () => migrateDatabase(db, DERIVED_VALUES),
    (error: unknown) =>
      error instanceof DatabaseTooNewError &&
      error.message.includes(`esquema versión ${LATEST_SCHEMA_VERSION + 1}`) &&
      error.message.includes('versión más nueva'),
  )
  assert.equal(schemaVersion(db), LATEST_SCHEMA_VERSION + 1)
  closeDatabase(db)
})

test('db: a failing migration rolls back whole and is rethrown, the version unchanged', () => {
  const db = freshDatabase()
  migrateDatabase(db, DERIVED_VALUES)
  const broken = [
    ...MIGRATIONS,
    {
      version: LATEST_SCHEMA_VERSION + 1,
      name: 'rota',
      sql: 'CREATE TABLE nueva (x); INSERT INTO no_existe VALUES (1);',
    },
  ]
  assert.throws(() => migrateDatabase(db, DERIVED_VALUES, broken), /no such table: no_existe/)
  assert.equal(schemaVersion(db), LATEST_SCHEMA_VERSION)
  assert.equal(
    schemaOf(db).some((row) => row.name === 'nueva'),
    false,
  )
  closeDatabase(db)
})

test('db: Kysely-built queries run synchronously inside one transaction, and roll back together', () => {
  const db = freshDatabase()
  migrateDatabase(db, DERIVED_VALUES)
  const batchId = insertBatchRow(db)
  transaction(db, () => {
    insertManifestRow(db, { numero: '1', createdAt: '2026-11-22T16:00:00.000Z', batchId })
    insertManifestRow(db, { numero: '2', createdAt: '2026-11-22T16:00:00.000Z', batchId })
  })
  assert.throws(
    () =>
      transaction(db, () => {
        insertManifestRow(db, { numero: '3', createdAt: '2026-11-22T16:00:00.000Z', batchId })
        insertManifestRow(db, { numero: '1', createdAt: '2026-11-22T16:00:00.000Z', batchId }) // duplicate number
      }),
    /UNIQUE constraint failed: manifests.numero/,
  )
  const numbers = all(db, db.query.selectFrom('manifests').select('numero').orderBy('numero'))
  assert.deepEqual(
    numbers.map((row) => row.numero),
    ['1', '2'],
  )
  assert.equal(
    first(db, db.query.selectFrom('manifests').select('estado').where('numero', '=', '2'))?.estado,
    'imported',
  )
  run(db, db.query.updateTable('manifests').set({ estado: 'closed' }).where('numero', '=', '2'))
  assert.equal(first(db, db.query.selectFrom('manifests').select('estado').where('numero', '=', '2'))?.estado, 'closed')
  closeDatabase(db)
})

test('db: a prepared statement is reused for the same SQL text', () => {
  const db = freshDatabase()
  migrateDatabase(db, DERIVED_VALUES)
  const query = (numero: string) => db.query.selectFrom('manifests').select('id').where('numero', '=', numero)
  first(db, query('1'))
  const size = db.statements.size
  first(db, query('2'))
  assert.equal(db.statements.size, size)
  closeDatabase(db)
})

test('db: a database of an earlier version migrates forward keeping its data', () => {
  const db = freshDatabase()
  assert.deepEqual(migrateDatabase(db, DERIVED_VALUES, MIGRATIONS.slice(0, 1)), { from: 0, to: 1 })
  insertManifestRow(db, { numero: '905112', createdAt: '2026-11-22T16:00:00.000Z', batchId: insertBatchRow(db) })
  assert.deepEqual(migrateDatabase(db, DERIVED_VALUES), { from: 1, to: LATEST_SCHEMA_VERSION })
  assert.deepEqual(all(db, db.query.selectFrom('manifests').select(['numero', 'estado'])), [
    { numero: '905112', estado: 'imported' },
  ])
  closeDatabase(db)
})

test("db: migration 6 gives every existing return its invoice's issue date and its listed lines in units", () => {
  const db = freshDatabase()
  migrateDatabase(
    db,
    DERIVED_VALUES,
    MIGRATIONS.filter((migration) => migration.version <= 5),
  )
  const batchId = insertBatchRow(db)
  const manifestId = insertManifestRow(db, { numero: '905112', createdAt: '2026-11-22T16:00:00.000Z', batchId })
  const invoiceId = insertInvoiceRow(db, { nfactura: 'F-1', manifestId, batchId, total: 10 })
  db.sqlite.exec(
    "INSERT INTO return_reasons (codigo, descripcion, activo, created_at) VALUES ('DANADO', 'Producto dañado', 1, '2026-11-22T16:00:00.000Z')",
  )
  db.sqlite
    .prepare(
      "INSERT INTO returns (invoice_id, reason_codigo, fecha, estado, total_cents, listed_lines, registered_at, registered_date, registered_by) VALUES (?, 'DANADO', '2026-11-22T09:30:00', 'pending', 100, '[]', '2026-11-22T16:00:00.000Z', '2026-11-22', 'Ana')",
    )
    .run(invoiceId)
  // 1 box of 96 and 10 loose units of a CJ line: 1.104167 boxes in v1's listing, 106 units in v2's.
  db.sqlite.exec(
    "INSERT INTO return_lines (return_id, numero_linea, producto_id, producto_desc, uni_venta, factor_conversion, units, amount_cents) VALUES (1, 2, '81800012', 'SALSA DE TOMATE 8X12X87GR', 'CJ', 96, 106, 81530)",
  )
  assert.deepEqual(migrateDatabase(db, DERIVED_VALUES), { from: 5, to: LATEST_SCHEMA_VERSION })
  assert.deepEqual(db.sqlite.prepare('SELECT invoice_id, invoice_date, listed_lines_units FROM returns').all(), [
    {
      invoice_id: invoiceId,
      invoice_date: '2026-11-22',
      listed_lines_units:
        '[{"productoId":"81800012","producto":"SALSA DE TOMATE 8X12X87GR","cantidad":106.000000,"numeroLinea":"2","lineTotal":815.300000}]',
    },
  ])
  closeDatabase(db)
})
