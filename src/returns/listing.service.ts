import type { Database } from '../db/database.ts'
import type { ListingCache } from './listing.cache.ts'
import { serializeListing } from './listing.serializer.ts'
import { findApprovedReturnsProcessedOn } from './returns.store.ts'

export const PAGE_SIZE = 1000

/**
 * The approved (not cancelled) returns processed on a date (`YYYY-MM-DD`, the `Fecha` header
 * decoded), ordered by id, 1000 per page, as the UTF-8 bytes of the JSON text of interface-v1
 * §2.3 — from the cache when it has it.
 */
export function listProcessedReturns(deps: { db: Database; listing: ListingCache }, date: string, page: number): Buffer {
  const cached = deps.listing.get(date, page)
  if (cached !== undefined) return cached
  const rows = findApprovedReturnsProcessedOn(deps.db, date, (page - 1) * PAGE_SIZE, PAGE_SIZE)
  const json = Buffer.from(serializeListing(rows), 'utf8')
  deps.listing.set(date, page, json)
  return json
}
