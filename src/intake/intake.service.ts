import type { Logger } from 'pino'
import type { Alerter } from '../alerts/alerter.ts'
import { insertBodyChunks } from '../batches/body-chunks.ts'
import {
  insertReceivedBatch,
  markBatchFailed,
  markBatchProcessed,
  markBatchRejectedWhole,
} from '../batches/batches.store.ts'
import { localDateOf, today, toStoredInstant } from '../core/clock.ts'
import { DatabaseFileGoneError, DomainError, invalidInput } from '../core/errors.ts'
import { rolledBack, transaction, changesSoFar } from '../db/database.ts'
import { INTERNAL_ERROR_MESSAGE } from '../http/error-response.ts'
import type { UploadSlots } from '../http/upload-slots.ts'
import { findManifestsByNumbers, type ExistingManifest } from '../manifests/manifests.store.ts'
import { holidaysOf, lastDayOfWindow } from '../returns/window.ts'
import { randomUUID } from 'node:crypto'
import { receiveBatchBody, type BatchBody, type BodySource } from './body/batch-body.ts'
import type { BodyCompressor } from './body/body-compressor.ts'
import { applyBatch, type ApplyOutcome } from './intake.apply.ts'
import * as answers from './intake.answers.ts'
import { duplicateOfBody, duplicateOfContent } from './intake.duplicates.ts'
import { readBatch, type ReadBatch, type ReadDeps } from './intake.read.ts'
import type { BatchDuplicate, SimulatedDuplicate, SimulatedProcessed } from './intake.schemas.ts'

export interface IntakeDeps extends ReadDeps {
  log: Logger
  /** Called when stored invoices changed in place (the returns listing shows their data). */
  onInvoicesChanged: () => void
  /** The webhook's notices: one per batch with possible re-issues. */
  alerter: Pick<Alerter, 'notice'>
  /** Compresses a kept batch's body in a worker thread (src/intake/body/body-compressor.ts). */
  compressor: BodyCompressor
  /** intake.maxConcurrentBatches: batch bodies received at once (insertar and validar together). */
  uploads: UploadSlots
}

/** A batch request as the intake reads it (src/http/route.ts's RouteRequest). */
export interface BatchRequest extends BodySource {
  clientIp: string
  keyFingerprint: string | undefined
  /** Where the request's log line takes the batch's uuid. */
  logContext: { batchUuid?: string }
}

export type BatchAnswer = ReturnType<typeof answers.processed> | ReturnType<typeof answers.duplicate>
export type SimulatedAnswer = SimulatedProcessed | SimulatedDuplicate

/** A batch whose body arrived: the uuid it would be recorded under, and who sent it. */
interface Received {
  uuid: string
  body: BatchBody
  clientIp: string
  keyFingerprint: string
}

/**
 * POST facturas/insertar, interface-v1 §4.1 steps 2–8. The body is read (hashed, its chunks
 * compressing in a worker from then on); an identical body processed today is answered before
 * parsing (step 6 on the bytes); steps 2–4 and the work ahead of steps 6 and 8 run in slices;
 * then, once the chunks are ready, steps 5–8 run to the commit without another await, so two
 * identical batches arriving together are processed one after the other and the second finds the
 * first (the duplicate answer).
 * @returns the 200 answer (processed, or duplicate of today's identical batch).
 * @throws DomainError INVALID_INPUT (422) with the body of each rejection of steps 2–5 and 8;
 * INTERNAL (500, with the batch's uuid) for anything unexpected; DatabaseFileGoneError (503).
 */
export function insertBatch(deps: IntakeDeps, request: BatchRequest): Promise<BatchAnswer> {
  return receiving(deps, request, { keep: true, internalDetails: (uuid) => ({ batch_uuid: uuid }) }, (batch) =>
    processBatch(deps, batch),
  )
}

/**
 * POST facturas/validar: what `insertBatch` would answer now, computed by the same steps, with
 * nothing stored. Steps 7 and 8 run inside one transaction that is always rolled back (so no batch
 * record, invoice, conflict, audit entry or raw body remains), and nothing is announced (no
 * re-issue notice, no cache invalidation). The answer differs from `insertar`'s only by
 * `simulacion: true` and a `batch_uuid` of null where `insertar` would create one (a duplicate
 * keeps the original's).
 * @throws DomainError INVALID_INPUT (422) with `insertar`'s body of that rejection, marked the same way.
 */
export function validateBatch(deps: IntakeDeps, request: BatchRequest): Promise<SimulatedAnswer> {
  return receiving(
    deps,
    request,
    { keep: false, internalDetails: () => ({ batch_uuid: null, simulacion: true }) },
    (batch) => simulateBatch(deps, batch),
  )
}

interface Receiving {
  /** Whether the batch may be kept (insertar): its body is compressed, its uuid logged. */
  keep: boolean
  /** What a 500 adds to its body. */
  internalDetails: (uuid: string) => Record<string, unknown>
}

/**
 * What insertar and validar share around their steps: an upload slot for the body (the same
 * slots for both, so they bound the memory of all batch bodies together), the body read within
 * server.maxBodyMB and server.bodyTimeoutSeconds, the log line naming the batch the answer names
 * (the original one for a duplicate, none for a batch refused before it was recorded), and an
 * unexpected failure turned into the 500 the interface describes.
 */
async function receiving<T>(
  deps: IntakeDeps,
  request: BatchRequest,
  options: Receiving,
  work: (batch: Received) => Promise<T>,
): Promise<T> {
  const release = deps.uploads.acquire()
  try {
    const uuid = randomUUID()
    const body = await receiveBatchBody(request, options.keep ? deps.compressor : null)
    const logAnswered = (answered: unknown) => {
      if (options.keep && typeof answered === 'string') request.logContext.batchUuid = answered
    }
    try {
      const answer = await work({
        uuid,
        body,
        clientIp: request.clientIp,
        keyFingerprint: request.keyFingerprint ?? '',
      })
      logAnswered((answer as { batch_uuid?: unknown }).batch_uuid)
      return answer
    } catch (error) {
      body.discard()
      if (error instanceof DomainError) {
        logAnswered(error.details.batch_uuid)
        throw error
      }
      // Nothing was stored: the batch may be sent again once the database is restored.
      if (error instanceof DatabaseFileGoneError) throw error
      logAnswered(uuid)
      throw new DomainError('INTERNAL', INTERNAL_ERROR_MESSAGE, options.internalDetails(uuid), {}, { cause: error })
    }
  } finally {
    release()
  }
}

/** Steps 2–8 of a batch that may be kept (`insertBatch`). */
async function processBatch(deps: IntakeDeps, batch: Received): Promise<BatchAnswer> {
  const { db, clock } = deps
  const { body } = batch
  const sameBody = duplicateOfBody(db, body.hash, today(clock).toString())
  if (sameBody) {
    body.discard()
    return sameBody
  }

  const read = await readBatch(deps, body)
  const chunks = await body.chunks()
  // A turn of the event loop before steps 5–8 hold the process until the commit: chunks ready
  // before steps 2–4 ended make the await above resolve without letting a ping or a console page in.
  await new Promise((resolve) => setImmediate(resolve))
  // The same bytes may have been processed while this batch waited for its chunks.
  const processedMeanwhile = duplicateOfBody(db, body.hash, today(clock).toString())
  if (processedMeanwhile) return processedMeanwhile
  const checked = checkAgainstStored(deps, read)
  if ('duplicate' in checked) return checked.duplicate

  // Step 7: the batch is recorded.
  const receivedAt = toStoredInstant(clock.now())
  const batchId = recordBatch(deps, checked, batch, receivedAt)

  // Step 8: every manifest, the batch's body and its summary in one transaction.
  let outcome
  try {
    outcome = transaction(db, () => applyRecorded(deps, checked, batch.uuid, batchId, receivedAt, chunks))
  } catch (error) {
    markBatchFailed(db, batchId, error instanceof Error ? error.message : String(error), toStoredInstant(clock.now()))
    keepBodyOfFailedBatch(deps, batchId, batch.uuid, chunks)
    throw error
  }

  if (outcome.resumen.actualizadas > 0) deps.onInvoicesChanged()
  if (outcome.reissues.length > 0) reportReissues(deps, batch.uuid, outcome.reissues)
  return answerOf(batch.uuid, checked, outcome)
}

/** Steps 2–8 of a batch that is only simulated (`validateBatch`). */
async function simulateBatch(deps: IntakeDeps, batch: Received): Promise<SimulatedAnswer> {
  try {
    const sameBody = duplicateOfBody(deps.db, batch.body.hash, today(deps.clock).toString())
    if (sameBody) return { ...sameBody, simulacion: true }
    const read = await readBatch(deps, batch.body)
    return rolledBack(deps.db, (): SimulatedAnswer => {
      // Inside the rolled-back transaction too: step 6 may record an earlier batch's content hash.
      const checked = checkAgainstStored(deps, read)
      if ('duplicate' in checked) return { ...checked.duplicate, simulacion: true }
      const receivedAt = toStoredInstant(deps.clock.now())
      const outcome = applyRecorded(
        deps,
        checked,
        batch.uuid,
        recordBatch(deps, checked, batch, receivedAt),
        receivedAt,
        [],
      )
      return { ...answerOf(batch.uuid, checked, outcome), batch_uuid: null, simulacion: true }
    })
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== 'INVALID_INPUT') throw error
    const details: Record<string, unknown> = { ...error.details, simulacion: true }
    if (details.batch_uuid === batch.uuid) details.batch_uuid = null
    throw new DomainError(error.code, error.message, details, error.headers)
  }
}

/** A batch that also passed steps 5 and 6, not yet recorded. */
interface CheckedBatch extends ReadBatch {
  /** Nothing was written since the work ahead began: its re-issue candidates are the stored ones. */
  aheadStillValid: boolean
  existing: Map<string, ExistingManifest>
  numbersHash: string
  contentHash: string | null
}

/**
 * Steps 5 and 6, which read the stored manifests and batches (run with no await before the
 * commit of step 8).
 * @returns the duplicate answer, or the batch to record and apply.
 * @throws DomainError INVALID_INPUT (422) with the body of a rejection of step 5.
 */
function checkAgainstStored(deps: IntakeDeps, read: ReadBatch): { duplicate: BatchDuplicate } | CheckedBatch {
  const { db, clock } = deps
  const { manifests, invoices, todayDate } = read
  const aheadStillValid = changesSoFar(db) === read.ahead.changes

  // Step 5: existing manifests created on an earlier day accept no invoices.
  const existing = new Map<string, ExistingManifest>()
  for (const row of findManifestsByNumbers(db, [...manifests.keys()])) existing.set(row.numero, row)
  const old = new Map<string, string>()
  for (const [numero, manifest] of existing) {
    const createdOn = localDateOf(clock, manifest.created_at)
    if (createdOn.isBefore(todayDate)) old.set(numero, createdOn.toString())
  }
  if (old.size > 0) {
    const answer = answers.oldManifests(
      manifests,
      old,
      todayDate.toString(),
      invoices.length,
      deps.contract.intake.validManifests,
    )
    throw invalidInput(answer.message, answer.details)
  }

  // Step 6: the same content (in other bytes) already processed today is answered from its record.
  const content = duplicateOfContent(db, deps.log, read.batch, invoices, todayDate.toString(), read.ahead.contentHashes)
  if (content.duplicate) return { duplicate: content.duplicate }
  return { ...read, aheadStillValid, existing, numbersHash: content.numbersHash, contentHash: content.contentHash }
}

/** Step 7's batch record (`received`). @returns its id. */
function recordBatch(deps: IntakeDeps, checked: CheckedBatch, batch: Received, receivedAt: string): number {
  const batchId = insertReceivedBatch(deps.db, {
    uuid: batch.uuid,
    receivedAt,
    receivedDate: checked.todayDate.toString(),
    bodyHash: checked.body.hash,
    bodyBytes: checked.body.bytes.length,
    numbersHash: checked.numbersHash,
    contentHash: checked.contentHash,
    clientIp: batch.clientIp,
    keyFingerprint: batch.keyFingerprint,
    invoiceCount: checked.invoices.length,
  })
  if (batchId === null) {
    // Only reachable if a batch with these bytes is still `received` (never in one process).
    throw new DomainError(
      'UNAVAILABLE',
      'Un lote idéntico se está procesando en este momento; reenvíe en unos segundos.',
    )
  }
  return batchId
}

/**
 * Step 8, the batch's body (its compressed chunks) and its summary; the caller runs it inside a
 * transaction (kept, or rolled back).
 */
function applyRecorded(
  deps: IntakeDeps,
  checked: CheckedBatch,
  batchUuid: string,
  batchId: number,
  at: string,
  chunks: readonly Buffer[],
): ApplyOutcome {
  const { db, clock, config } = deps
  insertBodyChunks(db, batchId, chunks)
  const result = applyBatch(
    {
      db,
      batchId,
      batchUuid,
      at,
      warehouses: new Set(config.warehouses),
      autoUpdateFields: new Set(config.intake.autoUpdateFields),
      dates: checked.dates,
      comparisons: checked.ahead.comparisons,
      reissueCandidates: checked.aheadStillValid ? checked.ahead.reissueCandidates : null,
      originalPlace: (invoice) => checked.body.placeOf(invoice.position - 1),
      returnsDeadline:
        lastDayOfWindow(
          checked.todayDate,
          config.returns.windowBusinessDays,
          holidaysOf(config.returns.holidays),
        )?.toString() ?? null,
      reissue: config.intake.reissue,
      contract: deps.contract.intake,
    },
    checked.manifests,
    checked.existing,
    checked.invoices.length,
  )
  const finishedAt = toStoredInstant(clock.now())
  if (result.storedNothing) {
    // Nothing of it was stored (v2: all or nothing), so it claims nothing: the identical body sent again is processed again.
    const reasons = [...new Set(result.rejected.map((entry) => entry.motivo))].join(', ')
    markBatchRejectedWhole(
      db,
      batchId,
      JSON.stringify(result.resumen),
      `Lote rechazado completo (todo o nada, contrato v2): ${reasons}`,
      finishedAt,
    )
  } else {
    markBatchProcessed(db, batchId, JSON.stringify(result.resumen), result.rejected.length > 0 ? 422 : 200, finishedAt)
  }
  return result
}

/** The 200 of a processed batch. @throws DomainError INVALID_INPUT (422) when step 8 rejected manifests. */
function answerOf(batchUuid: string, checked: CheckedBatch, outcome: ApplyOutcome) {
  const numbers = [...checked.manifests.keys()]
  if (outcome.rejected.length > 0) {
    const answer = answers.manifestsRejected(batchUuid, numbers, outcome)
    throw invalidInput(answer.message, answer.details)
  }
  return answers.processed(batchUuid, numbers, outcome)
}

/**
 * One notice per batch with possible re-issues (after the commit: never inside the transaction),
 * logged and sent to the alert webhook.
 */
function reportReissues(deps: IntakeDeps, batchUuid: string, reissues: ApplyOutcome['reissues']): void {
  const total = reissues.reduce((sum, entry) => sum + entry.cantidad, 0)
  const manifests = reissues.map(
    (entry) =>
      `${entry.manifiesto}: ${entry.cantidad} (${entry.rechazado ? 'manifiesto rechazado' : 'insertadas y marcadas'})`,
  )
  const message =
    `Lote ${batchUuid}: ${total} posible(s) re-emisión(es) de facturas ya registradas — ${manifests.join('; ')}. ` +
    'Revíselas en GET /api/v1/operador/reemisiones?estado=pending.'
  const context = { batch_uuid: batchUuid, manifiestos: reissues }
  deps.log.warn(context, 'posibles re-emisiones en el lote')
  deps.alerter.notice('reemisiones', message, context)
}

/** A batch that failed in step 8 keeps its body for support; a failure here loses only that. */
function keepBodyOfFailedBatch(deps: IntakeDeps, batchId: number, batchUuid: string, chunks: readonly Buffer[]): void {
  try {
    transaction(deps.db, () => insertBodyChunks(deps.db, batchId, chunks))
  } catch (error) {
    deps.log.error({ err: error, batch_uuid: batchUuid }, 'no se pudo guardar el cuerpo original del lote')
  }
}
