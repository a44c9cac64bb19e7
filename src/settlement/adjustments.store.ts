import type { WarehouseScope } from '../access/actor.ts'
import { all, first, run, type Database } from '../db/database.ts'
import type { SettlementAdjustmentTable } from '../db/tables.ts'
import { inWarehouses } from '../access/warehouse-scope.ts'

export interface AdjustmentRow {
  id: number
  manifiesto: string
  almacen: string
  amount_cents: number
  motivo: string
  created_at: string
  created_by: string
}

function adjustments(db: Database) {
  return db.query
    .selectFrom('settlement_adjustments as a')
    .innerJoin('manifests as m', 'm.id', 'a.manifest_id')
    .select([
      'a.id',
      'm.numero as manifiesto',
      'a.almacen',
      'a.amount_cents',
      'a.motivo',
      'a.created_at',
      'a.created_by',
    ])
}

/** A manifest's adjustments in `scope`, in the order they were made. */
export function findAdjustmentsOfManifest(db: Database, manifestId: number, scope: WarehouseScope): AdjustmentRow[] {
  return all(
    db,
    adjustments(db).where('a.manifest_id', '=', manifestId).where(inWarehouses('a.almacen', scope)).orderBy('a.id'),
  )
}

export function findAdjustment(db: Database, id: number): AdjustmentRow | undefined {
  return first(db, adjustments(db).where('a.id', '=', id))
}

/** Adjustments are only ever added: a mistake is corrected by the opposite one. */
export function insertAdjustment(db: Database, adjustment: Omit<SettlementAdjustmentTable, 'id'>): number {
  return Number(run(db, db.query.insertInto('settlement_adjustments').values(adjustment)).lastInsertRowid)
}
