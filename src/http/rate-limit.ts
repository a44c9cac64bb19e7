import { nowMillis, type Clock } from '../core/clock.ts'

/**
 * Endpoint groups of contract §3a, each with its own per-IP limit. Routes declare theirs; a
 * request counts in its route's group only, and a path that names no route counts as `general`.
 * `validate` (the dry run of a batch) is its own group, so trying batches never spends `insert`'s.
 */
export type RateGroup = 'insert' | 'validate' | 'returns' | 'operator' | 'general' | 'login'

export interface RateDecision {
  allowed: boolean
  limit: number
  remaining: number
  /** Whole seconds until the window admits the next request (1–60). */
  resetSeconds: number
}

const WINDOW_MS = 60_000
const SWEEP_EVERY = 1_000

/**
 * Per-IP, per-group fixed windows of one minute, opened by the first request of the IP in the
 * group. Written here rather than taken from a library because it must read the injected clock
 * (tests move time instead of sleeping); it is a few lines and lives in memory, like the service.
 */
export class RateLimiter<Group extends string = RateGroup> {
  private readonly windows = new Map<string, { start: number; count: number }>()
  private hitsSinceSweep = 0

  constructor(
    private readonly limits: Record<Group, number>,
    private readonly clock: Clock,
  ) {}

  hit(group: Group, key: string): RateDecision {
    const now = nowMillis(this.clock)
    this.sweepSometimes(now)
    const id = `${group} ${key}`
    const limit = this.limits[group]
    let window = this.windows.get(id)
    if (window === undefined || now >= window.start + WINDOW_MS) {
      window = { start: now, count: 0 }
      this.windows.set(id, window)
    }
    const allowed = window.count < limit
    if (allowed) window.count += 1
    const resetSeconds = Math.min(60, Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000)))
    return { allowed, limit, remaining: limit - window.count, resetSeconds }
  }

  /** Forgets closed windows now and then, so memory stays bounded by the active IPs. */
  private sweepSometimes(now: number): void {
    if (++this.hitsSinceSweep < SWEEP_EVERY) return
    this.hitsSinceSweep = 0
    for (const [key, window] of this.windows) {
      if (now >= window.start + WINDOW_MS) this.windows.delete(key)
    }
  }
}
