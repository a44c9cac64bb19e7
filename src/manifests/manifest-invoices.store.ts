import { sql } from 'kysely'
import type { WarehouseScope } from '../access/actor.ts'
import { all, first, type Database } from '../db/database.ts'
import type { ReissueState } from '../db/tables.ts'
import { inInvoiceSearch } from '../db/search.ts'
import { inWarehouses } from '../access/warehouse-scope.ts'

export interface ManifestInvoiceRow {
  nfactura: string
  almacen: string
  cliente_id: string
  cliente: string
  numero_ruta: string | null
  fecha_factura: string
  total: number
  returned_cents: number
  pending_conflicts: number
  annulled_at: string | null
  reissue_id: number | null
  reissue_estado: ReissueState | null
  reissue_of: string | null
  reissue_of_manifest: string | null
  reissue_of_almacen: string | null
}

/** What narrows a manifest's invoices: a query of the invoice search index (db/search.ts); an order; a page. */
export interface ManifestInvoiceFilters {
  match?: string
  order?: ManifestInvoiceOrder
  offset?: number
  limit?: number
}

/** How a manifest's invoices may be ordered: as they arrived, or by total or date (each either way). */
export type ManifestInvoiceOrder = 'llegada' | 'total' | '-total' | 'fecha' | '-fecha'

/** A manifest's invoices in scope, in the order they were stored (all of them, or a page of those matching). */
export function findManifestInvoices(
  db: Database,
  manifestId: number,
  scope: WarehouseScope,
  filters: ManifestInvoiceFilters = {},
): ManifestInvoiceRow[] {
  let query = db.query
    .selectFrom('invoices as i')
    .leftJoin('invoice_reissues as x', 'x.invoice_id', 'i.id')
    .leftJoin('invoices as o', 'o.id', 'x.original_invoice_id')
    .leftJoin('manifests as om', 'om.id', 'o.manifest_id')
    .select([
      'i.nfactura',
      'i.almacen',
      'i.cliente_id',
      'i.cliente',
      'i.numero_ruta',
      'i.fecha_factura',
      'i.total',
      sql<number>`(SELECT total(r.total_cents) FROM returns r WHERE r.invoice_id = i.id AND r.estado = 'approved')`.as(
        'returned_cents',
      ),
      sql<number>`(SELECT count(*) FROM invoice_conflicts c WHERE c.invoice_id = i.id AND c.estado = 'pending')`.as(
        'pending_conflicts',
      ),
      'i.annulled_at',
      'x.id as reissue_id',
      'x.estado as reissue_estado',
      'o.nfactura as reissue_of',
      'om.numero as reissue_of_manifest',
      'o.almacen as reissue_of_almacen',
    ])
    .where('i.manifest_id', '=', manifestId)
    .where(inWarehouses('i.almacen', scope))
  if (filters.match !== undefined) query = query.where(inInvoiceSearch('i.id', filters.match))
  const order = filters.order ?? 'llegada'
  if (order.endsWith('total')) query = query.orderBy('i.total', order.startsWith('-') ? 'desc' : 'asc')
  if (order.endsWith('fecha')) query = query.orderBy('i.fecha_factura', order.startsWith('-') ? 'desc' : 'asc')
  query = query.orderBy('i.id')
  if (filters.limit !== undefined) query = query.limit(filters.limit).offset(filters.offset ?? 0)
  return all(db, query)
}

/** How many of a manifest's invoices in scope match the search, with the sums a totals row shows. */
export function countManifestInvoices(
  db: Database,
  manifestId: number,
  scope: WarehouseScope,
  match: string | undefined,
): { count: number; total_micros: number; returned_cents: number } {
  let query = db.query
    .selectFrom('invoices as i')
    .select([
      sql<number>`count(*)`.as('count'),
      sql<number>`total(i.total_micros) FILTER (WHERE i.annulled_at IS NULL)`.as('total_micros'),
      sql<number>`(SELECT total(r.total_cents) FROM returns r JOIN invoices ri ON ri.id = r.invoice_id
        WHERE ri.manifest_id = ${manifestId} AND ${inWarehouses('ri.almacen', scope)} AND ${match === undefined ? sql`1` : inInvoiceSearch('ri.id', match)} AND r.estado = 'approved')`.as(
        'returned_cents',
      ),
    ])
    .where('i.manifest_id', '=', manifestId)
    .where(inWarehouses('i.almacen', scope))
  if (match !== undefined) query = query.where(inInvoiceSearch('i.id', match))
  return first(db, query) ?? { count: 0, total_micros: 0, returned_cents: 0 }
}
