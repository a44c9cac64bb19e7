import { sql } from 'kysely'
import type { WarehouseScope } from '../access/actor.ts'
import { inWarehouses } from '../access/warehouse-scope.ts'
import { all, first, run, type Database } from '../db/database.ts'

/**
 * The one store that writes invoice_prints (issue 42), and the reads of the print views: a
 * manifest's invoices with their print marks, one invoice, and the products report's sums.
 */

const PRINT_COLUMNS = [
  'i.id',
  'i.nfactura',
  'i.almacen',
  'i.numero_ruta',
  'i.fecha_factura',
  'i.total',
  'i.annulled_at',
  'm.numero as manifiesto',
  'p.first_at',
  'p.first_by',
  'p.last_at',
  'p.last_by',
  'p.copies',
] as const

function printRows(db: Database) {
  return db.query
    .selectFrom('invoices as i')
    .innerJoin('manifests as m', 'm.id', 'i.manifest_id')
    .leftJoin('invoice_prints as p', 'p.invoice_id', 'i.id')
    .select(PRINT_COLUMNS)
}

export type PrintRow = NonNullable<ReturnType<typeof findPrintRow>>

/** The invoices of a manifest in `scope` (annulled ones too), with their print marks; in no particular order. */
export function findPrintRows(db: Database, manifestId: number, scope: WarehouseScope): PrintRow[] {
  return all(db, printRows(db).where('i.manifest_id', '=', manifestId).where(inWarehouses('i.almacen', scope)))
}

/** One invoice in `scope` with its print mark, or undefined. */
export function findPrintRow(db: Database, nfactura: string, scope: WarehouseScope) {
  return first(db, printRows(db).where('i.nfactura', '=', nfactura).where(inWarehouses('i.almacen', scope)))
}

/** The invoices of `nfacturas` in `scope`, with their print marks (one query). */
export function findPrintRowsByNumbers(db: Database, nfacturas: readonly string[], scope: WarehouseScope): PrintRow[] {
  return all(
    db,
    printRows(db)
      .where(sql<boolean>`i.nfactura IN (SELECT value FROM json_each(${JSON.stringify(nfacturas)}))`)
      .where(inWarehouses('i.almacen', scope)),
  )
}

/** Records a print of the invoice: the first is the original, every later one counts a copy. Inside the caller's transaction. */
export function upsertInvoicePrint(db: Database, invoiceId: number, at: string, by: string): void {
  run(
    db,
    db.query
      .insertInto('invoice_prints')
      .values({ invoice_id: invoiceId, first_at: at, first_by: by, last_at: at, last_by: by })
      .onConflict((conflict) =>
        conflict
          .column('invoice_id')
          .doUpdateSet({ last_at: at, last_by: by, copies: sql<number>`invoice_prints.copies + 1` }),
      ),
  )
}

/** A product's sums in the products report. */
export interface ProductSumRow {
  producto_id: string
  producto: string
  uni_venta: string | null
  factor: number
  milli_units: number
  cents: number
  invoices: number
}

/** Which invoices the products report sums: one manifest, or the manifests created in [from, to). */
export interface ProductFilters {
  manifestId?: number
  from?: string
  to?: string
  scope: WarehouseScope
}

/**
 * The lines of the invoices that count (not annulled) summed per product and units per box:
 * units as `lineUnits` counts them (src/shared/quantities.ts), in thousandths; amounts in cents
 * of each line's Total, rounded per line as the invoices print them. By product code.
 */
export function findProductSums(db: Database, filters: ProductFilters): ProductSumRow[] {
  // factorOf: a positive whole factor, otherwise 1; lineUnits: boxes beside loose units when the
  // loose count is below the boxes' units.
  const factor = sql<number>`(CASE WHEN l.factor_conversion > 0 AND l.factor_conversion = CAST(l.factor_conversion AS INTEGER) THEN CAST(l.factor_conversion AS INTEGER) ELSE 1 END)`
  const units = sql<number>`(CASE WHEN coalesce(l.cantidad_fracciones, 0) < coalesce(l.cantidad_caja, 0) * ${factor}
    THEN coalesce(l.cantidad_caja, 0) * ${factor} + coalesce(l.cantidad_fracciones, 0) ELSE coalesce(l.cantidad_fracciones, 0) END)`
  let query = db.query
    .selectFrom('invoices as i')
    .innerJoin('manifests as m', 'm.id', 'i.manifest_id')
    .innerJoin('invoice_lines as l', 'l.invoice_id', 'i.id')
    .where('i.annulled_at', 'is', null)
    .where(inWarehouses('i.almacen', filters.scope))
  if (filters.manifestId !== undefined) query = query.where('i.manifest_id', '=', filters.manifestId)
  if (filters.from !== undefined) query = query.where('m.created_at', '>=', filters.from)
  if (filters.to !== undefined) query = query.where('m.created_at', '<', filters.to)
  return all(
    db,
    query
      .groupBy(['l.producto_id', sql`${factor}`])
      .select([
        'l.producto_id',
        sql<string>`max(l.producto_desc)`.as('producto'),
        sql<string | null>`max(l.uni_venta)`.as('uni_venta'),
        sql<number>`${factor}`.as('factor'),
        sql<number>`sum(CAST(round(${units} * 1000) AS INTEGER))`.as('milli_units'),
        sql<number>`sum(CAST(round(l.total * 100) AS INTEGER))`.as('cents'),
        sql<number>`count(DISTINCT i.id)`.as('invoices'),
      ])
      .orderBy('l.producto_id')
      .orderBy(sql`${factor}`),
  )
}

/** How many invoices the report covers (not annulled, in scope). */
export function countReportInvoices(db: Database, filters: ProductFilters): number {
  let query = db.query
    .selectFrom('invoices as i')
    .innerJoin('manifests as m', 'm.id', 'i.manifest_id')
    .where('i.annulled_at', 'is', null)
    .where(inWarehouses('i.almacen', filters.scope))
  if (filters.manifestId !== undefined) query = query.where('i.manifest_id', '=', filters.manifestId)
  if (filters.from !== undefined) query = query.where('m.created_at', '>=', filters.from)
  if (filters.to !== undefined) query = query.where('m.created_at', '<', filters.to)
  return first(db, query.select(sql<number>`count(*)`.as('count')))!.count
}
