import { LRUCache } from 'lru-cache'
import { nowMillis, today, type Clock } from '../core/clock.ts'
import type { Config } from '../config/config.ts'
import type { ClientContract } from '../config/contract.ts'

/** The days a page of the client's listing covers (`YYYY-MM-DD`, inclusive) and its number. */
export interface ListingPageKey {
  from: string
  to: string
  page: number
}

/**
 * Pages of the client's returns listing by day range: a range that reaches today for
 * `returnsCache.todayMinutes`, one wholly past for `pastDateMinutes`. Every change that a listed
 * day would show (a return created approved, approved, cancelled; a reason edited) forgets every
 * cached range holding that day (or everything), so a cached page is never stale; under v2 a page
 * also never outlives the next window close that would add a package to it. (A package that was
 * not waiting when a page was cached had no approved return in the page's days yet: its first
 * approval forgets the page.) Expiry reads the injected clock.
 */
export class ListingCache {
  private readonly pages: LRUCache<string, Buffer>

  constructor(
    private readonly settings: Config['returnsCache'],
    private readonly clock: Clock,
    private readonly contract: ClientContract,
  ) {
    // ttlResolution 0: read the clock on every check (lru-cache otherwise reuses a reading for 1 ms).
    this.pages = new LRUCache<string, Buffer>({ max: 2000, ttlResolution: 0, perf: { now: () => nowMillis(clock) } })
  }

  /** Pages are kept as the UTF-8 bytes sent, so a cached answer is not encoded again. */
  get(key: ListingPageKey): Buffer | undefined {
    return this.pages.get(keyOf(key))
  }

  /**
   * Keeps a page for its range's time, but never past `notAfter` (epoch milliseconds: the first
   * instant its answer would change by itself, a window close under v2).
   */
  set(key: ListingPageKey, json: Buffer, notAfter?: number): void {
    const minutes = key.to >= today(this.clock).toString() ? this.settings.todayMinutes : this.settings.pastDateMinutes
    let ttl = minutes * 60_000
    // lru-cache treats an entry as stale only once more than `ttl` ms passed: the page must be gone AT notAfter.
    if (notAfter !== undefined) ttl = Math.min(ttl, notAfter - nowMillis(this.clock) - 1)
    if (ttl >= 1) this.pages.set(keyOf(key), json, { ttl })
  }

  /**
   * A return changed (created approved, approved, cancelled): forgets every range holding the
   * day the listing files it under — its processing day (v1) or its invoice's issue day (v2).
   */
  forgetReturn(days: { processedDate: string | null; issueDate: string }): void {
    const day = this.contract.listing.filterBy === 'issued' ? days.issueDate : days.processedDate
    if (day !== null) this.forgetDay(day)
  }

  /** Forgets every cached range that holds `day`. */
  forgetDay(day: string): void {
    for (const key of [...this.pages.keys()]) {
      const [from, to] = key.split('|')
      if (from! <= day && day <= to!) this.pages.delete(key)
    }
  }

  forgetAll(): void {
    this.pages.clear()
  }
}

function keyOf({ from, to, page }: ListingPageKey): string {
  return `${from}|${to}|${page}`
}
