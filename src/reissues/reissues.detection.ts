import type { LocalDate } from '@js-joda/core'
import { epochDayOfStored } from '../core/calendar.ts'
import type { Database } from '../db/database.ts'
import type { ReceivedInvoice } from '../invoices/received-invoice.ts'
import type { TimeSlices } from '../core/time-slices.ts'
import { findLookalikeDays, type LookalikeDay } from '../invoices/invoices.store.ts'

/**
 * Possible re-issues (issue 16): a new invoice whose fingerprint — customer, products and units,
 * total — matches a stored invoice of another manifest dated at most `windowDays` days from it.
 * The supplier re-issues the same economic invoice under a new number in a new manifest, usually
 * a day later; a legitimate repeat order (the same weekly basket) comes 5–7 days apart.
 */

/** Stored look-alikes by fingerprint, then by invoice date (epoch day): see `LookalikeDay`. */
export type ReissueCandidates = ReadonlyMap<string, ReadonlyMap<number, LookalikeDay>>

export interface PossibleReissue {
  invoice: ReceivedInvoice
  /** The stored invoice it repeats: the closest in date, then the first stored. */
  originalId: number
  daysApart: number
}

export const NO_CANDIDATES: ReissueCandidates = new Map()

type Dated = { fingerprint: string; date: LocalDate }

/**
 * The stored invoices (not annulled) that share a fingerprint with `invoices` and are dated
 * within reach of them: one query for the whole batch, one row per fingerprint and day whatever
 * is stored. Invoices of the same batch are not compared with each other; only what was stored
 * before it.
 */
export function findReissueCandidates(db: Database, invoices: readonly Dated[], windowDays: number): ReissueCandidates {
  const candidates = new Map<string, Map<number, LookalikeDay>>()
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
  invoices: readonly Dated[],
  windowDays: number,
  slices: TimeSlices,
): Promise<ReissueCandidates> {
  const byFingerprint = new Map<string, Dated[]>()
  for (const invoice of invoices) {
    const same = byFingerprint.get(invoice.fingerprint)
    if (same) same.push(invoice)
    else byFingerprint.set(invoice.fingerprint, [invoice])
  }
  const groups = [...byFingerprint.values()]
  const candidates = new Map<string, Map<number, LookalikeDay>>()
  for (let from = 0; from < groups.length; from += FINGERPRINTS_PER_QUERY) {
    addCandidates(db, candidates, groups.slice(from, from + FINGERPRINTS_PER_QUERY).flat(), windowDays)
    if (slices.due()) await slices.next()
  }
  return candidates
}

/** ~10 ms of the query with ten stored look-alikes of each fingerprint. */
const FINGERPRINTS_PER_QUERY = 2000

function addCandidates(
  db: Database,
  candidates: Map<string, Map<number, LookalikeDay>>,
  invoices: readonly Dated[],
  windowDays: number,
): void {
  if (invoices.length === 0) return
  let earliest = invoices[0]!.date
  let latest = earliest
  for (const { date } of invoices) {
    if (date.isBefore(earliest)) earliest = date
    if (date.isAfter(latest)) latest = date
  }
  const fingerprints = [...new Set(invoices.map((invoice) => invoice.fingerprint))]
  for (const day of findLookalikeDays(
    db,
    fingerprints,
    earliest.minusDays(windowDays).toString(),
    latest.plusDays(windowDays).toString(),
  )) {
    let byDay = candidates.get(day.fingerprint)
    if (byDay === undefined) candidates.set(day.fingerprint, (byDay = new Map()))
    byDay.set(epochDayOfStored(day.fecha_factura), day)
  }
}

/**
 * The new invoices of a manifest (`manifestId`, or null while it is not stored yet) that repeat a
 * stored invoice of another manifest. Each looks at most at 2 × (2 × windowDays + 1) stored
 * invoices: the days nearest to its own first, and on each day the lowest id outside its manifest.
 */
export function findPossibleReissues(
  candidates: ReissueCandidates,
  manifestId: number | null,
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
      const before = firstOutside(byDay.get(day - daysApart), manifestId)
      const after = daysApart === 0 ? null : firstOutside(byDay.get(day + daysApart), manifestId)
      const originalId = before === null || (after !== null && after < before) ? after : before
      if (originalId !== null) {
        found.push({ invoice, originalId, daysApart })
        break
      }
    }
  }
  return found
}

/** The lowest id of a day's look-alikes that is not in manifest `manifestId`. */
function firstOutside(day: LookalikeDay | undefined, manifestId: number | null): number | null {
  if (day === undefined) return null
  return day.first_manifest_id !== manifestId ? day.first_id : day.second_id
}
