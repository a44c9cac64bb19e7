/**
 * The floor a 10,000-invoice batch is measured against (contract §8), in its own process: the
 * same bytes parsed with JSON.parse, and the same rows inserted by bare prepared statements in
 * one transaction into the same schema (its indexes and triggers too), on a fresh database.
 * Prints one JSON line.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { closeDatabase, openDatabase } from '../src/db/database.ts'
import { migrateDatabase } from '../src/db/migrate.ts'
import { INVOICE_FIELDS, LINE_FIELDS, columnValue } from '../src/invoices/invoice-fields.ts'
import { DERIVED_VALUES } from '../src/app/derived-values.ts'

const [file, dir] = process.argv.slice(2) as [string, string]
const bytes = readFileSync(file)
const db = openDatabase(join(dir, 'floor.db'))
migrateDatabase(db, DERIVED_VALUES)

const started = performance.now()
const batch = JSON.parse(bytes.toString('utf8')) as Array<Record<string, unknown>>
const parsed = performance.now()

const header = INVOICE_FIELDS.filter((spec) => spec.column !== null)
const insertBatch = db.sqlite.prepare(
  "INSERT INTO batches (uuid, received_at, received_date, client_ip, key_fingerprint, estado, invoice_count) VALUES ('floor', '', '', '', '', 'processed', ?)",
)
const insertManifest = db.sqlite.prepare("INSERT INTO manifests (numero, created_at) VALUES (?, '')")
const insertInvoice = db.sqlite.prepare(
  `INSERT INTO invoices (manifest_id, batch_id, ${header.map((spec) => spec.column).join(', ')}, original, original_offset, original_length, created_at) VALUES (?, ?, ${header.map(() => '?').join(', ')}, '', 0, 0, '')`,
)
const insertLine = db.sqlite.prepare(
  `INSERT INTO invoice_lines (invoice_id, position, ${LINE_FIELDS.map((spec) => spec.column).join(', ')}) VALUES (?, ?, ${LINE_FIELDS.map(() => '?').join(', ')})`,
)

db.sqlite.transaction(() => {
  const batchId = insertBatch.run(batch.length).lastInsertRowid
  const manifests = new Map<unknown, number | bigint>()
  for (const invoice of batch) {
    let manifestId = manifests.get(invoice.NumeroManifiesto)
    if (manifestId === undefined) {
      manifestId = insertManifest.run(String(invoice.NumeroManifiesto)).lastInsertRowid
      manifests.set(invoice.NumeroManifiesto, manifestId)
    }
    const params: unknown[] = [manifestId, batchId]
    for (const spec of header) params.push(columnValue(spec, invoice[spec.name]))
    const invoiceId = insertInvoice.run(params).lastInsertRowid
    const lines = invoice.LineasFactura as Array<Record<string, unknown>>
    for (let position = 0; position < lines.length; position++) {
      const line = lines[position]!
      const values: unknown[] = [invoiceId, position]
      for (const spec of LINE_FIELDS) values.push(columnValue(spec, line[spec.name]))
      insertLine.run(values)
    }
  }
})()
const inserted = performance.now()
closeDatabase(db)
console.log(
  JSON.stringify({
    ms: inserted - started,
    parseMs: parsed - started,
    insertMs: inserted - parsed,
    peakMB: process.resourceUsage().maxRSS / 1024,
  }),
)
