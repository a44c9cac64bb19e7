import { LRUCache } from 'lru-cache'
import { nowMillis, today, type Clock } from '../clock.ts'
import type { Config } from '../config.ts'

/**
 * Pages of the client's returns listing by processing date: past dates for
 * `returnsCache.pastDateMinutes`, today for `todayMinutes`. Every change that a listed date would
 * show (a return created approved, approved, cancelled; a reason edited) forgets that date (or
 * everything), so a cached page is never stale. Expiry reads the injected clock.
 */
export class ListingCache {
  private readonly pages: LRUCache<string, Buffer>

  constructor(
    private readonly settings: Config['returnsCache'],
    private readonly clock: Clock,
  ) {
    // ttlResolution 0: read the clock on every check (lru-cache otherwise reuses a reading for 1 ms).
    this.pages = new LRUCache<string, Buffer>({ max: 2000, ttlResolution: 0, perf: { now: () => nowMillis(clock) } })
  }

  /** Pages are kept as the UTF-8 bytes sent, so a cached answer is not encoded again. */
  get(date: string, page: number): Buffer | undefined {
    return this.pages.get(`${date}|${page}`)
  }

  set(date: string, page: number, json: Buffer): void {
    const minutes = date === today(this.clock).toString() ? this.settings.todayMinutes : this.settings.pastDateMinutes
    if (minutes > 0) this.pages.set(`${date}|${page}`, json, { ttl: minutes * 60_000 })
  }

  forgetDate(date: string): void {
    for (const key of [...this.pages.keys()]) if (key.startsWith(`${date}|`)) this.pages.delete(key)
  }

  forgetAll(): void {
    this.pages.clear()
  }
}
