import { nowMillis, type Clock } from '../clock.ts'

/** Endpoint groups of contract §3a: a request counts in its own group only. */
export type RateGroup = 'insert' | 'returns' | 'operator' | 'general'

export interface RateDecision {
  allowed: boolean
  limit: number
  remaining: number
  /** Whole seconds until the window admits the next request (1–60). */
  resetSeconds: number
}

const WINDOW_MS = 60_000
const SWEEP_EVERY = 1_000

/** The group a path belongs to; unknown paths count as `general`. */
export function rateGroupOf(pathname: string): RateGroup {
  if (pathname === '/api/v1/facturas/insertar') return 'insert'
  if (pathname === '/api/v1/devoluciones/listar') return 'returns'
  if (pathname.startsWith('/api/v1/operador/')) return 'operator'
  return 'general'
}

/**
 * Per-IP, per-group fixed windows of one minute, opened by the first request of the IP in the
 * group. Written here rather than taken from a library because it must read the injected clock
 * (tests move time instead of sleeping); it is a few lines and lives in memory, like the service.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>()
  private hitsSinceSweep = 0

  constructor(
    private readonly limits: Record<RateGroup, number>,
    private readonly clock: Clock,
  ) {}

  hit(group: RateGroup, ip: string): RateDecision {
    const now = nowMillis(this.clock)
    this.sweepSometimes(now)
    const key = `${group} ${ip}`
    const limit = this.limits[group]
    let window = this.windows.get(key)
    if (window === undefined || now >= window.start + WINDOW_MS) {
      window = { start: now, count: 0 }
      this.windows.set(key, window)
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
