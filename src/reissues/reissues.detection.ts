import { LocalDate } from '@js-joda/core'
import type { Database } from '../db/database.ts'
import type { ReceivedInvoice } from '../intake/intake.structure.ts'
import { findInvoicesByFingerprints, type FingerprintMatch } from '../invoices/invoices.store.ts'

/**
 * Possible re-issues (issue 16): a new invoice whose fingerprint — customer, products and units,
 * total — matches a stored invoice of another manifest dated at most `windowDays` days from it.
 * The supplier re-issues the same economic invoice under a new number in a new manifest, usually
 * a day later; a legitimate repeat order (the same weekly basket) comes 5–7 days apart.
 */

/** Stored invoices by fingerprint: what the new invoices of one batch could repeat. */
export type ReissueCandidates = ReadonlyMap<string, readonly FingerprintMatch[]>

export interface PossibleReissue {
  invoice: ReceivedInvoice
  /** The stored invoice it repeats: the closest in date, then the first stored. */
  original: FingerprintMatch
  daysApart: number
}

export const NO_CANDIDATES: ReissueCandidates = new Map()

/**
 * The stored invoices (not annulled) that share a fingerprint with `invoices` and are dated
 * within reach of them: one query for the whole batch. Invoices of the same batch are not
 * compared with each other; only what was stored before it.
 */
export function findReissueCandidates(db: Database, invoices: ReadonlyArray<{ fingerprint: string; date: LocalDate }>, windowDays: number): ReissueCandidates {
  if (invoices.length === 0) return NO_CANDIDATES
  let earliest = invoices[0]!.date
  let latest = earliest
  for (const { date } of invoices) {
    if (date.isBefore(earliest)) earliest = date
    if (date.isAfter(latest)) latest = date
  }
  const fingerprints = [...new Set(invoices.map((invoice) => invoice.fingerprint))]
  const byFingerprint = new Map<string, FingerprintMatch[]>()
  for (const match of findInvoicesByFingerprints(db, fingerprints, earliest.minusDays(windowDays).toString(), latest.plusDays(windowDays).toString())) {
    const list = byFingerprint.get(match.fingerprint)
    if (list) list.push(match)
    else byFingerprint.set(match.fingerprint, [match])
  }
  return byFingerprint
}

/** The new invoices of manifest `numero` that repeat a stored invoice of another manifest. */
export function findPossibleReissues(
  candidates: ReissueCandidates,
  numero: string,
  newInvoices: readonly ReceivedInvoice[],
  dates: ReadonlyMap<ReceivedInvoice, LocalDate | null>,
  windowDays: number,
): PossibleReissue[] {
  const found: PossibleReissue[] = []
  for (const invoice of newInvoices) {
    const stored = candidates.get(invoice.fingerprint)
    if (stored === undefined) continue
    const day = dates.get(invoice)!.toEpochDay()
    let best: PossibleReissue | null = null
    for (const original of stored) {
      if (original.manifest_numero === numero) continue
      const daysApart = Math.abs(day - LocalDate.parse(original.fecha_factura).toEpochDay())
      if (daysApart > windowDays) continue
      if (best === null || daysApart < best.daysApart || (daysApart === best.daysApart && original.id < best.original.id)) best = { invoice, original, daysApart }
    }
    if (best !== null) found.push(best)
  }
  return found
}
