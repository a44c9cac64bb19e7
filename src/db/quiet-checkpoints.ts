import type { Database } from './database.ts'

/**
 * SQLite's own checkpoint, as the safety net: it runs inside the commit that grows the WAL past
 * this many pages. Above any one batch (a 128 MB body writes ~15,000 pages of 4 KiB), so it only
 * runs for a service that is never quiet, and bounds the WAL to ~100 MB.
 */
export const SAFETY_NET_PAGES = 25_000

/** How long without a request before the WAL is copied into the database file. */
export const QUIET_MS = 1_000

export interface Timers {
  set: (run: () => void, ms: number) => unknown
  clear: (timer: unknown) => void
}

const nodeTimers: Timers = {
  set: (run, ms) => setTimeout(run, ms).unref(),
  clear: (timer) => clearTimeout(timer as NodeJS.Timeout),
}

/**
 * WAL checkpoints out of the answers' way. By default SQLite copies the WAL into the database
 * file inside the commit that grows it past 1,000 pages, so a 10,000-invoice batch (~6,000
 * pages) would wait ~40 ms for that copy before its answer. The service instead checkpoints when
 * it has been quiet for `QUIET_MS`: no request in flight and none arriving. The commit is what
 * it was: with synchronous=FULL the WAL is on disk before the answer, and a crash before the
 * checkpoint replays it at the next open. PASSIVE never waits for a reader (a backup, a command
 * in another process): whatever it cannot copy now is copied at the next quiet moment.
 */
export class QuietCheckpoints {
  private inFlight = 0
  private timer: unknown = null

  constructor(
    private readonly db: Database,
    private readonly onError: (error: unknown) => void,
    private readonly timers: Timers = nodeTimers,
  ) {
    db.sqlite.pragma(`wal_autocheckpoint = ${SAFETY_NET_PAGES}`)
  }

  /** A request arrived: no checkpoint until the service is quiet again. */
  begin(): void {
    this.inFlight += 1
    this.cancel()
  }

  /** A request's answer is done, or its connection dropped. */
  end(): void {
    this.inFlight -= 1
    if (this.inFlight === 0) this.whenQuiet()
  }

  /** Checkpoints after `QUIET_MS` unless a request comes first (at start: what the migrations wrote). */
  whenQuiet(): void {
    this.cancel()
    this.timer = this.timers.set(() => this.checkpoint(), QUIET_MS)
  }

  stop(): void {
    this.cancel()
  }

  private checkpoint(): void {
    this.timer = null
    if (this.inFlight > 0 || !this.db.sqlite.open) return
    try {
      this.db.sqlite.pragma('wal_checkpoint(PASSIVE)')
    } catch (error) {
      this.onError(error)
    }
  }

  private cancel(): void {
    if (this.timer === null) return
    this.timers.clear(this.timer)
    this.timer = null
  }
}
