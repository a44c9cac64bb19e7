import { sql, type RawBuilder } from 'kysely'
import type { WarehouseScope } from '../access/actor.ts'
import { all, first, type Database } from '../db/database.ts'
import type { ManifestState } from '../db/tables.ts'
import { inWarehouses } from '../access/warehouse-scope.ts'
import {
  manifestDifference,
  PART_DIFFERENCE,
  PART_TO_DEPOSIT,
  settlementCondition,
  type SettlementFilter,
} from '../settlement/settlement.store.ts'
import type { ManifestSummaryRow } from './manifests.store.ts'

/**
 * Manifests with the count and exact sum of the invoices in the warehouses of `scope`, and their
 * returns — what findManifestSummary gives for one — from manifest_totals (a row per manifest
 * and warehouse, kept by triggers: no invoice or return is read). A manifest with none of its
 * invoices in scope is left out (it is not visible). The sums are exact integers; total() hands
 * them over as the same REAL the sum over every invoice gave (exact while under 2^53 millionths —
 * L 9,000 million per manifest).
 */
function summaries(db: Database, scope: WarehouseScope) {
  const query = db.query
    .selectFrom('manifests as m')
    // Annulled invoices (confirmed re-issues) are paper for goods delivered once: counted_* leave them out.
    .leftJoin('manifest_totals as t', (join) =>
      join.onRef('t.manifest_id', '=', 'm.id').on(inWarehouses('t.almacen', scope)),
    )
    .groupBy('m.id')
    .select([
      'm.id',
      'm.numero',
      'm.estado',
      'm.created_at',
      'm.closed_at',
      'm.returns_deadline',
      sql<number>`coalesce(sum(t.counted_invoices), 0)`.as('invoice_count'),
      sql<number>`total(t.counted_micros)`.as('total_micros'),
      sql<number>`coalesce(sum(t.holding_returns), 0)`.as('return_count'),
      sql<number>`total(t.approved_cents)`.as('returned_cents'),
    ])
  return scope === null ? query : query.where(visible(scope))
}

export interface ManifestFilters {
  estado?: ManifestState
  /** Stored instants: `from` inclusive, `to` exclusive. */
  from?: string
  to?: string
  /** The start of NumeroManifiesto (digits). */
  numberPrefix?: string
  /** Where its settlement stands, as `scope` sees it (issue 40). */
  settlement?: SettlementFilter
}

/**
 * How a list of manifests is ordered: by arrival, newest or oldest first; by total; or by the
 * settlement's diferencia (`-`: largest first). Ties go newest first.
 */
export type ManifestOrder = 'reciente' | 'antiguo' | 'total' | '-total' | 'diferencia' | '-diferencia'

/** Manifests by state, creation instant range, number prefix and settlement, in `order` (oldest first: the answer since the first release). */
export function findManifestSummaries(
  db: Database,
  scope: WarehouseScope,
  filters: ManifestFilters,
  order: ManifestOrder = 'antiguo',
): ManifestSummaryRow[] {
  return all(db, ordered(summaries(db, scope).where(matching(filters, scope)), scope, order))
}

/**
 * One page of the visible manifests, newest first by default. The page's ids are chosen on the
 * manifests table alone (index on created_at; the few totals rows of each manifest for its
 * diferencia), so only the page's invoices are summed, whatever the count of manifests and
 * invoices stored; by total, every filtered manifest is summed (a few rows of manifest_totals
 * each) and sorted.
 */
export function findManifestSummaryPage(
  db: Database,
  scope: WarehouseScope,
  filters: ManifestFilters,
  offset: number,
  limit: number,
  order: ManifestOrder = 'reciente',
): ManifestSummaryRow[] {
  if (order === 'total' || order === '-total')
    return all(
      db,
      ordered(summaries(db, scope).where(matching(filters, scope)), scope, order)
        .limit(limit)
        .offset(offset),
    )
  const ids = db.query.selectFrom('manifests as m').select('m.id').where(visible(scope)).where(matching(filters, scope))
  const page = ordered(ids, scope, order).limit(limit).offset(offset)
  return all(db, ordered(summaries(db, scope).where('m.id', 'in', page), scope, order))
}

/** Orders a query on `manifests m` (by total: a query of summaries, which sums `t`). */
function ordered<Query extends { orderBy: (expression: RawBuilder<unknown>) => Query }>(
  query: Query,
  scope: WarehouseScope,
  order: ManifestOrder,
): Query {
  const direction = order.startsWith('-') || order === 'reciente' ? sql`DESC` : sql`ASC`
  if (order === 'reciente' || order === 'antiguo')
    return query.orderBy(sql`m.created_at ${direction}`).orderBy(sql`m.numero ${direction}`)
  const key = order.endsWith('total') ? sql`total(t.counted_micros)` : manifestDifference(scope)
  return query
    .orderBy(sql`${key} ${direction}`)
    .orderBy(sql`m.created_at DESC`)
    .orderBy(sql`m.numero DESC`)
}

/**
 * The sums of the visible manifests with these filters (a list's totals row): their invoices in
 * `scope` (not annulled) and exact amount, their approved returns, and their settlement's sums
 * (each part's a_depositar, depositado and diferencia, in cents) — from manifest_totals.
 */
export function sumManifests(db: Database, scope: WarehouseScope, filters: ManifestFilters): ManifestSums {
  const row = first(
    db,
    db.query
      .selectFrom('manifest_totals as t')
      .innerJoin('manifests as m', 'm.id', 't.manifest_id')
      .select([
        sql<number>`coalesce(sum(t.counted_invoices), 0)`.as('invoices'),
        sql<number>`total(t.counted_micros)`.as('micros'),
        sql<number>`coalesce(sum(t.approved_cents), 0)`.as('approved_cents'),
        sql<number>`coalesce(sum(${PART_TO_DEPOSIT}), 0)`.as('to_deposit_cents'),
        sql<number>`coalesce(sum(t.deposited_cents), 0)`.as('deposited_cents'),
        sql<number>`coalesce(sum(${PART_DIFFERENCE}), 0)`.as('difference_cents'),
      ])
      .where(inWarehouses('t.almacen', scope))
      .where(matching(filters, scope)),
  )
  return (
    row ?? { invoices: 0, micros: 0, approved_cents: 0, to_deposit_cents: 0, deposited_cents: 0, difference_cents: 0 }
  )
}

export interface ManifestSums {
  invoices: number
  micros: number
  approved_cents: number
  to_deposit_cents: number
  deposited_cents: number
  difference_cents: number
}

/** How many manifests are visible with these filters. */
export function countManifests(db: Database, scope: WarehouseScope, filters: ManifestFilters): number {
  const row = first(
    db,
    db.query
      .selectFrom('manifests as m')
      .select(sql<number>`count(*)`.as('count'))
      .where(visible(scope))
      .where(matching(filters, scope)),
  )
  return row?.count ?? 0
}

export interface ManifestExtras {
  /** Pending conflicts of its invoices in scope. */
  pendingConflicts: number
  /** The warehouses of its invoices in scope, sorted. */
  almacenes: string[]
}

/** Pending conflicts and warehouses of the given manifests, as `scope` sees them. */
export function findManifestExtras(
  db: Database,
  manifestIds: readonly number[],
  scope: WarehouseScope,
): Map<number, ManifestExtras> {
  const idList = JSON.stringify(manifestIds)
  const extras = new Map<number, ManifestExtras>(manifestIds.map((id) => [id, { pendingConflicts: 0, almacenes: [] }]))
  const warehouses = all(
    db,
    db.query
      .selectFrom('manifest_totals as t')
      .select(['t.manifest_id', 't.almacen'])
      .where(sql<boolean>`t.manifest_id IN (SELECT value FROM json_each(${idList}))`)
      .where('t.invoices', '>', 0)
      .where(inWarehouses('t.almacen', scope))
      .orderBy('t.almacen'),
  )
  for (const row of warehouses) extras.get(row.manifest_id)?.almacenes.push(row.almacen)
  const conflicts = all(
    db,
    db.query
      .selectFrom('invoice_conflicts as c')
      .innerJoin('invoices as i', 'i.id', 'c.invoice_id')
      .select(['i.manifest_id', sql<number>`count(*)`.as('count')])
      .where('c.estado', '=', 'pending')
      .where(sql<boolean>`i.manifest_id IN (SELECT value FROM json_each(${idList}))`)
      .where(inWarehouses('i.almacen', scope))
      .groupBy('i.manifest_id'),
  )
  for (const row of conflicts) extras.get(row.manifest_id)!.pendingConflicts = row.count
  return extras
}

/** Only manifests with at least one invoice in scope (every manifest for a scope of all). */
function visible(scope: WarehouseScope): RawBuilder<boolean> {
  if (scope === null) return sql<boolean>`1`
  return sql<boolean>`EXISTS (SELECT 1 FROM manifest_totals vt WHERE vt.manifest_id = m.id AND ${inWarehouses('vt.almacen', scope)} AND vt.invoices > 0)`
}

/** The filters as one condition on `manifests m` (the settlement as `scope` sees it). */
function matching(filters: ManifestFilters, scope: WarehouseScope): RawBuilder<boolean> {
  const conditions: Array<RawBuilder<unknown>> = [sql`1`]
  if (filters.settlement !== undefined) conditions.push(settlementCondition(filters.settlement, scope))
  if (filters.estado !== undefined) conditions.push(sql`m.estado = ${filters.estado}`)
  if (filters.from !== undefined) conditions.push(sql`m.created_at >= ${filters.from}`)
  if (filters.to !== undefined) conditions.push(sql`m.created_at < ${filters.to}`)
  // A range rather than LIKE: the unique index on numero serves it (':' follows '9' in ASCII).
  if (filters.numberPrefix !== undefined)
    conditions.push(sql`m.numero >= ${filters.numberPrefix} AND m.numero < ${`${filters.numberPrefix}:`}`)
  return sql<boolean>`(${sql.join(conditions, sql` AND `)})`
}

/** The oldest open manifest visible to `scope` (index on estado, created_at), or undefined. */
export function findOldestOpenManifest(
  db: Database,
  scope: WarehouseScope,
): { numero: string; created_at: string } | undefined {
  return first(
    db,
    db.query
      .selectFrom('manifests as m')
      .select(['m.numero', 'm.created_at'])
      .where('m.estado', '=', 'imported')
      .where(visible(scope))
      .orderBy('m.created_at')
      .orderBy('m.numero')
      .limit(1),
  )
}

/**
 * Open manifests visible to `scope` whose returns window ends on `lastDay` (index on
 * returns_deadline), with their pending returns in scope, by number.
 */
export function findManifestsDueOn(
  db: Database,
  scope: WarehouseScope,
  lastDay: string,
): Array<{ numero: string; returns_deadline: string; pending_returns: number }> {
  return all(
    db,
    db.query
      .selectFrom('manifests as m')
      .select([
        'm.numero',
        sql<string>`m.returns_deadline`.as('returns_deadline'),
        sql<number>`(SELECT count(*) FROM returns r JOIN invoices ri ON ri.id = r.invoice_id WHERE ri.manifest_id = m.id AND ${inWarehouses('ri.almacen', scope)} AND r.estado = 'pending')`.as(
          'pending_returns',
        ),
      ])
      .where('m.returns_deadline', '=', lastDay)
      .where('m.estado', '=', 'imported')
      .where(visible(scope))
      .orderBy('m.numero'),
  )
}
