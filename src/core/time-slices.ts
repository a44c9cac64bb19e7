/**
 * Long synchronous work cut into slices with the event loop let in between, so one request (a
 * 10,000-invoice batch, a 128 MB hostile body) never keeps another (a ping, a console page) waiting
 * for long (contract §9: at most 1 s). Between its units the work asks `due()` and, when the slice
 * has run its time, awaits `next()` — asked, not awaited, per unit: an await per element would cost
 * a microtask each for a million elements.
 */
export class TimeSlices {
  private sliceStart = performance.now()

  constructor(private readonly sliceMs = DEFAULT_SLICE_MS) {}

  /** Whether the current slice has run its time. */
  due(): boolean {
    return performance.now() - this.sliceStart >= this.sliceMs
  }

  /**
   * One turn of the event loop (`setImmediate`: the connections and requests that arrived
   * meanwhile are read first), then a new slice.
   */
  async next(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve))
    this.sliceStart = performance.now()
  }
}

/**
 * A new connection's request needs two or three turns of the event loop (accept, read, answer):
 * slices of 40 ms answer a ping within ~150 ms of pure slicing; shorter ones add turns to the
 * batch for nothing a person would notice.
 */
const DEFAULT_SLICE_MS = 40
