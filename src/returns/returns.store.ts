import { sql, type RawBuilder, type Selectable } from 'kysely'
import type { WarehouseScope } from '../access/actor.ts'
import { all, first, run, type Database } from '../db/database.ts'
import { inInvoiceSearch } from '../db/search.ts'
import { inWarehouses } from '../access/warehouse-scope.ts'
import type { ManifestState, ReturnLineTable, ReturnState, ReturnTable } from '../db/tables.ts'

export interface InvoiceForReturn {
  id: number
  nfactura: string
  fecha_factura: string
  manifiesto: string
  manifest_estado: ManifestState
  /** The manifest's last day for returns (`YYYY-MM-DD`), or null: no window. */
  returns_deadline: string | null
  /** Set when the invoice was confirmed as a re-issue of `reissue_of`: it takes no returns. */
  annulled_at: string | null
  reissue_of: string | null
  reissue_of_almacen: string | null
}

export interface InvoiceLineForReturn {
  numero_linea: number
  producto_id: string
  producto_desc: string
  uni_venta: string | null
  cantidad_fracciones: number | null
  cantidad_caja: number | null
  factor_conversion: number | null
  total: number
}

/** Columns the triggers copy from the return's invoice and manifest (schema.sql): never written by the code. */
type CopiedColumns = 'almacen' | 'search_text'

/** A return with what its views show of its invoice, manifest and reason. */
export type ReturnRow = Omit<Selectable<ReturnTable>, 'invoice_id' | 'registered_date' | CopiedColumns> & {
  reason_descripcion: string
  reason_id_proveedor: string | null
  nfactura: string
  cliente_id: string
  cliente: string
  almacen: string
  manifiesto: string
  /** The manifest's last day for returns (`YYYY-MM-DD`), or null: no window. */
  returns_deadline: string | null
}

export type ReturnLineRow = Omit<ReturnLineTable, 'id'>

/** The invoice a return names, when it exists in the actor's warehouses. */
export function findInvoiceForReturn(
  db: Database,
  nfactura: string,
  scope: WarehouseScope,
): InvoiceForReturn | undefined {
  return first(
    db,
    db.query
      .selectFrom('invoices as i')
      .innerJoin('manifests as m', 'm.id', 'i.manifest_id')
      .leftJoin('invoice_reissues as x', (join) =>
        join.onRef('x.invoice_id', '=', 'i.id').on('x.estado', '=', 'confirmed'),
      )
      .leftJoin('invoices as o', 'o.id', 'x.original_invoice_id')
      .select([
        'i.id',
        'i.nfactura',
        'i.fecha_factura',
        'm.numero as manifiesto',
        'm.estado as manifest_estado',
        'm.returns_deadline',
        'i.annulled_at',
        'o.nfactura as reissue_of',
        'o.almacen as reissue_of_almacen',
      ])
      .where('i.nfactura', '=', nfactura)
      .where(inWarehouses('i.almacen', scope)),
  )
}

export function findInvoiceLines(db: Database, invoiceId: number): InvoiceLineForReturn[] {
  return all(
    db,
    db.query
      .selectFrom('invoice_lines')
      .select([
        'numero_linea',
        'producto_id',
        'producto_desc',
        'uni_venta',
        'cantidad_fracciones',
        'cantidad_caja',
        'factor_conversion',
        'total',
      ])
      .where('invoice_id', '=', invoiceId)
      .orderBy('position'),
  )
}

/** How many pending and approved returns (the ones that hold units) an invoice has. */
export function countHoldingReturns(db: Database, invoiceId: number): number {
  const row = first(
    db,
    db.query
      .selectFrom('returns')
      .select(sql<number>`count(*)`.as('count'))
      .where('invoice_id', '=', invoiceId)
      .where('estado', 'in', ['pending', 'approved']),
  )
  return row?.count ?? 0
}

/** Units held by the pending and approved returns of an invoice, per line number. */
export function findHeldUnits(db: Database, invoiceId: number): Map<number, number> {
  const rows = all(
    db,
    db.query
      .selectFrom('return_lines as l')
      .innerJoin('returns as r', 'r.id', 'l.return_id')
      .select(['l.numero_linea', sql<number>`sum(l.units)`.as('units')])
      .where('r.invoice_id', '=', invoiceId)
      .where('r.estado', 'in', ['pending', 'approved'])
      .groupBy('l.numero_linea'),
  )
  return new Map(rows.map((row) => [row.numero_linea, row.units]))
}

export function insertReturn(db: Database, row: Omit<ReturnTable, 'id' | CopiedColumns>): number {
  return Number(run(db, db.query.insertInto('returns').values(row)).lastInsertRowid)
}

export function insertReturnLines(db: Database, lines: readonly ReturnLineRow[]): void {
  if (lines.length > 0) run(db, db.query.insertInto('return_lines').values([...lines]))
}

export function updateReturn(
  db: Database,
  id: number,
  changes: Partial<Omit<ReturnTable, 'id' | CopiedColumns>>,
): void {
  run(db, db.query.updateTable('returns').set(changes).where('id', '=', id))
}

/**
 * An invoice's issue date changed (an accepted version, an automatic update): its returns follow,
 * so the v2 listing files them under the invoice's date as it is now.
 */
export function updateReturnsInvoiceDate(db: Database, invoiceId: number, invoiceDate: string): void {
  run(
    db,
    db.query
      .updateTable('returns')
      .set({ invoice_date: invoiceDate })
      .where('invoice_id', '=', invoiceId)
      .where('invoice_date', '<>', invoiceDate),
  )
}

function returnsWithContext(db: Database) {
  return db.query
    .selectFrom('returns as r')
    .innerJoin('invoices as i', 'i.id', 'r.invoice_id')
    .innerJoin('manifests as m', 'm.id', 'i.manifest_id')
    .innerJoin('return_reasons as c', 'c.codigo', 'r.reason_codigo')
    .select([
      'r.id',
      'r.estado',
      'r.fecha',
      'r.total_cents',
      'r.listed_lines',
      'r.listed_lines_units',
      'r.registered_at',
      'r.registered_by',
      'r.processed_date',
      'r.processed_time',
      'r.approved_by',
      'r.closed_at',
      'r.closed_by',
      'r.closing_note',
      'r.reason_codigo',
      'r.invoice_date',
      'c.descripcion as reason_descripcion',
      'c.id_proveedor as reason_id_proveedor',
      'i.nfactura',
      'i.cliente_id',
      'i.cliente',
      'i.almacen',
      'm.numero as manifiesto',
      'm.returns_deadline',
    ])
}

export function findReturn(db: Database, id: number, scope: WarehouseScope = null): ReturnRow | undefined {
  return first(db, returnsWithContext(db).where('r.id', '=', id).where(inWarehouses('i.almacen', scope)))
}

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

/** The lines of the given returns, grouped by return, in line order. */
export function findReturnLines(db: Database, returnIds: readonly number[]): Map<number, ReturnLineRow[]> {
  const rows = all(
    db,
    db.query
      .selectFrom('return_lines')
      .select([
        'return_id',
        'numero_linea',
        'producto_id',
        'producto_desc',
        'uni_venta',
        'factor_conversion',
        'units',
        'amount_cents',
      ])
      .where(sql<boolean>`return_id IN (SELECT value FROM json_each(${JSON.stringify(returnIds)}))`)
      .orderBy('return_id')
      .orderBy('id'),
  )
  const byReturn = new Map<number, ReturnLineRow[]>()
  for (const row of rows) {
    const lines = byReturn.get(row.return_id)
    if (lines) lines.push(row)
    else byReturn.set(row.return_id, [row])
  }
  return byReturn
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

/** How many pending returns are on invoices in the warehouses of `scope` (the partial index returns_pending). */
export function countPendingReturns(db: Database, scope: WarehouseScope): number {
  return sumPendingReturns(db, scope).count
}

/** The pending returns of `scope`: how many, and the sum of their totals in cents. */
export function sumPendingReturns(db: Database, scope: WarehouseScope): { count: number; cents: number } {
  const query = db.query
    .selectFrom('returns as r')
    .select([sql<number>`count(*)`.as('count'), sql<number>`total(r.total_cents)`.as('cents')])
    .where('r.estado', '=', 'pending')
    .where(inWarehouses('r.almacen', scope))
  return first(db, query) ?? { count: 0, cents: 0 }
}
