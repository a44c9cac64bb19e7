import { gzip } from 'node:zlib'
import { promisify } from 'node:util'
import { toStoredInstant, type Clock } from '../clock.ts'
import type { Database } from '../db/database.ts'
import { deletePayloadsReceivedBefore, failReceivedBatches, insertBatchPayload } from './batches.store.ts'

const gzipAsync = promisify(gzip)
const DAY_MS = 24 * 60 * 60 * 1000

/** At start: a batch still `received` was interrupted by a crash or kill; it is marked failed. */
export function failInterruptedBatches(db: Database, clock: Clock): number {
  return failReceivedBatches(db, 'interrumpido: el servicio se detuvo mientras se procesaba', toStoredInstant(clock.now()))
}

/**
 * Starts compressing a raw body in the thread pool (so it runs while the batch's transaction
 * holds the main thread) and returns a function that stores it once ready.
 */
export function compressPayload(body: Buffer): Promise<Buffer> {
  // Level 1: JSON still shrinks ~8×, at a fraction of the default level's time.
  return gzipAsync(body, { level: 1 })
}

export function storePayload(db: Database, batchId: number, body: Buffer, compressed: Buffer): void {
  insertBatchPayload(db, batchId, 'gzip', body.length, compressed)
}

/**
 * Deletes raw bodies older than the retention (contract §3: the batch record and its summary
 * stay). Runs at start and then daily. @returns how many bodies were removed.
 */
export function pruneRawPayloads(db: Database, clock: Clock, retentionDays: number): number {
  const now = clock.now()
  const cutoff = toStoredInstant(now.minusMillis(retentionDays * DAY_MS))
  return deletePayloadsReceivedBefore(db, cutoff, toStoredInstant(now))
}
