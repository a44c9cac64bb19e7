import { sql } from 'kysely'
import type { WarehouseScope } from '../actor.ts'
import { all, first, run, type Database } from '../db/database.ts'
import type { ManifestState, ReissueState } from '../db/tables.ts'
import { inWarehouses } from '../db/warehouse-scope.ts'

export interface ManifestSummaryRow {
  id: number
  numero: string
  estado: ManifestState
  created_at: string
  closed_at: string | null
  returns_deadline: string | null
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
    // An annulled invoice (a confirmed re-issue) is paper for goods delivered once: not counted.
    .leftJoin('invoices as i', (join) => join.onRef('i.manifest_id', '=', 'm.id').on('i.annulled_at', 'is', null).on(inWarehouses('i.almacen', scope)))
    .groupBy('m.id')
    .select([
      'm.id',
      'm.numero',
      'm.estado',
      'm.created_at',
      'm.closed_at',
      'm.returns_deadline',
      sql<number>`count(i.id)`.as('invoice_count'),
      sql<number>`total(i.total_micros)`.as('total_micros'),
      sql<number>`(SELECT count(*) FROM returns r JOIN invoices ri ON ri.id = r.invoice_id WHERE ri.manifest_id = m.id AND ${visible} AND r.estado IN ('pending', 'approved'))`.as('return_count'),
      sql<number>`(SELECT total(r.total_cents) FROM returns r JOIN invoices ri ON ri.id = r.invoice_id WHERE ri.manifest_id = m.id AND ${visible} AND r.estado = 'approved')`.as('returned_cents'),
    ])
  if (scope === null) return query
  return query.where(sql<boolean>`EXISTS (SELECT 1 FROM invoices vi WHERE vi.manifest_id = m.id AND ${inWarehouses('vi.almacen', scope)})`)
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
  annulled_at: string | null
  reissue_id: number | null
  reissue_estado: ReissueState | null
  reissue_of: string | null
  reissue_of_manifest: string | null
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
      .leftJoin('invoice_reissues as x', 'x.invoice_id', 'i.id')
      .leftJoin('invoices as o', 'o.id', 'x.original_invoice_id')
      .leftJoin('manifests as om', 'om.id', 'o.manifest_id')
      .select([
        'i.nfactura',
        'i.almacen',
        'i.cliente_id',
        'i.cliente',
        'i.fecha_factura',
        'i.total',
        sql<number>`(SELECT total(r.total_cents) FROM returns r WHERE r.invoice_id = i.id AND r.estado = 'approved')`.as('returned_cents'),
        sql<number>`(SELECT count(*) FROM invoice_conflicts c WHERE c.invoice_id = i.id AND c.estado = 'pending')`.as('pending_conflicts'),
        'i.annulled_at',
        'x.id as reissue_id',
        'x.estado as reissue_estado',
        'o.nfactura as reissue_of',
        'om.numero as reissue_of_manifest',
      ])
      .where('i.manifest_id', '=', manifestId)
      .where(inWarehouses('i.almacen', scope))
      .orderBy('i.id'),
  )
}

export function updateManifestState(db: Database, id: number, estado: ManifestState, closedAt: string | null): void {
  run(db, db.query.updateTable('manifests').set({ estado, closed_at: closedAt }).where('id', '=', id))
}

/** Sets the last day returns may be registered (`YYYY-MM-DD`, local). */
export function updateManifestDeadline(db: Database, id: number, lastDay: string): void {
  run(db, db.query.updateTable('manifests').set({ returns_deadline: lastDay }).where('id', '=', id))
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

/** A new manifest; `returnsDeadline` is its last day for returns (`YYYY-MM-DD`), or null: no window. */
export function insertManifest(db: Database, numero: string, createdAt: string, batchId: number, returnsDeadline: string | null): number {
  const result = run(
    db,
    db.query
      .insertInto('manifests')
      .values({ numero, estado: 'imported', created_at: createdAt, created_batch_id: batchId, closed_at: null, returns_deadline: returnsDeadline }),
  )
  return Number(result.lastInsertRowid)
}

