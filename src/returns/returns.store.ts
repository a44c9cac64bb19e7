import { sql, type Selectable } from 'kysely'
import type { WarehouseScope } from '../access/actor.ts'
import { all, first, run, type Database } from '../db/database.ts'
import { inWarehouses } from '../access/warehouse-scope.ts'
import type { ManifestState, ReturnLineTable, ReturnTable } from '../db/tables.ts'

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

/** Returns with what their views show of their invoice, manifest and reason (ReturnRow), for every read of them. */
export function returnsWithContext(db: Database) {
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
