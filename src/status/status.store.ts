import { first, type Database } from '../db/database.ts'
import type { BatchState } from '../db/tables.ts'

/** Read-only counts for the status endpoint; every table stays written by its own feature's store. */

export function findLastBatch(db: Database): { uuid: string; received_at: string; estado: BatchState } | undefined {
  return first(
    db,
    db.query.selectFrom('batches').select(['uuid', 'received_at', 'estado']).orderBy('id', 'desc').limit(1),
  )
}

/**
 * Batches received from `from` (a stored instant) on: all of them, and the ones that failed in
 * processing (a batch refused whole under contract v2 is stored failed with HTTP 422: it was
 * answered, so it is not counted as failed).
 */
export function countBatchesSince(db: Database, from: string): { total: number; failed: number } {
  const row = first(
    db,
    db.query
      .selectFrom('batches')
      .select((eb) => [
        eb.fn.countAll<number>().as('total'),
        eb.fn
          .sum<number | null>(
            eb
              .case()
              .when(
                eb.and([
                  eb('estado', '=', 'failed'),
                  eb.or([eb('http_status', 'is', null), eb('http_status', '!=', 422)]),
                ]),
              )
              .then(1)
              .else(0)
              .end(),
          )
          .as('failed'),
      ])
      .where('received_at', '>=', from),
  )
  return { total: row?.total ?? 0, failed: row?.failed ?? 0 }
}
