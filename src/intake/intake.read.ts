import type { LocalDate } from '@js-joda/core'
import type { Clock } from '../core/clock.ts'
import { today } from '../core/clock.ts'
import { invalidInput } from '../core/errors.ts'
import { TimeSlices } from '../core/time-slices.ts'
import type { Config } from '../config/config.ts'
import type { ClientContract } from '../config/contract.ts'
import { changesSoFar, type Database } from '../db/database.ts'
import { findInvoicesByNumbers } from '../invoices/invoices.store.ts'
import type { ReceivedInvoice } from '../invoices/received-invoice.ts'
import { findReissueCandidatesInSlices, NO_CANDIDATES, type ReissueCandidates } from '../reissues/reissues.detection.ts'
import type { BatchBody } from './body/batch-body.ts'
import * as answers from './intake.answers.ts'
import { compareAhead, NO_COMPARISONS, type Comparisons } from './intake.compare.ts'
import { checkManifestDates, invoiceDates, type ManifestDateVerdict } from './intake.dates.ts'
import { contentHashesAhead, type ContentHashes } from './intake.duplicates.ts'
import { checkStructure } from './intake.structure.ts'

/** What reading a batch needs of the intake's dependencies. */
export interface ReadDeps {
  db: Database
  clock: Clock
  config: Config
  contract: ClientContract
}

/** A batch that passed steps 2–4, grouped and dated, with what steps 6 and 8 computed ahead. */
export interface ReadBatch extends Steps2To4 {
  body: BatchBody
  ahead: Ahead
}

interface Steps2To4 {
  batch: unknown[]
  invoices: ReceivedInvoice[]
  /** Manifests in order of first appearance, each with its invoices in batch order. */
  manifests: Map<string, ReceivedInvoice[]>
  /** FechaFactura of each invoice as the date it means (step 4 refused unreadable ones). */
  dates: Map<ReceivedInvoice, LocalDate | null>
  todayDate: LocalDate
}

/**
 * Steps 2–4, which read nothing stored (parse, structure, dates), then the work of steps 6 and 8
 * that only reads stored data (`workAhead`); all of it in slices of a few tens of milliseconds
 * with the event loop let in between (contract §9). A body refused here is discarded (its
 * compression stops).
 * @throws DomainError INVALID_INPUT (422) with the body of each rejection of steps 2–4.
 */
export async function readBatch(deps: ReadDeps, body: BatchBody): Promise<ReadBatch> {
  const slices = new TimeSlices()
  try {
    const read = await readSteps(deps, body, slices)
    return { ...read, body, ahead: await workAhead(deps, read, slices) }
  } catch (error) {
    body.discard()
    throw error
  }
}

/**
 * Steps 2–4 themselves: the body's parse and each invoice's checks in slices of
 * a few tens of milliseconds, with the event loop let in between (contract §9).
 */
async function readSteps(deps: ReadDeps, body: BatchBody, slices: TimeSlices): Promise<Steps2To4> {
  const { clock, config } = deps

  // Step 2: a non-empty JSON array.
  const { batch, hints } = await body.parse(slices)

  // Step 3: structure.
  const structure = await checkStructure(batch, hints, slices)
  if (!structure.ok) {
    const answer = answers.structureInvalid(structure.errors, structure.total, structure.complete)
    throw invalidInput(answer.message, answer.details)
  }
  const invoices = structure.invoices
  const manifests = groupByManifest(invoices)
  const todayDate = today(clock)
  if (slices.due()) await slices.next()

  // Step 4: dates, atomic per manifest; any rejection rejects the batch.
  const dates = invoiceDates(invoices, clock.zone)
  const rules = {
    today: todayDate,
    maxAgeDays: config.dates.maxAgeDays,
    strictMixedDates: config.dates.strictMixedDates,
  }
  const verdicts = new Map<string, ManifestDateVerdict>()
  for (const [numero, group] of manifests) {
    const verdict = checkManifestDates(group, dates, rules)
    if (verdict) verdicts.set(numero, verdict)
  }
  if (verdicts.size > 0) {
    const answer = answers.datesInvalid(manifests, verdicts, invoices.length, deps.contract.intake.validManifests)
    throw invalidInput(answer.message, answer.details)
  }
  return { batch, invoices, manifests, dates, todayDate }
}

/**
 * What steps 6 and 8 would compute from stored data and that only reads it, computed before them,
 * in slices: steps 5–8 run to the commit without letting the event loop in, and for a batch resent
 * with changes this is most of their work (seconds for 10,000 invoices). They use each result only
 * while what it was computed from is unchanged.
 */
export interface Ahead {
  /** The connection's `changesSoFar` before it was computed: unchanged at step 5, nothing it read has changed. */
  changes: number
  /** Step 6: content hashes, when an earlier batch of the day has the same invoice numbers. */
  contentHashes: ContentHashes | null
  /** Step 8: the invoices already stored in their manifest, compared with the stored versions. */
  comparisons: Comparisons
  /** Step 8: the stored look-alikes of the new invoices (src/reissues/reissues.detection.ts). */
  reissueCandidates: ReissueCandidates
}

async function workAhead(deps: ReadDeps, read: Steps2To4, slices: TimeSlices): Promise<Ahead> {
  const { db, config } = deps
  const changes = changesSoFar(db)
  const contentHashes = await contentHashesAhead(db, read.batch, read.invoices, read.todayDate.toString(), slices)
  const stored = findInvoicesByNumbers(
    db,
    read.invoices.map((invoice) => invoice.nfactura),
  )
  const comparisons =
    deps.contract.intake.existingInvoice === 'reject'
      ? NO_COMPARISONS
      : await compareAhead(db, read.invoices, stored, slices)
  const { reissue } = config.intake
  const storedNumbers = new Set(stored.map((row) => row.nfactura))
  const newInvoices = read.invoices
    .filter((invoice) => !storedNumbers.has(invoice.nfactura))
    .map((invoice) => ({ fingerprint: invoice.fingerprint, date: read.dates.get(invoice)! }))
  const reissueCandidates = reissue.enabled
    ? await findReissueCandidatesInSlices(db, newInvoices, reissue.windowDays, slices)
    : NO_CANDIDATES
  return { changes, contentHashes, comparisons, reissueCandidates }
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
