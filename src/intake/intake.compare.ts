import type { ChunkCache } from '../batches/body-chunks.ts'
import type { Database } from '../db/database.ts'
import { findInvoiceOriginal, type ExistingInvoice } from '../invoices/invoices.store.ts'
import { canonicalJson } from '../invoices/canonical-json.ts'
import { normalize, type ReceivedInvoice } from '../invoices/received-invoice.ts'
import type { TimeSlices } from '../core/time-slices.ts'

/**
 * Step 8's comparison of an invoice received under a number already stored in the same manifest
 * with the stored version. It only reads, and for a resent batch of 10,000 invoices it takes
 * about a second (each stored original decompressed, parsed and written again): so it is made
 * ahead of step 8, in slices (`compareAhead`), and step 8 uses a comparison while the invoice's
 * revision is still the one it was made against (a version replaced meanwhile is compared again).
 */

/** How a received invoice compares with the stored version. */
export type StoredVerdict =
  { same: true } | { same: false; changed: string[]; existingOriginal: string; incomingOriginal: string }

/** A verdict, and the revision of the stored version it was made against. */
export interface Comparison {
  revision: number
  verdict: StoredVerdict
}

/** Comparisons by stored invoice id. */
export type Comparisons = ReadonlyMap<number, Comparison>

export const NO_COMPARISONS: Comparisons = new Map()

const SAME: StoredVerdict = { same: true }

/**
 * The received version against the stored one: the same (the same JSON, or the same content once
 * normalised), or the top-level fields that differ.
 */
export function compareWithStoredVersion(
  db: Database,
  invoice: ReceivedInvoice,
  storedId: number,
  cache: ChunkCache,
): StoredVerdict {
  const existingOriginal = findInvoiceOriginal(db, storedId, cache)
  const incomingOriginal = JSON.stringify(invoice.raw)
  if (incomingOriginal === existingOriginal) return SAME
  const changed = changedFields(JSON.parse(existingOriginal) as Record<string, unknown>, invoice.raw)
  return changed.length === 0 ? SAME : { same: false, changed, existingOriginal, incomingOriginal }
}

/**
 * Each received invoice already stored under its number (`stored`: `findInvoicesByNumbers`) in
 * the same manifest, compared with the stored version, with the event loop let in between.
 */
export async function compareAhead(
  db: Database,
  invoices: readonly ReceivedInvoice[],
  stored: readonly ExistingInvoice[],
  slices: TimeSlices,
): Promise<Comparisons> {
  if (stored.length === 0) return NO_COMPARISONS
  const byNumber = new Map(stored.map((row) => [row.nfactura, row]))
  const comparisons = new Map<number, Comparison>()
  const cache: ChunkCache = new Map()
  for (const invoice of invoices) {
    const row = byNumber.get(invoice.nfactura)
    if (row === undefined || row.manifest_numero !== invoice.manifiesto) continue
    comparisons.set(row.id, { revision: row.revision, verdict: compareWithStoredVersion(db, invoice, row.id, cache) })
    if (slices.due()) await slices.next()
  }
  return comparisons
}

/**
 * Top-level fields whose normalised values differ, in the incoming invoice's key order and then
 * the fields only the existing version had; any line difference is `LineasFactura`.
 */
export function changedFields(existingRaw: Record<string, unknown>, incomingRaw: Record<string, unknown>): string[] {
  const existing = normalize(existingRaw)
  const incoming = normalize(incomingRaw)
  const keys = [...new Set([...Object.keys(incoming), ...Object.keys(existing)])]
  return keys.filter((key) => {
    const before = Object.hasOwn(existing, key) ? canonicalJson(existing[key]) : undefined
    const after = Object.hasOwn(incoming, key) ? canonicalJson(incoming[key]) : undefined
    return before !== after
  })
}
