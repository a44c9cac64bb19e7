import type { LocalDate } from '@js-joda/core'
import type { Logger } from 'pino'
import { localDateOf, today, toStoredInstant, type Clock } from '../clock.ts'
import type { Config } from '../config.ts'
import type { ClientContract } from '../contract.ts'
import { rolledBack, transaction, type Database } from '../db/database.ts'
import { DomainError, invalidInput } from '../errors.ts'
import { compressPayload, storePayload } from '../batches/batches.service.ts'
import { findClaimingBatch, insertReceivedBatch, markBatchFailed, markBatchProcessed, markBatchRejectedWhole } from '../batches/batches.store.ts'
import type { Alerter } from '../alerts/alerter.ts'
import { applyBatch, type ApplyOutcome } from './intake.apply.ts'
import * as answers from './intake.answers.ts'
import { checkManifestDates, invoiceDates, type ManifestDateVerdict } from './intake.dates.ts'
import { findManifestsByNumbers, type ExistingManifest } from '../manifests/manifests.store.ts'
import type { BatchDuplicate, Resumen, SimulatedDuplicate, SimulatedProcessed } from './intake.schemas.ts'
import { parseBatchBody } from './intake.body.ts'
import { checkStructure, type ReceivedInvoice } from './intake.structure.ts'
import { holidaysOf, lastDayOfWindow } from '../returns/window.ts'
import type { JsonShape } from './json-shape.ts'

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
  /** What the body holds, counted while it arrived (step 2 refuses absurdly dense bodies). */
  shape: JsonShape
  clientIp: string
  keyFingerprint: string
}

export type BatchAnswer = ReturnType<typeof answers.processed> | ReturnType<typeof answers.duplicate>

/**
 * The intake pipeline of interface-v1 §4.1, steps 2–8. Everything from parsing to the commit of
 * step 8 runs without an await, so two identical batches arriving together are processed one
 * after the other and the second finds the first (duplicate answer).
 * @returns the 200 answer (processed, or duplicate of today's identical batch).
 * @throws DomainError INVALID_INPUT (422) with the body of each rejection of steps 2–5 and 8.
 */
export async function receiveBatch(deps: IntakeDeps, incoming: IncomingBatch): Promise<BatchAnswer> {
  const { db, clock } = deps
  const checked = checkBatch(deps, incoming)
  if ('duplicate' in checked) return checked.duplicate

  // Step 7: the batch is recorded; its raw body compresses in the thread pool meanwhile.
  const receivedAt = toStoredInstant(clock.now())
  const batchId = recordBatch(deps, checked, incoming, receivedAt)
  const compressed = compressPayload(incoming.body)

  // Step 8: every manifest and the batch's summary in one transaction.
  let outcome
  try {
    outcome = transaction(db, () => applyRecorded(deps, checked, incoming.uuid, batchId, receivedAt))
  } catch (error) {
    markBatchFailed(db, batchId, error instanceof Error ? error.message : String(error), toStoredInstant(clock.now()))
    throw error
  } finally {
    await keepPayload(deps, batchId, incoming, compressed)
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
export function simulateBatch(deps: IntakeDeps, incoming: IncomingBatch): SimulatedAnswer {
  try {
    const checked = checkBatch(deps, incoming)
    if ('duplicate' in checked) return { ...checked.duplicate, simulacion: true }
    const receivedAt = toStoredInstant(deps.clock.now())
    const outcome = rolledBack(deps.db, () =>
      applyRecorded(deps, checked, incoming.uuid, recordBatch(deps, checked, incoming, receivedAt), receivedAt),
    )
    return { ...answerOf(incoming.uuid, checked, outcome), batch_uuid: null, simulacion: true }
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== 'INVALID_INPUT') throw error
    const details: Record<string, unknown> = { ...error.details, simulacion: true }
    if (details.batch_uuid === incoming.uuid) details.batch_uuid = null
    throw new DomainError(error.code, error.message, details, error.headers)
  }
}

/** A batch that passed steps 2–5, grouped and dated, not yet recorded. */
interface CheckedBatch {
  invoices: ReceivedInvoice[]
  manifests: Map<string, ReceivedInvoice[]>
  existing: Map<string, ExistingManifest>
  dates: ReturnType<typeof invoiceDates>
  todayDate: LocalDate
  contentHash: string
}

/**
 * Steps 2–6: parse, structure, dates, manifests of earlier days, duplicate of today.
 * @returns the duplicate answer, or the batch to record and apply.
 * @throws DomainError INVALID_INPUT (422) with the body of each rejection of steps 2–5.
 */
function checkBatch(deps: IntakeDeps, incoming: IncomingBatch): { duplicate: BatchDuplicate } | CheckedBatch {
  const { db, clock, config } = deps

  // Step 2: a non-empty JSON array.
  const batch = parseBatchBody(incoming.body, incoming.shape)

  // Step 3: structure.
  const structure = checkStructure(batch)
  if (!structure.ok) {
    const answer = answers.structureInvalid(structure.errors, structure.total, structure.complete)
    throw invalidInput(answer.message, answer.details)
  }
  const invoices = structure.invoices
  const manifests = groupByManifest(invoices)
  const todayDate = today(clock)

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

  // Step 6: an identical batch already processed today is answered from its record.
  const contentHash = structure.batchHash
  const earlier = findClaimingBatch(db, contentHash, todayDate.toString())
  if (earlier?.estado === 'processed') return { duplicate: answers.duplicate(earlier.uuid, JSON.parse(earlier.summary!) as Resumen) }
  return { invoices, manifests, existing, dates, todayDate, contentHash }
}

/** Step 7's batch record (`received`). @returns its id. */
function recordBatch(deps: IntakeDeps, checked: CheckedBatch, incoming: IncomingBatch, receivedAt: string): number {
  const batchId = insertReceivedBatch(deps.db, {
    uuid: incoming.uuid,
    receivedAt,
    receivedDate: checked.todayDate.toString(),
    contentHash: checked.contentHash,
    clientIp: incoming.clientIp,
    keyFingerprint: incoming.keyFingerprint,
    invoiceCount: checked.invoices.length,
  })
  if (batchId === null) {
    // Only reachable if a batch of this content is still `received` (never in one process).
    throw new DomainError('UNAVAILABLE', 'Un lote idéntico se está procesando en este momento; reenvíe en unos segundos.')
  }
  return batchId
}

/** Step 8 and the batch's summary; the caller runs it inside a transaction (kept, or rolled back). */
function applyRecorded(deps: IntakeDeps, checked: CheckedBatch, batchUuid: string, batchId: number, at: string): ApplyOutcome {
  const { db, clock, config } = deps
  const result = applyBatch(
    {
      db,
      batchId,
      batchUuid,
      at,
      warehouses: new Set(config.warehouses),
      autoUpdateFields: new Set(config.intake.autoUpdateFields),
      dates: checked.dates,
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

/** Stores the raw body once compressed; a failure here loses support data, never the batch. */
async function keepPayload(deps: IntakeDeps, batchId: number, incoming: IncomingBatch, compressed: Promise<Buffer>): Promise<void> {
  try {
    storePayload(deps, batchId, incoming.body, await compressed)
  } catch (error) {
    deps.log.error({ err: error, batch_uuid: incoming.uuid }, 'no se pudo guardar el cuerpo original del lote')
  }
}
