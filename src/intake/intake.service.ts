import type { LocalDate } from '@js-joda/core'
import type { Logger } from 'pino'
import { localDateOf, today, toStoredInstant, type Clock } from '../core/clock.ts'
import type { Config } from '../config/config.ts'
import type { ClientContract } from '../config/contract.ts'
import { changesSoFar, rolledBack, transaction, type Database } from '../db/database.ts'
import { DomainError, invalidInput } from '../core/errors.ts'
import { chunkRanges, insertBodyChunks } from '../batches/body-chunks.ts'
import { bodyCompressor, type Compression } from '../batches/body-compressor.ts'
import { insertReceivedBatch, markBatchFailed, markBatchProcessed, markBatchRejectedWhole } from '../batches/batches.store.ts'
import type { Alerter } from '../alerts/alerter.ts'
import { applyBatch, type ApplyOutcome } from './intake.apply.ts'
import * as answers from './intake.answers.ts'
import { checkManifestDates, invoiceDates, type ManifestDateVerdict } from './intake.dates.ts'
import { findManifestsByNumbers, type ExistingManifest } from '../manifests/manifests.store.ts'
import type { BatchDuplicate, SimulatedDuplicate, SimulatedProcessed } from './intake.schemas.ts'
import { checkBatchBytes, parseBatchBody } from './intake.body.ts'
import type { ReceivedInvoice } from '../invoices/received-invoice.ts'
import { checkStructure } from './intake.structure.ts'
import { placeOf, scanBody, type BodyLayout } from './body-layout.ts'
import { contentHashesAhead, duplicateOfBody, duplicateOfContent, type ContentHashes } from './intake.duplicates.ts'
import { compareAhead, NO_COMPARISONS, type Comparisons } from './intake.compare.ts'
import { findInvoicesByNumbers } from '../invoices/invoices.store.ts'
import { findReissueCandidatesInSlices, NO_CANDIDATES, type ReissueCandidates } from '../reissues/reissues.detection.ts'
import { TimeSlices } from '../core/time-slices.ts'
import { holidaysOf, lastDayOfWindow } from '../returns/window.ts'

export interface IntakeDeps {
  db: Database
  clock: Clock
  config: Config
  /** What the supplier's system expects (`clientContract`): all or nothing, existing invoices, labels. */
  contract: ClientContract
  log: Logger
  /** Called when stored invoices changed in place (the returns listing shows their data). */
  onInvoicesChanged: () => void
  /** The webhook's notices: one per batch with possible re-issues. */
  alerter: Pick<Alerter, 'notice'>
}

export interface IncomingBatch {
  uuid: string
  body: Buffer
  /** sha256 of the body, computed while it arrived. */
  bodyHash: string
  clientIp: string
  keyFingerprint: string
}

export type BatchAnswer = ReturnType<typeof answers.processed> | ReturnType<typeof answers.duplicate>

/**
 * The intake pipeline of interface-v1 §4.1, steps 2–8. An identical body processed today is
 * answered before parsing (step 6 on the bytes). While steps 2–4 run, the body's chunks (the
 * invoices' originals) compress in a worker thread; after waiting for them, steps 5–8 run to the
 * commit without another await, so two identical batches arriving together are processed one
 * after the other and the second finds the first (duplicate answer).
 * @returns the 200 answer (processed, or duplicate of today's identical batch).
 * @throws DomainError INVALID_INPUT (422) with the body of each rejection of steps 2–5 and 8.
 */
export async function receiveBatch(deps: IntakeDeps, incoming: IncomingBatch): Promise<BatchAnswer> {
  const { db, clock } = deps
  const sameBody = duplicateOfBody(db, incoming.bodyHash, today(clock).toString())
  if (sameBody) return sameBody

  const read = await readBatch(deps, incoming, { compress: true })
  const chunks = await read.compression!.chunks
  // A turn of the event loop before steps 5–8 hold the process until the commit: chunks ready
  // before steps 2–4 ended make the await above resolve without letting a ping or a console page in.
  await new Promise((resolve) => setImmediate(resolve))
  // The same bytes may have been processed while this batch waited for its chunks.
  const processedMeanwhile = duplicateOfBody(db, incoming.bodyHash, today(clock).toString())
  if (processedMeanwhile) return processedMeanwhile
  const checked = checkAgainstStored(deps, read)
  if ('duplicate' in checked) return checked.duplicate

  // Step 7: the batch is recorded.
  const receivedAt = toStoredInstant(clock.now())
  const batchId = recordBatch(deps, checked, incoming, receivedAt)

  // Step 8: every manifest, the batch's body and its summary in one transaction.
  let outcome
  try {
    outcome = transaction(db, () => applyRecorded(deps, checked, incoming.uuid, batchId, receivedAt, chunks))
  } catch (error) {
    markBatchFailed(db, batchId, error instanceof Error ? error.message : String(error), toStoredInstant(clock.now()))
    keepBodyOfFailedBatch(deps, batchId, incoming.uuid, chunks)
    throw error
  }

  if (outcome.resumen.actualizadas > 0) deps.onInvoicesChanged()
  if (outcome.reissues.length > 0) reportReissues(deps, incoming.uuid, outcome.reissues)
  return answerOf(incoming.uuid, checked, outcome)
}

export type SimulatedAnswer = SimulatedProcessed | SimulatedDuplicate

/**
 * `validar`: what `receiveBatch` would answer now, computed by the same steps, with nothing
 * stored. Steps 7 and 8 run inside one transaction that is always rolled back (so no batch
 * record, invoice, conflict, audit entry or raw body remains), and nothing is announced (no
 * re-issue notice, no cache invalidation). The answer differs from `insertar`'s only by
 * `simulacion: true` and a `batch_uuid` of null where `insertar` would create one (a duplicate
 * keeps the original's).
 * @throws DomainError INVALID_INPUT (422) with `insertar`'s body of that rejection, marked the same way.
 */
export async function simulateBatch(deps: IntakeDeps, incoming: IncomingBatch): Promise<SimulatedAnswer> {
  try {
    const sameBody = duplicateOfBody(deps.db, incoming.bodyHash, today(deps.clock).toString())
    if (sameBody) return { ...sameBody, simulacion: true }
    const read = await readBatch(deps, incoming, { compress: false })
    return rolledBack(deps.db, (): SimulatedAnswer => {
      // Inside the rolled-back transaction too: step 6 may record an earlier batch's content hash.
      const checked = checkAgainstStored(deps, read)
      if ('duplicate' in checked) return { ...checked.duplicate, simulacion: true }
      const receivedAt = toStoredInstant(deps.clock.now())
      const outcome = applyRecorded(deps, checked, incoming.uuid, recordBatch(deps, checked, incoming, receivedAt), receivedAt, [])
      return { ...answerOf(incoming.uuid, checked, outcome), batch_uuid: null, simulacion: true }
    })
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== 'INVALID_INPUT') throw error
    const details: Record<string, unknown> = { ...error.details, simulacion: true }
    if (details.batch_uuid === incoming.uuid) details.batch_uuid = null
    throw new DomainError(error.code, error.message, details, error.headers)
  }
}

/** A batch that passed steps 2–4, grouped and dated; its body's chunks compressing when asked. */
interface ReadBatch {
  /** What steps 6 and 8 compute from stored data, computed ahead of them (`workAhead`). */
  ahead: Ahead
  batch: unknown[]
  invoices: ReceivedInvoice[]
  manifests: Map<string, ReceivedInvoice[]>
  dates: ReturnType<typeof invoiceDates>
  todayDate: LocalDate
  layout: BodyLayout
  /** The body's chunks, compressing in a worker while steps 2–4 run (insertar only). */
  compression: Compression | null
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
 * Steps 2–4, which read nothing stored: parse, structure, dates; then the work of steps 6 and 8
 * that only reads stored data (`workAhead`). All of it in slices with the event loop let in
 * between. With `compress`, the body's chunks compress in a worker meanwhile, from the start: the
 * chunks are fixed slices of the bytes, and on the first batch of a fresh service the worker,
 * still starting, would otherwise finish after these steps. A body refused here cancels its
 * compression.
 * @throws DomainError INVALID_INPUT (422) with the body of each rejection of steps 2–4.
 */
async function readBatch(deps: IntakeDeps, incoming: IncomingBatch, options: { compress: boolean }): Promise<ReadBatch> {
  const { body } = incoming
  const compression = options.compress ? bodyCompressor.compress(body, chunkRanges(body.length)) : null
  try {
    const slices = new TimeSlices()
    const read = await readSteps(deps, body, slices)
    return { ...read, ahead: await workAhead(deps, read, slices), compression }
  } catch (error) {
    compression?.cancel()
    throw error
  }
}

/**
 * Steps 2–4 themselves, for `readBatch`: the body's parse and each invoice's checks in slices of
 * a few tens of milliseconds, with the event loop let in between (contract §9).
 */
async function readSteps(deps: IntakeDeps, body: Buffer, slices: TimeSlices): Promise<Omit<ReadBatch, 'compression' | 'ahead'>> {
  const { clock, config } = deps

  // Step 2: a non-empty JSON array.
  const scan = await scanBody(body, { slices })
  checkBatchBytes(body, scan)
  if (slices.due()) await slices.next()
  const batch = await parseBatchBody(body, scan, slices)

  // Step 3: structure.
  const structure = await checkStructure(batch, { maxDepth: scan.maxDepth, mayHoldLoneSurrogate: scan.mayHoldLoneSurrogate, longestStringBytes: scan.longestStringBytes }, slices)
  if (!structure.ok) {
    const answer = answers.structureInvalid(structure.errors, structure.total, structure.complete)
    throw invalidInput(answer.message, answer.details)
  }
  const invoices = structure.invoices
  const { layout } = scan
  if (layout === null || layout.count !== invoices.length) throw new Error(`el cuerpo tiene ${layout?.count} objetos y ${invoices.length} facturas`)
  const manifests = groupByManifest(invoices)
  const todayDate = today(clock)
  if (slices.due()) await slices.next()

  // Step 4: dates, atomic per manifest; any rejection rejects the batch.
  const dates = invoiceDates(invoices, clock.zone)
  const rules = { today: todayDate, maxAgeDays: config.dates.maxAgeDays, strictMixedDates: config.dates.strictMixedDates }
  const verdicts = new Map<string, ManifestDateVerdict>()
  for (const [numero, group] of manifests) {
    const verdict = checkManifestDates(group, dates, rules)
    if (verdict) verdicts.set(numero, verdict)
  }
  if (verdicts.size > 0) {
    const answer = answers.datesInvalid(manifests, verdicts, invoices.length, deps.contract.intake.validManifests)
    throw invalidInput(answer.message, answer.details)
  }
  return { batch, invoices, manifests, dates, todayDate, layout }
}

/**
 * What steps 6 and 8 would compute from stored data and that only reads it, computed before them,
 * in slices: steps 5–8 run to the commit without letting the event loop in, and for a batch resent
 * with changes this is most of their work (seconds for 10,000 invoices). They use each result only
 * while what it was computed from is unchanged.
 */
interface Ahead {
  /** The connection's `changesSoFar` before it was computed: unchanged at step 5, nothing it read has changed. */
  changes: number
  /** Step 6: content hashes, when an earlier batch of the day has the same invoice numbers. */
  contentHashes: ContentHashes | null
  /** Step 8: the invoices already stored in their manifest, compared with the stored versions. */
  comparisons: Comparisons
  /** Step 8: the stored look-alikes of the new invoices (src/reissues/reissues.detection.ts). */
  reissueCandidates: ReissueCandidates
}

async function workAhead(deps: IntakeDeps, read: Omit<ReadBatch, 'compression' | 'ahead'>, slices: TimeSlices): Promise<Ahead> {
  const { db, config } = deps
  const changes = changesSoFar(db)
  const contentHashes = await contentHashesAhead(db, read.batch, read.invoices, read.todayDate.toString(), slices)
  const stored = findInvoicesByNumbers(
    db,
    read.invoices.map((invoice) => invoice.nfactura),
  )
  const comparisons = deps.contract.intake.existingInvoice === 'reject' ? NO_COMPARISONS : await compareAhead(db, read.invoices, stored, slices)
  const { reissue } = config.intake
  const storedNumbers = new Set(stored.map((row) => row.nfactura))
  const newInvoices = read.invoices.filter((invoice) => !storedNumbers.has(invoice.nfactura)).map((invoice) => ({ fingerprint: invoice.fingerprint, date: read.dates.get(invoice)! }))
  const reissueCandidates = reissue.enabled ? await findReissueCandidatesInSlices(db, newInvoices, reissue.windowDays, slices) : NO_CANDIDATES
  return { changes, contentHashes, comparisons, reissueCandidates }
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
    const answer = answers.oldManifests(manifests, old, todayDate.toString(), invoices.length, deps.contract.intake.validManifests)
    throw invalidInput(answer.message, answer.details)
  }

  // Step 6: the same content (in other bytes) already processed today is answered from its record.
  const content = duplicateOfContent(db, deps.log, read.batch, invoices, todayDate.toString(), read.ahead.contentHashes)
  if (content.duplicate) return { duplicate: content.duplicate }
  return { ...read, aheadStillValid, existing, numbersHash: content.numbersHash, contentHash: content.contentHash }
}

/** Step 7's batch record (`received`). @returns its id. */
function recordBatch(deps: IntakeDeps, checked: CheckedBatch, incoming: IncomingBatch, receivedAt: string): number {
  const batchId = insertReceivedBatch(deps.db, {
    uuid: incoming.uuid,
    receivedAt,
    receivedDate: checked.todayDate.toString(),
    bodyHash: incoming.bodyHash,
    bodyBytes: incoming.body.length,
    numbersHash: checked.numbersHash,
    contentHash: checked.contentHash,
    clientIp: incoming.clientIp,
    keyFingerprint: incoming.keyFingerprint,
    invoiceCount: checked.invoices.length,
  })
  if (batchId === null) {
    // Only reachable if a batch with these bytes is still `received` (never in one process).
    throw new DomainError('UNAVAILABLE', 'Un lote idéntico se está procesando en este momento; reenvíe en unos segundos.')
  }
  return batchId
}

/**
 * Step 8, the batch's body (its compressed chunks) and its summary; the caller runs it inside a
 * transaction (kept, or rolled back).
 */
function applyRecorded(deps: IntakeDeps, checked: CheckedBatch, batchUuid: string, batchId: number, at: string, chunks: readonly Buffer[]): ApplyOutcome {
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
      originalPlace: (invoice) => placeOf(checked.layout, invoice.position - 1),
      returnsDeadline: lastDayOfWindow(checked.todayDate, config.returns.windowBusinessDays, holidaysOf(config.returns.holidays))?.toString() ?? null,
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
    markBatchRejectedWhole(db, batchId, JSON.stringify(result.resumen), `Lote rechazado completo (todo o nada, contrato v2): ${reasons}`, finishedAt)
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

/** Manifests in order of first appearance, each with its invoices in batch order. */
function groupByManifest(invoices: readonly ReceivedInvoice[]): Map<string, ReceivedInvoice[]> {
  const manifests = new Map<string, ReceivedInvoice[]>()
  for (const invoice of invoices) {
    const group = manifests.get(invoice.manifiesto)
    if (group) group.push(invoice)
    else manifests.set(invoice.manifiesto, [invoice])
  }
  return manifests
}

/**
 * One notice per batch with possible re-issues (after the commit: never inside the transaction),
 * logged and sent to the alert webhook.
 */
function reportReissues(deps: IntakeDeps, batchUuid: string, reissues: ApplyOutcome['reissues']): void {
  const total = reissues.reduce((sum, entry) => sum + entry.cantidad, 0)
  const manifests = reissues.map((entry) => `${entry.manifiesto}: ${entry.cantidad} (${entry.rechazado ? 'manifiesto rechazado' : 'insertadas y marcadas'})`)
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
