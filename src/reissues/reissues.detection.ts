import { LocalDate } from '@js-joda/core'
import type { Database } from '../db/database.ts'
import type { ReceivedInvoice } from '../intake/intake.structure.ts'
import { findInvoicesByFingerprints, type FingerprintMatch } from '../invoices/invoices.store.ts'
import type { TimeSlices } from '../intake/time-slices.ts'

/**
 * Possible re-issues (issue 16): a new invoice whose fingerprint — customer, products and units,
 * total — matches a stored invoice of another manifest dated at most `windowDays` days from it.
 * The supplier re-issues the same economic invoice under a new number in a new manifest, usually
 * a day later; a legitimate repeat order (the same weekly basket) comes 5–7 days apart.
 */

/**
 * Stored look-alikes by fingerprint, then by invoice date (epoch day): per day at most the two
 * lowest ids that lie in different manifests (see `findInvoicesByFingerprints`), lowest first.
 */
export type ReissueCandidates = ReadonlyMap<string, ReadonlyMap<number, readonly FingerprintMatch[]>>

export interface PossibleReissue {
  invoice: ReceivedInvoice
  /** The stored invoice it repeats: the closest in date, then the first stored. */
  original: FingerprintMatch
  daysApart: number
}

export const NO_CANDIDATES: ReissueCandidates = new Map()

/**
 * The stored invoices (not annulled) that share a fingerprint with `invoices` and are dated
 * within reach of them: one query for the whole batch, bounded by fingerprints × days × 2 rows
 * whatever is stored. Invoices of the same batch are not compared with each other; only what was
 * stored before it.
 */
export function findReissueCandidates(db: Database, invoices: ReadonlyArray<{ fingerprint: string; date: LocalDate }>, windowDays: number): ReissueCandidates {
  const candidates = new Map<string, Map<number, FingerprintMatch[]>>()
  addCandidates(db, candidates, invoices, windowDays)
  return candidates
}

/**
 * `findReissueCandidates` ahead of step 8 (src/intake/intake.service.ts), a few thousand
 * fingerprints per query with the event loop let in between: the same candidates (each
 * fingerprint's are found on their own).
 */
export async function findReissueCandidatesInSlices(
  db: Database,
  invoices: ReadonlyArray<{ fingerprint: string; date: LocalDate }>,
  windowDays: number,
  slices: TimeSlices,
): Promise<ReissueCandidates> {
  const byFingerprint = new Map<string, Array<{ fingerprint: string; date: LocalDate }>>()
  for (const invoice of invoices) {
    const same = byFingerprint.get(invoice.fingerprint)
    if (same) same.push(invoice)
    else byFingerprint.set(invoice.fingerprint, [invoice])
  }
  const groups = [...byFingerprint.values()]
  const candidates = new Map<string, Map<number, FingerprintMatch[]>>()
  for (let from = 0; from < groups.length; from += FINGERPRINTS_PER_QUERY) {
    addCandidates(db, candidates, groups.slice(from, from + FINGERPRINTS_PER_QUERY).flat(), windowDays)
    if (slices.due()) await slices.next()
  }
  return candidates
}

/** ~30 ms of the query with ten stored look-alikes of each fingerprint. */
const FINGERPRINTS_PER_QUERY = 1000

function addCandidates(db: Database, candidates: Map<string, Map<number, FingerprintMatch[]>>, invoices: ReadonlyArray<{ fingerprint: string; date: LocalDate }>, windowDays: number): void {
  if (invoices.length === 0) return
  let earliest = invoices[0]!.date
  let latest = earliest
  for (const { date } of invoices) {
    if (date.isBefore(earliest)) earliest = date
    if (date.isAfter(latest)) latest = date
  }
  const fingerprints = [...new Set(invoices.map((invoice) => invoice.fingerprint))]
  for (const match of findInvoicesByFingerprints(db, fingerprints, earliest.minusDays(windowDays).toString(), latest.plusDays(windowDays).toString())) {
    let byDay = candidates.get(match.fingerprint)
    if (byDay === undefined) candidates.set(match.fingerprint, (byDay = new Map()))
    const day = LocalDate.parse(match.fecha_factura).toEpochDay()
    const list = byDay.get(day)
    if (list) list.push(match)
    else byDay.set(day, [match])
  }
  for (const fingerprint of fingerprints) for (const list of candidates.get(fingerprint)?.values() ?? []) list.sort((a, b) => a.id - b.id)
}

/**
 * The new invoices of manifest `numero` that repeat a stored invoice of another manifest. Each
 * looks at most at 2 × (2 × windowDays + 1) stored invoices: the days nearest to its own first,
 * and on each day the lowest id outside its manifest.
 */
export function findPossibleReissues(
  candidates: ReissueCandidates,
  numero: string,
  newInvoices: readonly ReceivedInvoice[],
  dates: ReadonlyMap<ReceivedInvoice, LocalDate | null>,
  windowDays: number,
): PossibleReissue[] {
  const found: PossibleReissue[] = []
  for (const invoice of newInvoices) {
    const byDay = candidates.get(invoice.fingerprint)
    if (byDay === undefined) continue
    const day = dates.get(invoice)!.toEpochDay()
    for (let daysApart = 0; daysApart <= windowDays; daysApart++) {
      const before = firstOutside(byDay.get(day - daysApart), numero)
      const after = daysApart === 0 ? undefined : firstOutside(byDay.get(day + daysApart), numero)
      const original = before === undefined || (after !== undefined && after.id < before.id) ? after : before
      if (original !== undefined) {
        found.push({ invoice, original, daysApart })
        break
      }
    }
  }
  return found
}

/** The lowest-id invoice of a day's look-alikes that is not in manifest `numero`. */
function firstOutside(matches: readonly FingerprintMatch[] | undefined, numero: string): FingerprintMatch | undefined {
  return matches?.find((match) => match.manifest_numero !== numero)
}
