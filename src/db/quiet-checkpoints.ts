import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Database } from './database.ts'

/**
 * SQLite's own checkpoint, as the safety net: it runs inside the commit that grows the WAL past
 * this many pages. Above any one batch (a 128 MB body writes ~15,000 pages of 4 KiB), so it only
 * runs when the copies below cannot keep up: the WAL stays within about these pages plus one
 * batch, unless another process holds an old snapshot open.
 */
export const SAFETY_NET_PAGES = 25_000

/** How long the service must be quiet (no request in flight or arriving) before the WAL is copied. */
export const QUIET_MS = 1_000

/** How long a copy may wait for a quiet moment: past this, it runs as soon as no request is in flight. */
export const MAX_WAIT_MS = 10_000

export interface Timers {
  set: (run: () => void, ms: number) => unknown
  clear: (timer: unknown) => void
  /** Milliseconds on a monotonic clock. */
  now: () => number
}

const nodeTimers: Timers = {
  set: (run, ms) => setTimeout(run, ms).unref(),
  clear: (timer) => clearTimeout(timer as NodeJS.Timeout),
  now: () => performance.now(),
}

/**
 * WAL checkpoints out of the answers' way. By default SQLite copies the WAL into the database
 * file inside the commit that grows it past 1,000 pages, so a 10,000-invoice batch (~6,000
 * pages) would wait for that copy and its fsync before its answer. The service instead copies it
 * once it has been quiet for `QUIET_MS` (no request in flight, none arriving), so the copy does
 * not hold up the next request either (a client that resends or sends its next batch at once).
 * A client polling all the time cannot keep it off: after `MAX_WAIT_MS` it runs as soon as no
 * request is in flight. The commit is what it was: with synchronous=FULL the WAL is on disk
 * before the answer, and a crash before the copy replays it at the next open. PASSIVE never
 * waits for a reader (a backup, a command in another process); what it could not copy is tried
 * again later. A failure is reported, and tried again after the next request.
 * Constructing it raises the database's `wal_autocheckpoint` to `SAFETY_NET_PAGES`.
 */
export class QuietCheckpoints {
  private inFlight = 0
  private timer: unknown = null
  /** Since when a copy has been waiting for a quiet moment; null when none is due. */
  private dueSince: number | null = null
  private stopped = false

  constructor(
    private readonly db: Database,
    private readonly onError: (error: unknown) => void,
    private readonly timers: Timers = nodeTimers,
  ) {
    db.sqlite.pragma(`wal_autocheckpoint = ${SAFETY_NET_PAGES}`)
  }

  /**
   * Counts the request as in flight until its answer is done or either side of it closes: a
   * response queued behind another on a connection that drops never emits its own 'close'.
   */
  track(request: IncomingMessage, response: ServerResponse): void {
    this.inFlight += 1
    this.cancel()
    let ended = false
    const end = () => {
      if (ended) return
      ended = true
      this.inFlight -= 1
      if (this.inFlight === 0) this.soon()
    }
    response.once('close', end)
    request.once('close', end)
  }

  /** A copy is due (after a request, or at start for what the migrations wrote): at the next quiet moment. */
  soon(): void {
    if (this.stopped) return
    const now = this.timers.now()
    this.dueSince ??= now
    this.cancel()
    this.timer = this.timers.set(() => this.checkpoint(), now - this.dueSince >= MAX_WAIT_MS ? 0 : QUIET_MS)
  }

  stop(): void {
    this.stopped = true
    this.cancel()
  }

  private checkpoint(): void {
    this.timer = null
    // A request in flight: its end calls `soon` again.
    if (this.inFlight > 0 || this.stopped || !this.db.sqlite.open) return
    this.dueSince = null
    try {
      const [result] = this.db.sqlite.pragma('wal_checkpoint(PASSIVE)') as Array<{
        busy: number
        log: number
        checkpointed: number
      }>
      if (result !== undefined && result.checkpointed < result.log) this.soon()
    } catch (error) {
      // Reported once; the next request's end tries again.
      this.onError(error)
    }
  }

  private cancel(): void {
    if (this.timer === null) return
    this.timers.clear(this.timer)
    this.timer = null
  }
}
