import { kindOf } from '../alerts/alerter.ts'
import { nowMillis, type Clock } from '../core/clock.ts'
import { requestScope } from '../logging/request-scope.ts'

export interface RecordedError {
  /** Epoch milliseconds. */
  at: number
  tipo: string
  mensaje: string
  metodo: string | null
  ruta: string | null
  request_id: string | null
}

const DAY_MS = 24 * 3_600_000
/** Enough to see a pattern; a flood beyond it is counted, not kept. */
const KEPT = 200

/**
 * The internal errors of the last 24 hours (since the start, when that was later), in memory: what
 * the status endpoint shows the administrator. A request's error carries the request's id, to find
 * its lines in the log.
 */
export class RecentErrors {
  private readonly entries: RecordedError[] = []
  /** Errors per minute (epoch minute → count): a flood costs at most 1,440 entries. */
  private readonly perMinute = new Map<number, number>()

  constructor(private readonly clock: Clock) {}

  record(error: unknown, context: { method?: unknown; path?: unknown } = {}): void {
    const at = nowMillis(this.clock)
    this.forgetBefore(at - DAY_MS)
    const minute = Math.floor(at / 60_000)
    this.perMinute.set(minute, (this.perMinute.get(minute) ?? 0) + 1)
    this.entries.push({
      at,
      tipo: kindOf(error),
      mensaje: error instanceof Error ? error.message : String(error),
      metodo: typeof context.method === 'string' ? context.method : null,
      ruta: typeof context.path === 'string' ? context.path : null,
      request_id: requestScope.getStore()?.requestId ?? null,
    })
    if (this.entries.length > KEPT) this.entries.shift()
  }

  /** How many in the last 24 hours, and the newest `limit` of them, newest first. */
  lastDay(limit: number): { count: number; recent: RecordedError[] } {
    this.forgetBefore(nowMillis(this.clock) - DAY_MS)
    let count = 0
    for (const perMinute of this.perMinute.values()) count += perMinute
    return { count, recent: this.entries.slice(-limit).reverse() }
  }

  private forgetBefore(cutoff: number): void {
    while (this.entries.length > 0 && this.entries[0]!.at < cutoff) this.entries.shift()
    const firstMinute = Math.floor(cutoff / 60_000)
    for (const minute of this.perMinute.keys()) if (minute < firstMinute) this.perMinute.delete(minute)
  }
}
