import { sql } from 'kysely'
import type { WarehouseScope } from '../access/actor.ts'
import { inWarehouses } from '../access/warehouse-scope.ts'
import { all, type Database } from '../db/database.ts'
import type { ManifestState, ReturnState } from '../db/tables.ts'

/**
 * What the header search reads: the invoice search index (migration 12), the invoices, returns
 * and manifests it points at. Reads only; the index is written by its triggers.
 */

export interface InvoiceHitRow {
  id: number
  nfactura: string
  cliente: string
  cliente_id: string
  almacen: string
  numero: string
  estado: ManifestState
  fecha_factura: string
  total: number
  annulled_at: string | null
}

/** What a hit shows of an invoice and its manifest. */
const HIT_COLUMNS = [
  'i.id',
  'i.nfactura',
  'i.cliente',
  'i.cliente_id',
  'i.almacen',
  'm.numero',
  'm.estado',
  'i.fecha_factura',
  'i.total',
  'i.annulled_at',
] as const

/**
 * Up to `limit` invoices of `scope` matching `match` (an FTS5 query), newest (highest id) first:
 * the index is walked from its newest row and stops at the page, however many match.
 */
export function findInvoiceHits(db: Database, match: string, scope: WarehouseScope, limit: number): InvoiceHitRow[] {
  return all(
    db,
    db.query
      .selectFrom(sql<{ rowid: number }>`invoice_search`.as('s'))
      .innerJoin('invoices as i', (join) => join.on(sql<boolean>`i.id = s.rowid`))
      .innerJoin('manifests as m', 'm.id', 'i.manifest_id')
      .select(HIT_COLUMNS)
      .where(sql<boolean>`invoice_search MATCH ${match}`)
      .where(inWarehouses('i.almacen', scope))
      .orderBy(sql`s.rowid`, 'desc')
      .limit(limit),
  )
}

/** The invoice numbered exactly `nfactura`, when it is of `scope`. */
export function findInvoiceHitByNumber(
  db: Database,
  nfactura: string,
  scope: WarehouseScope,
): InvoiceHitRow | undefined {
  return all(
    db,
    db.query
      .selectFrom('invoices as i')
      .innerJoin('manifests as m', 'm.id', 'i.manifest_id')
      .select(HIT_COLUMNS)
      .where('i.nfactura', '=', nfactura)
      .where(inWarehouses('i.almacen', scope)),
  )[0]
}

export interface ReturnHitRow {
  id: number
  nfactura: string
  cliente: string
  numero: string
  estado: ReturnState
  fecha: string
  total_cents: number
}

/**
 * Up to `limit` returns of `scope`, newest first, on the newest `invoiceWindow` invoices matching
 * `match`, or with id `returnId`.
 */
export function findReturnHits(
  db: Database,
  match: string,
  returnId: number | null,
  scope: WarehouseScope,
  invoiceWindow: number,
  limit: number,
): ReturnHitRow[] {
  const onInvoices = sql<boolean>`r.invoice_id IN (SELECT rowid FROM invoice_search WHERE invoice_search MATCH ${match} ORDER BY rowid DESC LIMIT ${invoiceWindow})`
  return all(
    db,
    db.query
      .selectFrom('returns as r')
      .innerJoin('invoices as i', 'i.id', 'r.invoice_id')
      .innerJoin('manifests as m', 'm.id', 'i.manifest_id')
      .select(['r.id', 'i.nfactura', 'i.cliente', 'm.numero', 'r.estado', 'r.fecha', 'r.total_cents'])
      .where(returnId === null ? onInvoices : sql<boolean>`(${onInvoices} OR r.id = ${returnId})`)
      .where(inWarehouses('r.almacen', scope))
      .orderBy('r.id', 'desc')
      .limit(limit),
  )
}
