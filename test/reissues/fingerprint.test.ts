import assert from 'node:assert/strict'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { closeDatabase, openDatabase } from '../../src/db/database.ts'
import { LATEST_SCHEMA_VERSION, migrateDatabase, schemaVersion } from '../../src/db/migrate.ts'
import { MIGRATIONS } from '../../src/db/migrations/index.ts'
import { fingerprintOfInvoice } from '../../src/invoices/fingerprint.ts'
import { EXAMPLE_BATCH, invoice, type Invoice } from '../support/batches.ts'
import { insertBatchRow, insertLegacyInvoice, insertManifestRow } from '../support/fixtures.ts'
import { DERIVED_VALUES } from '../../src/app/derived-values.ts'

type Line = Record<string, unknown>
const base = () => invoice('F-1', '905112')
const withLines = (change: (lines: Line[]) => Line[]) => (original: Invoice) => ({
  ...original,
  LineasFactura: change(structuredClone(original.LineasFactura as Line[])),
})
const onLine = (index: number, fields: Line) =>
  withLines((lines) => lines.map((line, i) => (i === index ? { ...line, ...fields } : line)))

const same: Array<{ name: string; change: (invoice: Invoice) => Invoice }> = [
  {
    name: 'another number, manifest, dates and supplier ids',
    change: (original) => ({
      ...original,
      Nfactura: 'F-2',
      NumeroManifiesto: '905113',
      FechaFactura: '2026-11-23T00:00:00.000Z',
      FechaVencimiento: '2026-12-23T00:00:00.000Z',
      NumeroFacturaLX: '1',
      Id: 99,
    }),
  },
  {
    name: 'a line amount a cent off (the supplier re-rounds lines)',
    change: onLine(1, { Total: 1476.78, Impuesto: 192.63 }),
  },
  {
    name: 'the lines in another order, renumbered',
    change: withLines((lines) => lines.reverse().map((line, i) => ({ ...line, NumeroLinea: i + 1, Id: 1000 + i }))),
  },
  { name: 'Clienteid with spaces around it', change: (original) => ({ ...original, Clienteid: '  40112233 ' }) },
  {
    name: 'Clienteid as a number, Total as a numeric string with a trailing zero',
    change: (original) => ({ ...original, Clienteid: 40112233, Total: '2300.180' }),
  },
  {
    name: 'the boxes of a CJ line written as loose units',
    change: onLine(1, { CantidadCaja: 0, CantidadFracciones: 192 }),
  },
  {
    name: 'another customer name and address (only the id counts)',
    change: (original) => ({ ...original, Cliente: 'OTRO NOMBRE', Direccion: 'OTRA' }),
  },
]

const different: Array<{ name: string; change: (invoice: Invoice) => Invoice }> = [
  { name: 'another customer', change: (original) => ({ ...original, Clienteid: '40112234' }) },
  { name: 'a total a cent off', change: (original) => ({ ...original, Total: 2300.19 }) },
  { name: 'one unit more on a line', change: onLine(0, { CantidadFracciones: 13 }) },
  { name: 'another product', change: onLine(0, { ProductoId: '30110206' }) },
  { name: 'a line fewer', change: withLines((lines) => lines.slice(0, 2)) },
]

for (const row of same) {
  test(`fingerprint: the same economic invoice — ${row.name}`, () => {
    assert.equal(fingerprintOfInvoice(row.change(base())), fingerprintOfInvoice(base()))
  })
}

for (const row of different) {
  test(`fingerprint: another economic invoice — ${row.name}`, () => {
    assert.notEqual(fingerprintOfInvoice(row.change(base())), fingerprintOfInvoice(base()))
  })
}

test('fingerprint: 32 hex digits', () => {
  assert.match(fingerprintOfInvoice(base()), /^[0-9a-f]{32}$/)
})

test('migration 5: invoices stored before it get the fingerprint the intake computes; manifests get no deadline', () => {
  const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'manifiesto-db-')), 'm.db'))
  try {
    migrateDatabase(
      db,
      DERIVED_VALUES,
      MIGRATIONS.filter((migration) => migration.version <= 3),
    )
    const batchId = insertBatchRow(db)
    const manifestId = insertManifestRow(db, { numero: '905100', createdAt: '2026-11-21T16:00:00.000Z', batchId })
    // More than one page of the back-fill (1000 invoices), with the example's two shapes.
    const raws = Array.from({ length: 1203 }, (_, i) => ({
      ...structuredClone(EXAMPLE_BATCH[i % 2]!),
      Nfactura: `L-${i}`,
      Clienteid: String(40_000_000 + (i % 7)),
    }))
    const ids = raws.map((raw) => insertLegacyInvoice(db, raw, manifestId, batchId))
    assert.deepEqual(migrateDatabase(db, DERIVED_VALUES), { from: 3, to: LATEST_SCHEMA_VERSION })
    assert.equal(schemaVersion(db), LATEST_SCHEMA_VERSION)
    const stored = new Map(
      (
        db.sqlite.prepare('SELECT id, fingerprint FROM invoices').all() as Array<{
          id: number
          fingerprint: string | null
        }>
      ).map((row) => [row.id, row.fingerprint]),
    )
    assert.deepEqual(
      ids.map((id) => stored.get(id)),
      raws.map((raw) => fingerprintOfInvoice(raw)),
    )
    assert.deepEqual(db.sqlite.prepare('SELECT numero, returns_deadline FROM manifests').all(), [
      { numero: '905100', returns_deadline: null },
    ])
    assert.equal(db.sqlite.prepare('SELECT count(*) FROM invoices WHERE annulled_at IS NOT NULL').pluck().get(), 0)
  } finally {
    closeDatabase(db)
  }
})
