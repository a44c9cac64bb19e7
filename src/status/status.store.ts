import { first, type Database } from '../db/database.ts'
import type { BatchState } from '../db/tables.ts'

/** Read-only counts for the status endpoint; every table stays written by its own feature's store. */

export function findLastBatch(db: Database): { uuid: string; received_at: string; estado: BatchState } | undefined {
  return first(db, db.query.selectFrom('batches').select(['uuid', 'received_at', 'estado']).orderBy('id', 'desc').limit(1))
}

/** Batches received from `from` (a stored instant) on: all of them, and the failed ones. */
export function countBatchesSince(db: Database, from: string): { total: number; failed: number } {
  const row = first(
    db,
    db.query
      .selectFrom('batches')
      .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.sum<number | null>(eb.case().when('estado', '=', 'failed').then(1).else(0).end()).as('failed')])
      .where('received_at', '>=', from),
  )
  return { total: row?.total ?? 0, failed: row?.failed ?? 0 }
}

export function countPending(db: Database): { conflicts: number; returns: number; reissues: number } {
  const count = (table: 'invoice_conflicts' | 'returns' | 'invoice_reissues') =>
    first(db, db.query.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('estado', '=', 'pending'))?.n ?? 0
  return { conflicts: count('invoice_conflicts'), returns: count('returns'), reissues: count('invoice_reissues') }
}
