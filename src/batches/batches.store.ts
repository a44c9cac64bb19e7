import { sql } from 'kysely'
import { all, first, run, type Database } from '../db/database.ts'
import type { Selectable } from 'kysely'
import type { BatchState, BatchTable } from '../db/tables.ts'

export interface NewBatch {
  uuid: string
  receivedAt: string
  receivedDate: string
  contentHash: string
  clientIp: string
  keyFingerprint: string
  invoiceCount: number
}

export interface BatchRow {
  id: number
  uuid: string
  estado: BatchState
  summary: string | null
  http_status: number | null
}

/**
 * Records a batch as `received`. The partial unique index on (content_hash, received_date) for
 * batches that did not fail makes this the claim: a second identical batch the same day cannot be
 * inserted. @returns the new id, or null when an identical batch already holds the claim.
 */
export function insertReceivedBatch(db: Database, batch: NewBatch): number | null {
  try {
    const result = run(
      db,
      db.query.insertInto('batches').values({
        uuid: batch.uuid,
        received_at: batch.receivedAt,
        received_date: batch.receivedDate,
        content_hash: batch.contentHash,
        client_ip: batch.clientIp,
        key_fingerprint: batch.keyFingerprint,
        estado: 'received',
        invoice_count: batch.invoiceCount,
        http_status: null,
        summary: null,
        failure: null,
        finished_at: null,
        payload_pruned_at: null,
      }),
    )
    return Number(result.lastInsertRowid)
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') return null
    throw error
  }
}

/** The batch of that content that holds the day's claim (received or processed), if any. */
export function findClaimingBatch(db: Database, contentHash: string, receivedDate: string): BatchRow | undefined {
  return first(
    db,
    db.query
      .selectFrom('batches')
      .select(['id', 'uuid', 'estado', 'summary', 'http_status'])
      .where('content_hash', '=', contentHash)
      .where('received_date', '=', receivedDate)
      .where('estado', '<>', 'failed'),
  )
}

export function markBatchProcessed(db: Database, id: number, summary: string, httpStatus: number, finishedAt: string): void {
  run(
    db,
    db.query
      .updateTable('batches')
      .set({ estado: 'processed', summary, http_status: httpStatus, finished_at: finishedAt })
      .where('id', '=', id)
      .where('estado', '=', 'received'),
  )
}

export function markBatchFailed(db: Database, id: number, failure: string, finishedAt: string): void {
  run(
    db,
    db.query
      .updateTable('batches')
      .set({ estado: 'failed', failure, http_status: 500, finished_at: finishedAt })
      .where('id', '=', id)
      .where('estado', '=', 'received'),
  )
}

/**
 * A batch refused whole under the all-or-nothing contract (v2): nothing of it was stored, so it
 * is `failed` — it holds no claim on the day, and the identical body is processed when resent —
 * with its 422 summary and why.
 */
export function markBatchRejectedWhole(db: Database, id: number, summary: string, failure: string, finishedAt: string): void {
  run(
    db,
    db.query
      .updateTable('batches')
      .set({ estado: 'failed', summary, failure, http_status: 422, finished_at: finishedAt })
      .where('id', '=', id)
      .where('estado', '=', 'received'),
  )
}

/** Batches a crash left `received` become `failed`; their resend is then processed. */
export function failReceivedBatches(db: Database, failure: string, finishedAt: string): number {
  const result = run(
    db,
    db.query.updateTable('batches').set({ estado: 'failed', failure, finished_at: finishedAt }).where('estado', '=', 'received'),
  )
  return result.changes
}

export function insertBatchPayload(db: Database, batchId: number, encoding: string, byteLength: number, data: Buffer): void {
  run(db, db.query.insertInto('batch_payloads').values({ batch_id: batchId, encoding, byte_length: byteLength, data }))
}

/** Deletes raw bodies of batches received before `cutoff` (an ISO instant); keeps the records. */
export function deletePayloadsReceivedBefore(db: Database, cutoff: string, prunedAt: string): number {
  const old = db.query.selectFrom('batches').select('id').where('received_at', '<', cutoff)
  run(db, db.query.updateTable('batches').set({ payload_pruned_at: prunedAt }).where('id', 'in', old).where(sql<boolean>`id IN (SELECT batch_id FROM batch_payloads)`))
  return run(db, db.query.deleteFrom('batch_payloads').where('batch_id', 'in', old)).changes
}

/** A batch as the operator API shows it: its record and the size of its raw body, if kept. */
export type BatchRecord = Omit<Selectable<BatchTable>, 'content_hash'> & { payload_bytes: number | null }

function records(db: Database) {
  return db.query
    .selectFrom('batches as b')
    .leftJoin('batch_payloads as p', 'p.batch_id', 'b.id')
    .select([
      'b.id', 'b.uuid', 'b.received_at', 'b.received_date', 'b.estado', 'b.invoice_count', 'b.http_status', 'b.summary',
      'b.failure', 'b.finished_at', 'b.client_ip', 'b.key_fingerprint', 'b.payload_pruned_at', 'p.byte_length as payload_bytes',
    ])
}

export function findBatchesReceivedOn(db: Database, receivedDate: string): BatchRecord[] {
  return all(db, records(db).where('b.received_date', '=', receivedDate).orderBy('b.id'))
}

export function findBatchRecord(db: Database, uuid: string): BatchRecord | undefined {
  return first(db, records(db).where('b.uuid', '=', uuid))
}

export function findPayload(db: Database, batchId: number): { encoding: string; data: Buffer } | undefined {
  return first(db, db.query.selectFrom('batch_payloads').select(['encoding', 'data']).where('batch_id', '=', batchId))
}

export interface BatchDayTotals {
  count: number
  recibidas: number
  insertadas: number
  actualizadas: number
  sin_cambios: number
  pendientes_revision: number
  rechazadas: number
}

/**
 * The batches received in an instant range (`from` inclusive, `to` exclusive; index on
 * received_at) and the sums of their summaries (a batch that failed in processing has none and adds
 * nothing; one refused whole under contract v2 adds what it received and rejected).
 */
export function findBatchTotals(db: Database, from: string, to: string): BatchDayTotals {
  const sum = (field: string) => sql<number>`CAST(total(json_extract(summary, ${`$.${field}`})) AS INTEGER)`
  const row = first(
    db,
    db.query
      .selectFrom('batches')
      .select([
        sql<number>`count(*)`.as('count'),
        sum('recibidas').as('recibidas'),
        sum('insertadas').as('insertadas'),
        sum('actualizadas').as('actualizadas'),
        sum('sin_cambios').as('sin_cambios'),
        sum('pendientes_revision').as('pendientes_revision'),
        sum('rechazadas').as('rechazadas'),
      ])
      .where('received_at', '>=', from)
      .where('received_at', '<', to),
  )
  return row!
}

/** The batches of an instant range that failed or were answered with a rejection, by arrival. */
export function findTroubledBatches(db: Database, from: string, to: string) {
  return all(
    db,
    db.query
      .selectFrom('batches')
      .select(['uuid', 'received_at', 'estado', 'http_status', 'failure'])
      .where('received_at', '>=', from)
      .where('received_at', '<', to)
      .where((where) => where.or([where('estado', '=', 'failed'), where('http_status', '<>', 200)]))
      .orderBy('id'),
  )
}
