import { sql } from 'kysely'
import type { WarehouseScope } from '../actor.ts'
import { all, first, run, type Database } from '../db/database.ts'
import type { ManifestState } from '../db/tables.ts'
import { inWarehouses } from '../db/warehouse-scope.ts'

export interface ManifestSummaryRow {
  id: number
  numero: string
  estado: ManifestState
  created_at: string
  closed_at: string | null
  invoice_count: number
  total_micros: number
  /** Pending and approved returns of its invoices, and the sum of the approved ones in cents. */
  return_count: number
  returned_cents: number
}

/**
 * Manifests with the count and exact sum of the invoices in the warehouses of `scope`, and their
 * returns. A manifest with none of its invoices in scope is left out (it is not visible).
 * total() rather than sum(): it never overflows (sum() of integers fails past 2^63), and it is exact
 * while the result stays under 2^53 millionths — L 9,000 million per manifest.
 */
function summaries(db: Database, scope: WarehouseScope) {
  const visible = inWarehouses('ri.almacen', scope)
  const query = db.query
    .selectFrom('manifests as m')
    .leftJoin('invoices as i', (join) => join.onRef('i.manifest_id', '=', 'm.id').on(inWarehouses('i.almacen', scope)))
    .groupBy('m.id')
    .select([
      'm.id',
      'm.numero',
      'm.estado',
      'm.created_at',
      'm.closed_at',
      sql<number>`count(i.id)`.as('invoice_count'),
      sql<number>`total(i.total_micros)`.as('total_micros'),
      sql<number>`(SELECT count(*) FROM returns r JOIN invoices ri ON ri.id = r.invoice_id WHERE ri.manifest_id = m.id AND ${visible} AND r.estado IN ('pending', 'approved'))`.as('return_count'),
      sql<number>`(SELECT total(r.total_cents) FROM returns r JOIN invoices ri ON ri.id = r.invoice_id WHERE ri.manifest_id = m.id AND ${visible} AND r.estado = 'approved')`.as('returned_cents'),
    ])
  return scope === null ? query : query.having(sql<number>`count(i.id)`, '>', 0)
}

/** The manifest (with what `scope` sees of it), or undefined when it is unknown or not visible. */
export function findManifestSummary(db: Database, numero: string, scope: WarehouseScope = null): ManifestSummaryRow | undefined {
  return first(db, summaries(db, scope).where('m.numero', '=', numero))
}

/** Manifests by state and creation instant range (`from` inclusive, `to` exclusive), by number. */
export function findManifestSummaries(db: Database, scope: WarehouseScope, filters: { estado?: ManifestState; from?: string; to?: string }): ManifestSummaryRow[] {
  let query = summaries(db, scope)
  if (filters.estado !== undefined) query = query.where('m.estado', '=', filters.estado)
  if (filters.from !== undefined) query = query.where('m.created_at', '>=', filters.from)
  if (filters.to !== undefined) query = query.where('m.created_at', '<', filters.to)
  return all(db, query.orderBy('m.created_at').orderBy('m.numero'))
}

export interface ManifestInvoiceRow {
  nfactura: string
  almacen: string
  cliente_id: string
  cliente: string
  fecha_factura: string
  total: number
  returned_cents: number
  pending_conflicts: number
}

/** The warehouses of a manifest's invoices (closing it needs all of them). */
export function findManifestWarehouses(db: Database, manifestId: number): string[] {
  return all(db, db.query.selectFrom('invoices').select('almacen').distinct().where('manifest_id', '=', manifestId).orderBy('almacen')).map((row) => row.almacen)
}

export function findManifestInvoices(db: Database, manifestId: number, scope: WarehouseScope): ManifestInvoiceRow[] {
  return all(
    db,
    db.query
      .selectFrom('invoices as i')
      .select([
        'i.nfactura',
        'i.almacen',
        'i.cliente_id',
        'i.cliente',
        'i.fecha_factura',
        'i.total',
        sql<number>`(SELECT total(r.total_cents) FROM returns r WHERE r.invoice_id = i.id AND r.estado = 'approved')`.as('returned_cents'),
        sql<number>`(SELECT count(*) FROM invoice_conflicts c WHERE c.invoice_id = i.id AND c.estado = 'pending')`.as('pending_conflicts'),
      ])
      .where('i.manifest_id', '=', manifestId)
      .where(inWarehouses('i.almacen', scope))
      .orderBy('i.id'),
  )
}

export function updateManifestState(db: Database, id: number, estado: ManifestState, closedAt: string | null): void {
  run(db, db.query.updateTable('manifests').set({ estado, closed_at: closedAt }).where('id', '=', id))
}

export interface ExistingManifest {
  id: number
  numero: string
  estado: ManifestState
  created_at: string
}

/** The manifests among `numbers` that exist: one query whatever the count (json_each). */
export function findManifestsByNumbers(db: Database, numbers: readonly string[]): ExistingManifest[] {
  return all(
    db,
    db.query
      .selectFrom('manifests')
      .select(['id', 'numero', 'estado', 'created_at'])
      .where(sql<boolean>`numero IN (SELECT value FROM json_each(${JSON.stringify(numbers)}))`),
  )
}

export function insertManifest(db: Database, numero: string, createdAt: string, batchId: number): number {
  const result = run(
    db,
    db.query.insertInto('manifests').values({ numero, estado: 'imported', created_at: createdAt, created_batch_id: batchId, closed_at: null }),
  )
  return Number(result.lastInsertRowid)
}

