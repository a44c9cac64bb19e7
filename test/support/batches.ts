import { readFileSync } from 'node:fs'
import { all, first, type Database } from '../../src/db/database.ts'
import type { TestService } from './service.ts'
import { findInvoiceOriginal } from '../../src/invoices/invoices.store.ts'
import { bodyOf } from '../../src/batches/batches.service.ts'
import { findBatchRecord } from '../../src/batches/batches.store.ts'

export type Invoice = Record<string, unknown>

/** The realistic example batch (shared/examples/batch-small.json), every field the client sends. */
export const EXAMPLE_BATCH = JSON.parse(
  readFileSync(new URL('../fixtures/batch-small.json', import.meta.url), 'utf8'),
) as Invoice[]

/** The example's first invoice, renamed and moved to `fecha` (the client's midnight-UTC form). */
export function invoice(nfactura: string, manifiesto = '905112', changes: Invoice = {}, fecha = '2026-11-22'): Invoice {
  const base = structuredClone(EXAMPLE_BATCH[0]!)
  return {
    ...base,
    Nfactura: nfactura,
    NumeroManifiesto: manifiesto,
    FechaFactura: `${fecha}T00:00:00.000Z`,
    ...changes,
  }
}

/** The example batch with its dates shifted to `fecha`. */
export function exampleBatch(fecha = '2026-11-22'): Invoice[] {
  return EXAMPLE_BATCH.map((entry) => ({ ...structuredClone(entry), FechaFactura: `${fecha}T00:00:00.000Z` }))
}

/** JSON answers are asserted field by field, so their type is left open. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Answer = Record<string, any>

/** A step-8 `resumen`: the counters given, 0 for the rest. */
export const resumen = (
  counts: Partial<
    Record<'recibidas' | 'insertadas' | 'actualizadas' | 'sin_cambios' | 'pendientes_revision' | 'rechazadas', number>
  >,
) => ({
  recibidas: 0,
  insertadas: 0,
  actualizadas: 0,
  sin_cambios: 0,
  pendientes_revision: 0,
  rechazadas: 0,
  ...counts,
})

export async function postBatch(service: TestService, body: unknown): Promise<{ status: number; body: Answer }> {
  const response = await service.client('/api/v1/facturas/insertar', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as Answer }
}

/** What a batch can have written, to compare before and after. */
export function databaseState(db: Database) {
  const count = (table: 'batches' | 'manifests' | 'invoices' | 'invoice_lines' | 'invoice_conflicts' | 'audit_log') =>
    Number(db.sqlite.prepare(`SELECT count(*) FROM ${table}`).pluck().get())
  const keptBodies = () =>
    Number(
      db.sqlite
        .prepare(
          'SELECT (SELECT count(*) FROM batch_payloads) + (SELECT count(DISTINCT batch_id) FROM batch_body_chunks)',
        )
        .pluck()
        .get(),
    )
  return {
    batches: count('batches'),
    manifests: count('manifests'),
    invoices: count('invoices'),
    lines: count('invoice_lines'),
    conflicts: count('invoice_conflicts'),
    payloads: keptBodies(),
    audit: count('audit_log'),
  }
}

/**
 * Everything the database holds, through the service's own connection (never the file: see
 * test/hardening/no-outside-open.test.ts): its schema version, every schema object, and every
 * row of every table (SQLite's own included) in rowid order (key order without one), blobs as bytes. Two equal dumps are
 * the same data; the write-ahead log is checkpointed first, so nothing pending is left out.
 */
export function databaseDump(db: Database): Record<string, unknown> {
  db.sqlite.pragma('wal_checkpoint(TRUNCATE)')
  const objects = db.sqlite
    .prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name')
    .all() as Array<{ type: string; name: string }>
  const dump: Record<string, unknown> = {
    user_version: db.sqlite.pragma('user_version', { simple: true }),
    sqlite_master: objects,
  }
  // The search index's shadow tables without rowid (its terms, its configuration) are read in key order.
  const withoutRowid = new Set(
    db.sqlite.prepare('SELECT name FROM pragma_table_list WHERE wr = 1').pluck().all() as string[],
  )
  for (const { name } of objects.filter((object) => object.type === 'table')) {
    const table = `"${name.replaceAll('"', '""')}"`
    dump[name] = db.sqlite
      .prepare(
        withoutRowid.has(name) ? `SELECT * FROM ${table}` : `SELECT rowid AS _rowid, * FROM ${table} ORDER BY rowid`,
      )
      .all()
  }
  return dump
}

/** The stored version's original as the service reads it (inline text, or the batch's bytes). */
export function storedOriginal(db: Database, nfactura: string): unknown {
  const row = first(db, db.query.selectFrom('invoices').select('id').where('nfactura', '=', nfactura))
  return row === undefined ? undefined : (JSON.parse(findInvoiceOriginal(db, row.id)) as unknown)
}

export function invoicesOf(db: Database, manifiesto: string): string[] {
  return all(
    db,
    db.query
      .selectFrom('invoices as i')
      .innerJoin('manifests as m', 'm.id', 'i.manifest_id')
      .select('i.nfactura')
      .where('m.numero', '=', manifiesto)
      .orderBy('i.id'),
  ).map((row) => row.nfactura)
}

export function batchRecord(db: Database, uuid: string) {
  return first(db, db.query.selectFrom('batches').selectAll().where('uuid', '=', uuid))
}

/** The batch's kept body as the service reads it (chunks, or one gzip before migration 8). */
export function storedPayload(db: Database, uuid: string): Buffer | undefined {
  const record = findBatchRecord(db, uuid)
  return record === undefined || record.payload_bytes === null ? undefined : bodyOf(db, record.id)
}
