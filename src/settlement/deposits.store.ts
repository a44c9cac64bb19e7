import { sql, type RawBuilder } from 'kysely'
import type { WarehouseScope } from '../access/actor.ts'
import { all, first, run, type Database } from '../db/database.ts'
import type { Updateable } from 'kysely'
import type { DepositState, DepositTable, ManifestState } from '../db/tables.ts'
import { inWarehouses } from '../access/warehouse-scope.ts'

/** A deposit with its manifest's number and state. */
export interface DepositRow {
  id: number
  manifest_id: number
  manifiesto: string
  manifest_estado: ManifestState
  almacen: string
  amount_cents: number
  fecha: string
  banco: string
  referencia: string
  notas: string | null
  justificacion: string | null
  estado: DepositState
  registered_at: string
  registered_by: string
  updated_at: string | null
  updated_by: string | null
  cancelled_at: string | null
  cancelled_by: string | null
  cancel_note: string | null
  receipt_type: string | null
  receipt_bytes: number | null
  receipt_at: string | null
  receipt_by: string | null
  receipt_pruned_at: string | null
}

function deposits(db: Database) {
  return db.query
    .selectFrom('deposits as d')
    .innerJoin('manifests as m', 'm.id', 'd.manifest_id')
    .select([
      'd.id',
      'd.manifest_id',
      'm.numero as manifiesto',
      'm.estado as manifest_estado',
      'd.almacen',
      'd.amount_cents',
      'd.fecha',
      'd.banco',
      'd.referencia',
      'd.notas',
      'd.justificacion',
      'd.estado',
      'd.registered_at',
      'd.registered_by',
      'd.updated_at',
      'd.updated_by',
      'd.cancelled_at',
      'd.cancelled_by',
      'd.cancel_note',
      'd.receipt_type',
      'd.receipt_bytes',
      'd.receipt_at',
      'd.receipt_by',
      'd.receipt_pruned_at',
    ])
}

/** The deposit, when its part is in `scope` (undefined otherwise: another warehouse's deposit is not visible). */
export function findDeposit(db: Database, id: number, scope: WarehouseScope): DepositRow | undefined {
  return first(db, deposits(db).where('d.id', '=', id).where(inWarehouses('d.almacen', scope)))
}

/** A manifest's deposits in `scope`, every state, in the order they were registered. */
export function findDepositsOfManifest(db: Database, manifestId: number, scope: WarehouseScope): DepositRow[] {
  return all(
    db,
    deposits(db).where('d.manifest_id', '=', manifestId).where(inWarehouses('d.almacen', scope)).orderBy('d.id'),
  )
}

/** The active deposit with this bank and slip (compared by its key), other than `exceptId`. */
export function findActiveSlip(
  db: Database,
  banco: string,
  referenciaClave: string,
  exceptId: number | null,
): { id: number; manifiesto: string; almacen: string } | undefined {
  let query = db.query
    .selectFrom('deposits as d')
    .innerJoin('manifests as m', 'm.id', 'd.manifest_id')
    .select(['d.id', 'm.numero as manifiesto', 'd.almacen'])
    .where('d.banco', '=', banco)
    .where('d.referencia_clave', '=', referenciaClave)
    .where('d.estado', '=', 'active')
  if (exceptId !== null) query = query.where('d.id', '<>', exceptId)
  return first(db, query)
}

export type NewDeposit = Omit<
  DepositTable,
  | 'id'
  | 'estado'
  | 'updated_at'
  | 'updated_by'
  | 'cancelled_at'
  | 'cancelled_by'
  | 'cancel_note'
  | 'receipt_type'
  | 'receipt_bytes'
  | 'receipt_at'
  | 'receipt_by'
  | 'receipt_pruned_at'
>

export function insertDeposit(db: Database, deposit: NewDeposit): number {
  return Number(run(db, db.query.insertInto('deposits').values(deposit)).lastInsertRowid)
}

export type DepositChanges = Pick<
  Updateable<DepositTable>,
  | 'amount_cents'
  | 'fecha'
  | 'banco'
  | 'referencia'
  | 'referencia_clave'
  | 'notas'
  | 'justificacion'
  | 'estado'
  | 'updated_at'
  | 'updated_by'
  | 'cancelled_at'
  | 'cancelled_by'
  | 'cancel_note'
>

export function updateDeposit(db: Database, id: number, changes: DepositChanges): void {
  run(db, db.query.updateTable('deposits').set(changes).where('id', '=', id))
}

/** Stores (or replaces) a deposit's receipt file and records its kind, size, when and who. */
export function upsertReceipt(
  db: Database,
  depositId: number,
  file: { type: string; data: Buffer },
  at: string,
  by: string,
): void {
  run(
    db,
    db.query
      .insertInto('deposit_receipts')
      .values({ deposit_id: depositId, stored_at: at, data: file.data })
      .onConflict((conflict) => conflict.column('deposit_id').doUpdateSet({ stored_at: at, data: file.data })),
  )
  run(
    db,
    db.query
      .updateTable('deposits')
      .set({
        receipt_type: file.type,
        receipt_bytes: file.data.length,
        receipt_at: at,
        receipt_by: by,
        receipt_pruned_at: null,
      })
      .where('id', '=', depositId),
  )
}

/** A deposit's receipt bytes, or undefined when it has none (never uploaded, or pruned). */
export function findReceiptData(db: Database, depositId: number): Buffer | undefined {
  return first(db, db.query.selectFrom('deposit_receipts').select('data').where('deposit_id', '=', depositId))?.data
}

/**
 * Deletes the receipt files stored before `cutoff`; their deposits keep the record, marked pruned
 * at `prunedAt`. @returns how many files were removed.
 */
export function deleteReceiptsStoredBefore(db: Database, cutoff: string, prunedAt: string): number {
  const ids = all(db, db.query.selectFrom('deposit_receipts').select('deposit_id').where('stored_at', '<', cutoff)).map(
    (row) => row.deposit_id,
  )
  if (ids.length === 0) return 0
  const list = sql<boolean>`deposit_id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`
  run(db, db.query.deleteFrom('deposit_receipts').where(list))
  run(
    db,
    db.query
      .updateTable('deposits')
      .set({ receipt_pruned_at: prunedAt })
      .where(sql<boolean>`id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`),
  )
  return ids.length
}

export interface DepositFilters {
  /** Slip dates, `YYYY-MM-DD`, inclusive. */
  from?: string
  to?: string
  banco?: string
  estado?: DepositState
  /** The local day it was registered. */
  registeredOn?: string
  scope: WarehouseScope
}

function matching(filters: DepositFilters): RawBuilder<boolean> {
  const conditions: Array<RawBuilder<unknown>> = [inWarehouses('d.almacen', filters.scope)]
  if (filters.from !== undefined) conditions.push(sql`d.fecha >= ${filters.from}`)
  if (filters.to !== undefined) conditions.push(sql`d.fecha <= ${filters.to}`)
  if (filters.banco !== undefined) conditions.push(sql`d.banco = ${filters.banco}`)
  if (filters.estado !== undefined) conditions.push(sql`d.estado = ${filters.estado}`)
  if (filters.registeredOn !== undefined) conditions.push(sql`d.registered_date = ${filters.registeredOn}`)
  return sql<boolean>`(${sql.join(conditions, sql` AND `)})`
}

/** Deposits by slip date, newest first (a page of them, or all for an export). */
export function findDeposits(
  db: Database,
  filters: DepositFilters,
  page?: { offset: number; limit: number },
): DepositRow[] {
  let query = deposits(db).where(matching(filters)).orderBy('d.fecha', 'desc').orderBy('d.id', 'desc')
  if (page !== undefined) query = query.limit(page.limit).offset(page.offset)
  return all(db, query)
}

export interface DepositSums {
  count: number
  cents: number
  byBank: Array<{ banco: string; count: number; cents: number }>
  byWarehouse: Array<{ almacen: string; count: number; cents: number }>
}

/** How many deposits match and their sums, in all and by bank and by warehouse. */
export function sumDeposits(db: Database, filters: DepositFilters): DepositSums {
  const grouped = all(
    db,
    db.query
      .selectFrom('deposits as d')
      .select(['d.banco', 'd.almacen', sql<number>`count(*)`.as('count'), sql<number>`sum(d.amount_cents)`.as('cents')])
      .where(matching(filters))
      .groupBy(['d.banco', 'd.almacen']),
  )
  const byBank = new Map<string, { banco: string; count: number; cents: number }>()
  const byWarehouse = new Map<string, { almacen: string; count: number; cents: number }>()
  let count = 0
  let cents = 0
  for (const row of grouped) {
    count += row.count
    cents += row.cents
    const bank = byBank.get(row.banco) ?? { banco: row.banco, count: 0, cents: 0 }
    bank.count += row.count
    bank.cents += row.cents
    byBank.set(row.banco, bank)
    const warehouse = byWarehouse.get(row.almacen) ?? { almacen: row.almacen, count: 0, cents: 0 }
    warehouse.count += row.count
    warehouse.cents += row.cents
    byWarehouse.set(row.almacen, warehouse)
  }
  const byName =
    <T>(key: (item: T) => string) =>
    (a: T, b: T) =>
      key(a).localeCompare(key(b), 'es')
  return {
    count,
    cents,
    byBank: [...byBank.values()].sort(byName((item) => item.banco)),
    byWarehouse: [...byWarehouse.values()].sort(byName((item) => item.almacen)),
  }
}
