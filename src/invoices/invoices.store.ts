import { sql } from 'kysely'
import type { Statement } from 'better-sqlite3'
import type { WarehouseScope } from '../access/actor.ts'
import { all, first, preparedStatement, run, type Database } from '../db/database.ts'
import { inWarehouses } from '../access/warehouse-scope.ts'
import { compileColumnValues, INVOICE_FIELDS, LINE_FIELDS, LINES_FIELD } from './invoice-fields.ts'
import { forgetChunksBefore, readOriginalBytes, type ChunkCache, type OriginalPlace } from '../batches/body-chunks.ts'

/**
 * The one store that writes invoices and their lines: the intake inserts them and updates them
 * in place (auto-update), the review of conflicts replaces them with an accepted version.
 */

/** An invoice already stored, as step 8 compares an incoming one with it. */
export interface ExistingInvoice {
  id: number
  nfactura: string
  manifest_id: number
  manifest_numero: string
  /** Counted up at each replacement of the stored version (`replaceInvoice`). */
  revision: number
}

/** The invoices among `nfacturas` that exist, with their manifest's number: one query. */
export function findInvoicesByNumbers(db: Database, nfacturas: readonly string[]): ExistingInvoice[] {
  return all(
    db,
    db.query
      .selectFrom('invoices as i')
      .innerJoin('manifests as m', 'm.id', 'i.manifest_id')
      .select(['i.id', 'i.nfactura', 'i.manifest_id', 'm.numero as manifest_numero', 'i.revision'])
      .where(sql<boolean>`i.nfactura IN (SELECT value FROM json_each(${JSON.stringify(nfacturas)}))`),
  )
}

/**
 * The stored look-alikes of one fingerprint on one day (not annulled): the lowest id, its
 * manifest, and the lowest id of any other manifest. That is all re-issue detection needs: the
 * lowest id of the day outside any one manifest is one of the two, however many look-alikes are
 * stored (a shop that buys the same basket every week has thousands).
 */
export interface LookalikeDay {
  fingerprint: string
  fecha_factura: string
  first_id: number
  first_manifest_id: number
  /** null: every look-alike of the day is in the first one's manifest. */
  second_id: number | null
}

/**
 * `LookalikeDay` of each fingerprint of `fingerprints` on each date `from`..`to` (YYYY-MM-DD,
 * inclusive) that has look-alikes: one row per fingerprint and day, read from the (fingerprint,
 * fecha_factura, manifest_id) index alone.
 */
export function findLookalikeDays(
  db: Database,
  fingerprints: readonly string[],
  from: string,
  to: string,
): LookalikeDay[] {
  return all(
    db,
    db.query
      .with('firsts', (query) =>
        query
          .selectFrom('invoices')
          .select(['fingerprint', 'fecha_factura', sql<number>`min(id)`.as('first_id')])
          .where(sql<boolean>`fingerprint IN (SELECT value FROM json_each(${JSON.stringify(fingerprints)}))`)
          .where('fecha_factura', '>=', from)
          .where('fecha_factura', '<=', to)
          .where('annulled_at', 'is', null)
          .groupBy(['fingerprint', 'fecha_factura']),
      )
      .selectFrom('firsts as f')
      .innerJoin('invoices as i', 'i.id', 'f.first_id')
      .select((eb) => [
        'f.fingerprint',
        'f.fecha_factura',
        'f.first_id',
        'i.manifest_id as first_manifest_id',
        eb
          .selectFrom('invoices as other')
          .select(sql<number>`min(other.id)`.as('id'))
          .whereRef('other.fingerprint', '=', 'f.fingerprint')
          .whereRef('other.fecha_factura', '=', 'f.fecha_factura')
          .where('other.annulled_at', 'is', null)
          .whereRef('other.manifest_id', '<>', 'i.manifest_id')
          .as('second_id'),
      ])
      .$narrowType<{ fingerprint: string; second_id: number | null }>(),
  )
}

/** A stored invoice as a re-issue rejection names it. */
export interface NamedInvoice {
  id: number
  nfactura: string
  fecha_factura: string
  manifest_numero: string
}

/** The invoices of `ids` with their numbers, dates and manifests, by id. */
export function findNamedInvoices(db: Database, ids: readonly number[]): Map<number, NamedInvoice> {
  const rows = all(
    db,
    db.query
      .selectFrom('invoices as i')
      .innerJoin('manifests as m', 'm.id', 'i.manifest_id')
      .select(['i.id', 'i.nfactura', 'i.fecha_factura', 'm.numero as manifest_numero'])
      .where(sql<boolean>`i.id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`),
  )
  return new Map(rows.map((row) => [row.id, row]))
}

/** A confirmed re-issue: the invoice stops counting in its manifest's totals and taking returns. */
export function markInvoiceAnnulled(db: Database, invoiceId: number, at: string): void {
  run(db, db.query.updateTable('invoices').set({ annulled_at: at }).where('id', '=', invoiceId))
}

/** An invoice with its manifest's number and state, as the operator's invoice view shows it. */
export function findInvoiceRow(db: Database, nfactura: string, scope: WarehouseScope) {
  return first(
    db,
    db.query
      .selectFrom('invoices as i')
      .innerJoin('manifests as m', 'm.id', 'i.manifest_id')
      .select([
        'i.id',
        'i.nfactura',
        'm.numero',
        'm.estado',
        'm.returns_deadline',
        'i.annulled_at',
        'i.almacen',
        'i.cliente_id',
        'i.cliente',
        'i.fecha_factura',
        'i.total',
        'i.created_at',
        'i.updated_at',
      ])
      .where('i.nfactura', '=', nfactura)
      .where(inWarehouses('i.almacen', scope)),
  )
}

/**
 * The client's JSON of the invoice's stored version, as `JSON.stringify` writes the parsed
 * invoice (the bytes as sent, kept in the batch's body, are normalised the same way).
 */
export function findInvoiceOriginal(db: Database, invoiceId: number, cache: ChunkCache = new Map()): string {
  const row = first(
    db,
    db.query
      .selectFrom('invoices')
      .select(['original', 'batch_id', 'original_offset', 'original_length'])
      .where('id', '=', invoiceId),
  )!
  if (row.original_offset === null) return row.original
  const bytes = readOriginalBytes(
    db,
    row.batch_id,
    { offset: row.original_offset, length: row.original_length! },
    cache,
  )
  return JSON.stringify(JSON.parse(bytes.toString('utf8')))
}

/**
 * The client's JSON text of each invoice's stored version (what `findInvoiceOriginal` reads,
 * before any normalising: parse it), by invoice id. Read in the order the originals are stored,
 * so each chunk of a batch's body is decompressed once and at most the two an invoice spans are
 * held at a time, however many invoices (a month of returns: thousands).
 */
export function findInvoiceOriginals(db: Database, invoiceIds: readonly number[]): Map<number, string> {
  const rows = all(
    db,
    db.query
      .selectFrom('invoices')
      .select(['id', 'original', 'batch_id', 'original_offset', 'original_length'])
      .where(sql<boolean>`id IN (SELECT value FROM json_each(${JSON.stringify(invoiceIds)}))`)
      .orderBy('batch_id')
      .orderBy('original_offset'),
  )
  const texts = new Map<number, string>()
  const cache: ChunkCache = new Map()
  for (const row of rows) {
    if (row.original_offset === null) {
      texts.set(row.id, row.original)
      continue
    }
    forgetChunksBefore(cache, row.batch_id, row.original_offset)
    texts.set(
      row.id,
      readOriginalBytes(
        db,
        row.batch_id,
        { offset: row.original_offset, length: row.original_length! },
        cache,
      ).toString('utf8'),
    )
  }
  return texts
}

/** What every stored version has: its columns come from `raw`. */
interface VersionWrite {
  /** FechaFactura as the calendar date it means (YYYY-MM-DD). */
  fecha: string
  raw: Record<string, unknown>
  /** Economic fingerprint (src/invoices/fingerprint.ts). */
  fingerprint: string
  at: string
}

/** A new invoice: its original is where `place` says in its batch's body chunks. */
export interface InvoiceWrite extends VersionWrite {
  nfactura: string
  manifestId: number
  batchId: number
  place: OriginalPlace
}

/** A version replacing the stored one: its original is kept as text. */
export interface ReplacingWrite extends VersionWrite {
  original: string
}

/** Columns filled from the interface's fields; nfactura and fecha_factura are written explicitly. */
const HEADER_FIELDS = INVOICE_FIELDS.filter(
  (spec) => spec.column !== null && spec.column !== 'fecha_factura' && spec.column !== 'nfactura',
)
const HEADER_COLUMNS = HEADER_FIELDS.map((spec) => spec.column!)
const LINE_COLUMNS = LINE_FIELDS.map((spec) => spec.column!)
const headerValues = compileColumnValues(HEADER_FIELDS)
const lineValues = compileColumnValues(LINE_FIELDS)

/**
 * Prepares the statements that write a batch's invoices and lines, which are otherwise prepared
 * the first time they are needed: the service calls it when it starts (as the floor prepares its
 * statements before it is timed), so a fresh service's first batch does not build and compile 17
 * statements (~3.5 ms of the supplier's 1,000 invoices).
 */
export function prepareInvoiceInserts(db: Database): void {
  insertInvoiceStatement(db)
  for (let count = 1; count <= LINES_PER_STATEMENT; count++) insertLinesStatement(db, count)
}

/** Inserts an invoice and its lines with statements prepared once per database. */
export function insertInvoice(db: Database, invoice: InvoiceWrite): number {
  const statement = insertInvoiceStatement(db)
  const params: unknown[] = [invoice.nfactura, invoice.manifestId, invoice.batchId, invoice.fecha]
  headerValues(invoice.raw, params, params.length)
  // '' = no text of its own: the original is the batch's bytes at `place`.
  params.push('', invoice.place.offset, invoice.place.length, invoice.fingerprint, invoice.at)
  const id = Number(statement.run(params).lastInsertRowid)
  insertLines(db, id, invoice.raw)
  return id
}

/** Replaces an invoice's stored version in place (an auto-update or an accepted conflict). */
export function replaceInvoice(db: Database, invoiceId: number, invoice: ReplacingWrite): void {
  const statement = preparedStatement(db, 'replace-invoice', (query) =>
    query
      .updateTable('invoices')
      .set(
        placeholders([
          'fecha_factura',
          ...HEADER_COLUMNS,
          'original',
          'original_offset',
          'original_length',
          'fingerprint',
          'updated_at',
        ]),
      )
      .set({ revision: sql<number>`revision + 1` })
      .where('id', '=', 0),
  )
  const params: unknown[] = [invoice.fecha]
  headerValues(invoice.raw, params, params.length)
  params.push(invoice.original, null, null, invoice.fingerprint, invoice.at, invoiceId)
  statement.run(params)
  run(db, db.query.deleteFrom('invoice_lines').where('invoice_id', '=', invoiceId))
  insertLines(db, invoiceId, invoice.raw)
}

/**
 * Lines go into SQLite up to this many per statement: one call for most invoices' lines instead
 * of one per line (~4 ms of the supplier's batch of 1,000 invoices, ~16 ms of 10,000).
 */
const LINES_PER_STATEMENT = 16
const LINE_ROW_WIDTH = 2 + LINE_FIELDS.length

function insertLines(db: Database, invoiceId: number, raw: Record<string, unknown>): void {
  const lines = raw[LINES_FIELD] as Array<Record<string, unknown>>
  for (let first = 0; first < lines.length; first += LINES_PER_STATEMENT) {
    const count = Math.min(LINES_PER_STATEMENT, lines.length - first)
    const statement = insertLinesStatement(db, count)
    const params: unknown[] = new Array(count * LINE_ROW_WIDTH)
    for (let row = 0; row < count; row++) {
      const at = row * LINE_ROW_WIDTH
      params[at] = invoiceId
      params[at + 1] = first + row
      lineValues(lines[first + row]!, params, at + 2)
    }
    statement.run(params)
  }
}

function insertInvoiceStatement(db: Database): Statement {
  return preparedStatement(db, 'insert-invoice', (query) =>
    query
      .insertInto('invoices')
      .values(
        placeholders([
          'nfactura',
          'manifest_id',
          'batch_id',
          'fecha_factura',
          ...HEADER_COLUMNS,
          'original',
          'original_offset',
          'original_length',
          'fingerprint',
          'created_at',
        ]),
      ),
  )
}

/** `count` lines (1 to LINES_PER_STATEMENT) of one invoice in one statement. */
function insertLinesStatement(db: Database, count: number): Statement {
  return preparedStatement(db, `insert-lines-${count}`, (query) =>
    query
      .insertInto('invoice_lines')
      .values(Array.from({ length: count }, () => placeholders(['invoice_id', 'position', ...LINE_COLUMNS]))),
  )
}

/**
 * `{column: null, ...}` in the given order: Kysely compiles one `?` per column, in that order,
 * and the real values are bound per row. Typed `never` because the nulls are only placeholders.
 */
function placeholders(columns: readonly string[]): never {
  return Object.fromEntries(columns.map((column) => [column, null])) as never
}
