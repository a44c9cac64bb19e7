import { sql, type RawBuilder } from 'kysely'
import type { WarehouseScope } from '../access/actor.ts'
import { all, first, type Database } from '../db/database.ts'
import type { ManifestState } from '../db/tables.ts'
import { inWarehouses } from '../access/warehouse-scope.ts'
import type { PartMoney } from './figures.ts'

export interface SettlementManifestRow {
  id: number
  numero: string
  estado: ManifestState
  created_at: string
}

/** The manifest, when it has invoices in `scope` (otherwise it is not visible: undefined). */
export function findSettlementManifest(
  db: Database,
  numero: string,
  scope: WarehouseScope,
): SettlementManifestRow | undefined {
  return first(
    db,
    db.query
      .selectFrom('manifests as m')
      .select(['m.id', 'm.numero', 'm.estado', 'm.created_at'])
      .where('m.numero', '=', numero)
      .where(
        sql<boolean>`EXISTS (SELECT 1 FROM invoices vi WHERE vi.manifest_id = m.id AND ${inWarehouses('vi.almacen', scope)})`,
      ),
  )
}

interface PartRow {
  almacen: string
  counted_micros: number
  approved_cents: number
  pending_returns: number
  deposited_cents: number
  justified_deposits: number
  adjusted_cents: number
}

const toPart = (row: PartRow): PartMoney => ({
  almacen: row.almacen,
  countedMicros: row.counted_micros,
  approvedCents: row.approved_cents,
  pendingReturns: row.pending_returns,
  depositedCents: row.deposited_cents,
  justifiedDeposits: row.justified_deposits,
  adjustedCents: row.adjusted_cents,
})

/**
 * One manifest's parts in `scope`, summed from its stored rows — invoices, returns, deposits and
 * adjustments — as every decision on it reads them (a close, a deposit's overpayment), by warehouse.
 */
export function findPartsOfManifest(db: Database, manifestId: number, scope: WarehouseScope): PartMoney[] {
  const part = sql`ri.manifest_id = i.manifest_id AND ri.almacen = i.almacen`
  const rows = all(
    db,
    db.query
      .selectFrom('invoices as i')
      .select([
        'i.almacen',
        sql<number>`coalesce(sum(i.total_micros) FILTER (WHERE i.annulled_at IS NULL), 0)`.as('counted_micros'),
        sql<number>`(SELECT coalesce(sum(r.total_cents), 0) FROM returns r JOIN invoices ri ON ri.id = r.invoice_id WHERE ${part} AND r.estado = 'approved')`.as(
          'approved_cents',
        ),
        sql<number>`(SELECT count(*) FROM returns r JOIN invoices ri ON ri.id = r.invoice_id WHERE ${part} AND r.estado = 'pending')`.as(
          'pending_returns',
        ),
        sql<number>`(SELECT coalesce(sum(d.amount_cents), 0) FROM deposits d WHERE d.manifest_id = i.manifest_id AND d.almacen = i.almacen AND d.estado = 'active')`.as(
          'deposited_cents',
        ),
        sql<number>`(SELECT count(*) FROM deposits d WHERE d.manifest_id = i.manifest_id AND d.almacen = i.almacen AND d.estado = 'active' AND d.justificacion IS NOT NULL)`.as(
          'justified_deposits',
        ),
        sql<number>`(SELECT coalesce(sum(a.amount_cents), 0) FROM settlement_adjustments a WHERE a.manifest_id = i.manifest_id AND a.almacen = i.almacen)`.as(
          'adjusted_cents',
        ),
      ])
      .where('i.manifest_id', '=', manifestId)
      .where(inWarehouses('i.almacen', scope))
      .groupBy(['i.manifest_id', 'i.almacen'])
      .orderBy('i.almacen'),
  )
  return rows.map(toPart)
}

/**
 * The parts in `scope` of many manifests at once, from manifest_totals (a few rows per manifest,
 * kept by triggers): what the lists show. Keyed by manifest id, each by warehouse.
 */
export function findPartsOfManifests(
  db: Database,
  manifestIds: readonly number[],
  scope: WarehouseScope,
): Map<number, PartMoney[]> {
  const parts = new Map<number, PartMoney[]>(manifestIds.map((id) => [id, []]))
  if (manifestIds.length === 0) return parts
  const rows = all(
    db,
    db.query
      .selectFrom('manifest_totals as t')
      .select([
        't.manifest_id',
        't.almacen',
        't.counted_micros',
        't.approved_cents',
        't.pending_returns',
        't.deposited_cents',
        't.justified_deposits',
        't.adjusted_cents',
      ])
      .where(sql<boolean>`t.manifest_id IN (SELECT value FROM json_each(${JSON.stringify(manifestIds)}))`)
      .where('t.invoices', '>', 0)
      .where(inWarehouses('t.almacen', scope))
      .orderBy('t.manifest_id')
      .orderBy('t.almacen'),
  )
  for (const row of rows) parts.get(row.manifest_id)?.push(toPart(row))
  return parts
}

/** A part's a_depositar in cents (its invoices' exact sum rounded to the cent, less its approved returns), on `manifest_totals t`. */
export const PART_TO_DEPOSIT = sql<number>`((t.counted_micros + 5000) / 10000 - t.approved_cents)`
/** A part's diferencia in cents, in SQL on `manifest_totals t` (the same arithmetic as figuresOf). */
export const PART_DIFFERENCE = sql<number>`(${PART_TO_DEPOSIT} - t.deposited_cents - t.adjusted_cents)`
/** A part that is not settled: returns pending, money missing, or over without a justification. */
const PART_OPEN = sql<boolean>`(t.pending_returns > 0 OR ${PART_DIFFERENCE} > 0 OR (${PART_DIFFERENCE} < 0 AND t.justified_deposits = 0))`

export type SettlementFilter = 'pendiente' | 'lista' | 'cerrada'

/**
 * The manifests list's `liquidacion` filter, on `manifests m`: open with a part of `scope` not
 * settled (pendiente), open with every part of `scope` settled (lista), or closed (cerrada).
 */
export function settlementCondition(filter: SettlementFilter, scope: WarehouseScope): RawBuilder<boolean> {
  if (filter === 'cerrada') return sql<boolean>`m.estado = 'closed'`
  const open = sql<boolean>`EXISTS (SELECT 1 FROM manifest_totals t WHERE t.manifest_id = m.id AND t.invoices > 0 AND ${inWarehouses('t.almacen', scope)} AND ${PART_OPEN})`
  return filter === 'pendiente'
    ? sql<boolean>`(m.estado = 'imported' AND ${open})`
    : sql<boolean>`(m.estado = 'imported' AND NOT ${open})`
}

/** A manifest's diferencia in cents over its parts in `scope`, on `manifests m` (to sort a list by it). */
export function manifestDifference(scope: WarehouseScope): RawBuilder<number> {
  return sql<number>`(SELECT coalesce(sum(${PART_DIFFERENCE}), 0) FROM manifest_totals t WHERE t.manifest_id = m.id AND t.invoices > 0 AND ${inWarehouses('t.almacen', scope)})`
}

export interface OpenManifestMoney {
  created_at: string
  /** Σ of the missing cents of its parts (positive differences only). */
  short_cents: number
  /** Parts of `scope` not settled. */
  open_parts: number
}

/** Every open manifest visible to `scope` with what is missing of it (from manifest_totals): Inicio's money. */
export function findOpenManifestsMoney(db: Database, scope: WarehouseScope): OpenManifestMoney[] {
  return all(
    db,
    db.query
      .selectFrom('manifests as m')
      .innerJoin('manifest_totals as t', 't.manifest_id', 'm.id')
      .select([
        'm.created_at',
        sql<number>`sum(max(${PART_DIFFERENCE}, 0))`.as('short_cents'),
        sql<number>`sum(${PART_OPEN})`.as('open_parts'),
      ])
      .where('m.estado', '=', 'imported')
      .where('t.invoices', '>', 0)
      .where(inWarehouses('t.almacen', scope))
      .groupBy('m.id'),
  )
}

/** Whether the manifest has an active deposit (then only an admin reopens it). */
export function hasActiveDeposits(db: Database, manifestId: number): boolean {
  return (
    first(
      db,
      db.query
        .selectFrom('deposits')
        .select('id')
        .where('manifest_id', '=', manifestId)
        .where('estado', '=', 'active')
        .limit(1),
    ) !== undefined
  )
}
