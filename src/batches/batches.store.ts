import { sql } from 'kysely'
import { all, first, run, type Database } from '../db/database.ts'
import type { Selectable } from 'kysely'
import type { BatchState, BatchTable } from '../db/tables.ts'
import { deleteUnreferencedChunks } from './body-chunks.ts'
import type { WarehouseScope } from '../access/actor.ts'
import { inWarehouses } from '../access/warehouse-scope.ts'

export interface NewBatch {
  uuid: string
  receivedAt: string
  receivedDate: string
  /** sha256 of the body as received. */
  bodyHash: string
  bodyBytes: number
  /** sha256 of the invoice numbers in order. */
  numbersHash: string
  /** The canonical content hash when step 6 computed it (an earlier batch had the same numbers). */
  contentHash: string | null
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
 * Records a batch as `received`. The partial unique index on (body_hash, received_date) for
 * batches that did not fail makes this the claim: a second identical body the same day cannot be
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
        body_hash: batch.bodyHash,
        body_bytes: batch.bodyBytes,
        numbers_hash: batch.numbersHash,
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

/** The batch processed on that day whose body had exactly these bytes, if any. */
export function findProcessedBatchByBody(db: Database, bodyHash: string, receivedDate: string): BatchRow | undefined {
  return first(
    db,
    db.query
      .selectFrom('batches')
      .select(['id', 'uuid', 'estado', 'summary', 'http_status'])
      .where('body_hash', '=', bodyHash)
      .where('received_date', '=', receivedDate)
      .where('estado', '=', 'processed'),
  )
}

/**
 * The batches of that day (received or processed) that could have the same content: the same
 * invoice numbers in the same order, or recorded before their numbers were (migration 8).
 */
export function findBatchesWithSameNumbers(
  db: Database,
  receivedDate: string,
  numbersHash: string,
): Array<BatchRow & { content_hash: string | null }> {
  return all(
    db,
    db.query
      .selectFrom('batches')
      .select(['id', 'uuid', 'estado', 'summary', 'http_status', 'content_hash'])
      .where('received_date', '=', receivedDate)
      .where((where) => where.or([where('numbers_hash', '=', numbersHash), where('numbers_hash', 'is', null)]))
      .where('estado', '<>', 'failed')
      .orderBy('id'),
  )
}

/** Keeps a batch's content hash once computed (from its body, the first time a later batch needed it). */
export function setBatchContentHash(db: Database, id: number, contentHash: string): void {
  run(db, db.query.updateTable('batches').set({ content_hash: contentHash }).where('id', '=', id))
}

export function markBatchProcessed(
  db: Database,
  id: number,
  summary: string,
  httpStatus: number,
  finishedAt: string,
): void {
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
export function markBatchRejectedWhole(
  db: Database,
  id: number,
  summary: string,
  failure: string,
  finishedAt: string,
): void {
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
    db.query
      .updateTable('batches')
      .set({ estado: 'failed', failure, finished_at: finishedAt })
      .where('estado', '=', 'received'),
  )
  return result.changes
}

/**
 * Ends the retention of the raw bodies of batches received before `cutoff` (an ISO instant):
 * whole compressed bodies (before migration 8) are deleted; a body kept in chunks loses the
 * chunks no stored invoice points at (the others hold those invoices' originals). The batch
 * records stay, marked pruned. @returns how many bodies were pruned.
 */
export function deletePayloadsReceivedBefore(db: Database, cutoff: string, prunedAt: string): number {
  const kept = db.query
    .selectFrom('batches')
    .select('id')
    .where('received_at', '<', cutoff)
    .where('payload_pruned_at', 'is', null)
    .where(
      sql<boolean>`(id IN (SELECT batch_id FROM batch_payloads) OR id IN (SELECT batch_id FROM batch_body_chunks))`,
    )
  const ids = all(db, kept).map((row) => row.id)
  if (ids.length === 0) return 0
  run(db, db.query.updateTable('batches').set({ payload_pruned_at: prunedAt }).where('id', 'in', ids))
  run(db, db.query.deleteFrom('batch_payloads').where('batch_id', 'in', ids))
  deleteUnreferencedChunks(db, ids)
  return ids.length
}

/** A batch as the operator API shows it: its record and the size of its raw body, if kept. */
export type BatchRecord = Omit<Selectable<BatchTable>, 'content_hash' | 'body_hash' | 'body_bytes' | 'numbers_hash'> & {
  payload_bytes: number | null
}

function records(db: Database) {
  return db.query
    .selectFrom('batches as b')
    .leftJoin('batch_payloads as p', 'p.batch_id', 'b.id')
    .select([
      'b.id',
      'b.uuid',
      'b.received_at',
      'b.received_date',
      'b.estado',
      'b.invoice_count',
      'b.http_status',
      'b.summary',
      'b.failure',
      'b.finished_at',
      'b.client_ip',
      'b.key_fingerprint',
      'b.payload_pruned_at',
      // A body in chunks is kept while its first chunk is and its retention has not ended.
      sql<number | null>`coalesce(p.byte_length, CASE WHEN b.payload_pruned_at IS NULL AND EXISTS (
        SELECT 1 FROM batch_body_chunks c WHERE c.batch_id = b.id AND c.chunk = 0) THEN b.body_bytes END)`.as(
        'payload_bytes',
      ),
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

/**
 * What each of the batches brought into the warehouses of `scope` (the index invoices_batch): the
 * manifests of the invoices it inserted, by number, and how many of those invoices.
 */
export function findBatchContents(
  db: Database,
  batchIds: readonly number[],
  scope: WarehouseScope,
): Map<number, { manifests: string[]; invoices: number }> {
  const rows = all(
    db,
    db.query
      .selectFrom('invoices as i')
      .innerJoin('manifests as m', 'm.id', 'i.manifest_id')
      .select(['i.batch_id', 'm.numero', sql<number>`count(*)`.as('invoices')])
      .where(sql<boolean>`i.batch_id IN (SELECT value FROM json_each(${JSON.stringify(batchIds)}))`)
      .where(inWarehouses('i.almacen', scope))
      .groupBy(['i.batch_id', 'm.numero'])
      .orderBy('i.batch_id')
      .orderBy('m.numero'),
  )
  const contents = new Map(batchIds.map((id) => [id, { manifests: [] as string[], invoices: 0 }]))
  for (const row of rows) {
    const content = contents.get(row.batch_id)!
    content.manifests.push(row.numero)
    content.invoices += row.invoices
  }
  return contents
}

/**
 * The batches received in an instant range (`from` inclusive, `to` exclusive) that brought
 * invoices of `scope`, and those invoices (not annulled): how many and their exact sum.
 */
export function findScopedBatchDay(
  db: Database,
  from: string,
  to: string,
  scope: WarehouseScope,
): { batches: number; invoices: number; micros: number } {
  const row = first(
    db,
    db.query
      .selectFrom('batches as b')
      .innerJoin('invoices as i', 'i.batch_id', 'b.id')
      .select([
        sql<number>`count(DISTINCT b.id)`.as('batches'),
        sql<number>`count(*) FILTER (WHERE i.annulled_at IS NULL)`.as('invoices'),
        sql<number>`total(i.total_micros) FILTER (WHERE i.annulled_at IS NULL)`.as('micros'),
      ])
      .where('b.received_at', '>=', from)
      .where('b.received_at', '<', to)
      .where(inWarehouses('i.almacen', scope)),
  )
  return row ?? { batches: 0, invoices: 0, micros: 0 }
}
