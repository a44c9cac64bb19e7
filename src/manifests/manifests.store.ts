import { sql } from 'kysely'
import type { WarehouseScope } from '../access/actor.ts'
import { all, first, run, type Database } from '../db/database.ts'
import type { ManifestState } from '../db/tables.ts'
import { inWarehouses } from '../access/warehouse-scope.ts'

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
 * The manifest (with what `scope` sees of it), or undefined when it is unknown or not visible.
 * One manifest is summed from its own invoices and returns (a few hundred entries of the index
 * invoices_manifest_almacen): the client's status and every decision on a manifest read the
 * stored rows themselves; the maintained totals serve the lists, which sum thousands.
 */
export function findManifestSummary(
  db: Database,
  numero: string,
  scope: WarehouseScope = null,
): ManifestSummaryRow | undefined {
  const returnVisible = inWarehouses('ri.almacen', scope)
  const query = db.query
    .selectFrom('manifests as m')
    // An annulled invoice (a confirmed re-issue) is paper for goods delivered once: not counted.
    .leftJoin('invoices as i', (join) =>
      join.onRef('i.manifest_id', '=', 'm.id').on('i.annulled_at', 'is', null).on(inWarehouses('i.almacen', scope)),
    )
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
      sql<number>`(SELECT count(*) FROM returns r JOIN invoices ri ON ri.id = r.invoice_id WHERE ri.manifest_id = m.id AND ${returnVisible} AND r.estado IN ('pending', 'approved'))`.as(
        'return_count',
      ),
      sql<number>`(SELECT total(r.total_cents) FROM returns r JOIN invoices ri ON ri.id = r.invoice_id WHERE ri.manifest_id = m.id AND ${returnVisible} AND r.estado = 'approved')`.as(
        'returned_cents',
      ),
    ])
    .where('m.numero', '=', numero)
  const visibleToScope =
    scope === null
      ? query
      : query.where(
          sql<boolean>`EXISTS (SELECT 1 FROM invoices vi WHERE vi.manifest_id = m.id AND ${inWarehouses('vi.almacen', scope)})`,
        )
  return first(db, visibleToScope)
}

/** The warehouses of a manifest's invoices (closing it needs all of them). */
export function findManifestWarehouses(db: Database, manifestId: number): string[] {
  return all(
    db,
    db.query
      .selectFrom('invoices')
      .select('almacen')
      .distinct()
      .where('manifest_id', '=', manifestId)
      .orderBy('almacen'),
  ).map((row) => row.almacen)
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
export function insertManifest(
  db: Database,
  numero: string,
  createdAt: string,
  batchId: number,
  returnsDeadline: string | null,
): number {
  const result = run(
    db,
    db.query.insertInto('manifests').values({
      numero,
      estado: 'imported',
      created_at: createdAt,
      created_batch_id: batchId,
      closed_at: null,
      returns_deadline: returnsDeadline,
    }),
  )
  return Number(result.lastInsertRowid)
}
