import { sql, type RawBuilder } from 'kysely'
import type { WarehouseScope } from '../access/actor.ts'
import { all, first, type Database } from '../db/database.ts'
import { inInvoiceSearch } from '../db/search.ts'
import { inWarehouses } from '../access/warehouse-scope.ts'
import type { ReturnState } from '../db/tables.ts'
import { returnsWithContext, type ReturnRow } from './returns.store.ts'

export interface ReturnFilters {
  /** Local registration date, or an inclusive range of them. */
  registeredDate?: string
  registeredFrom?: string
  registeredTo?: string
  estado?: ReturnState
  invoiceId?: number
  /** Local processing dates (approved returns: the supplier's date), inclusive. */
  processedFrom?: string
  processedTo?: string
  /** A query of the invoice search index (db/search.ts): returns of the invoices it matches. */
  match?: string
  scope?: WarehouseScope
  /** A page's order: newest first (the default), or by total or date either way (`-`: largest first). */
  order?: ReturnOrder
}

export type ReturnOrder = 'reciente' | 'total' | '-total' | 'fecha' | '-fecha'

/**
 * Up to this many matches of a search, their page is picked by a sort of these few ids (the
 * returns the count just found); past it, walking the returns by id finds a page within a few
 * rows, since one return in every few matches.
 */
const FEW_MATCHES = 2000

/** Returns matching the filters, by id. */
export function findReturns(db: Database, filters: ReturnFilters): ReturnRow[] {
  return all(db, matching(returnsWithContext(db), filters).orderBy('r.id'))
}

/**
 * One page of the returns matching the filters, newest (highest id) first; `total` is how many
 * match (countReturns). Walking the returns by id stops at the page, unless a search matches
 * few of them: then it would read every return, so the page's ids come from the narrow index.
 */
export function findReturnPage(
  db: Database,
  filters: ReturnFilters,
  offset: number,
  limit: number,
  total: number,
): ReturnRow[] {
  const order = filters.order ?? 'reciente'
  if (order !== 'reciente') {
    const direction = order.startsWith('-') ? 'desc' : 'asc'
    const sorted = matching(returnsWithContext(db), filters).orderBy(
      order.endsWith('total') ? 'r.total_cents' : 'r.fecha',
      direction,
    )
    return all(db, sorted.orderBy('r.id', 'desc').limit(limit).offset(offset))
  }
  if (filters.match === undefined || total > FEW_MATCHES)
    return all(db, matching(returnsWithContext(db), filters).orderBy('r.id', 'desc').limit(limit).offset(offset))
  // `+r.id`: ordering by the rowid itself would make SQLite walk the table instead of the index.
  const ids = matching(db.query.selectFrom('returns as r').select('r.id'), filters)
    .orderBy(sql`+r.id`, 'desc')
    .limit(limit)
    .offset(offset)
  return all(db, returnsWithContext(db).where('r.id', 'in', ids).orderBy('r.id', 'desc'))
}

/**
 * How many returns match the filters, and the sum of their totals in cents (a list's totals row):
 * the returns table answers alone (its own copy of the warehouse), and the search index.
 */
export function countReturns(db: Database, filters: ReturnFilters): { count: number; cents: number } {
  const row = first(
    db,
    matching(
      db.query
        .selectFrom('returns as r')
        .select([sql<number>`count(*)`.as('count'), sql<number>`total(r.total_cents)`.as('cents')]),
      filters,
    ),
  )
  return { count: row?.count ?? 0, cents: row?.cents ?? 0 }
}

/** The filters on a query over `returns r`. */
function matching<Q extends { where: (condition: RawBuilder<boolean>) => Q }>(query: Q, filters: ReturnFilters): Q {
  const conditions: Array<RawBuilder<unknown>> = [inWarehouses('r.almacen', filters.scope ?? null)]
  if (filters.registeredDate !== undefined) conditions.push(sql`r.registered_date = ${filters.registeredDate}`)
  if (filters.registeredFrom !== undefined) conditions.push(sql`r.registered_date >= ${filters.registeredFrom}`)
  if (filters.registeredTo !== undefined) conditions.push(sql`r.registered_date <= ${filters.registeredTo}`)
  if (filters.estado !== undefined) conditions.push(sql`r.estado = ${filters.estado}`)
  if (filters.invoiceId !== undefined) conditions.push(sql`r.invoice_id = ${filters.invoiceId}`)
  if (filters.processedFrom !== undefined) conditions.push(sql`r.processed_date >= ${filters.processedFrom}`)
  if (filters.processedTo !== undefined) conditions.push(sql`r.processed_date <= ${filters.processedTo}`)
  if (filters.match !== undefined) conditions.push(inInvoiceSearch('r.invoice_id', filters.match))
  return query.where(sql<boolean>`(${sql.join(conditions, sql` AND `)})`)
}

/** Which approved returns the client's listing shows: by day, and (v2) only published packages. */
export interface ListedReturnsFilter {
  /** First and last local day (`YYYY-MM-DD`), inclusive. */
  from: string
  to: string
  /** The return's processing day, or its invoice's issue day. */
  by: 'processed' | 'issued'
  /**
   * v2: only returns of manifests without a deadline or whose last day is before this day
   * (`YYYY-MM-DD`, today): complete packages. Null: every manifest.
   */
  closedBefore: string | null
}

/** One page of the approved (not cancelled) returns of the listing, by id. */
export function findListedReturns(
  db: Database,
  filter: ListedReturnsFilter,
  offset: number,
  limit: number,
): ReturnRow[] {
  let query = returnsWithContext(db).where('r.estado', '=', 'approved')
  const day = filter.by === 'processed' ? 'r.processed_date' : 'r.invoice_date'
  query = query.where(day, '>=', filter.from).where(day, '<=', filter.to)
  const closedBefore = filter.closedBefore
  if (closedBefore !== null)
    query = query.where((eb) =>
      eb.or([eb('m.returns_deadline', 'is', null), eb('m.returns_deadline', '<', closedBefore)]),
    )
  return all(db, query.orderBy('r.id').limit(limit).offset(offset))
}

/**
 * The earliest last day (`YYYY-MM-DD`), on or after `today`, of a manifest whose approved returns
 * the v2 listing of `from`–`to` (issue days) will add when its window closes; undefined when none.
 */
export function findNextPackageClose(db: Database, from: string, to: string, today: string): string | undefined {
  const row = first(
    db,
    db.query
      .selectFrom('returns as r')
      .innerJoin('invoices as i', 'i.id', 'r.invoice_id')
      .innerJoin('manifests as m', 'm.id', 'i.manifest_id')
      .select(sql<string | null>`min(m.returns_deadline)`.as('last_day'))
      .where('r.invoice_date', '>=', from)
      .where('r.invoice_date', '<=', to)
      .where('r.estado', '=', 'approved')
      .where('m.returns_deadline', '>=', today),
  )
  return row?.last_day ?? undefined
}

/** A returned line with what the supplier's workbook reads of its return, reason, invoice and manifest. */
export interface SupplierWorkbookLine {
  return_id: number
  /** The return line's own id (the workbook's IdDetalleDevolucion). */
  line_id: number
  invoice_id: number
  reason_codigo: string
  reason_id_proveedor: string | null
  nfactura: string
  /** The invoice's calendar date, `YYYY-MM-DD`. */
  fecha_factura: string
  almacen: string
  manifiesto: string
  numero_linea: number
  producto_id: string
  uni_venta: string | null
  factor_conversion: number
  units: number
  amount_cents: number
}

/** The lines of the returns matching the filters, by return id and then NumeroLinea, as the supplier's workbook lists them. */
export function findSupplierWorkbookLines(db: Database, filters: ReturnFilters): SupplierWorkbookLine[] {
  const query = db.query
    .selectFrom('returns as r')
    .innerJoin('return_lines as l', 'l.return_id', 'r.id')
    .innerJoin('invoices as i', 'i.id', 'r.invoice_id')
    .innerJoin('manifests as m', 'm.id', 'i.manifest_id')
    .innerJoin('return_reasons as c', 'c.codigo', 'r.reason_codigo')
    .select([
      'r.id as return_id',
      'l.id as line_id',
      'r.invoice_id',
      'r.reason_codigo',
      'c.id_proveedor as reason_id_proveedor',
      'i.nfactura',
      'i.fecha_factura',
      'i.almacen',
      'm.numero as manifiesto',
      'l.numero_linea',
      'l.producto_id',
      'l.uni_venta',
      'l.factor_conversion',
      'l.units',
      'l.amount_cents',
    ])
  return all(db, matching(query, filters).orderBy('r.id').orderBy('l.numero_linea').orderBy('l.id'))
}
