import { DomainError } from '../core/errors.ts'

/**
 * How many large bodies (batches) are received at once. Each one may hold up to
 * `server.maxBodyMB` in memory, so the count bounds the memory they can take together; the
 * others are refused at once (503, Retry-After) without reading their bodies.
 */
export class UploadSlots {
  private inUse = 0

  constructor(private readonly max: number) {}

  /** @returns the release of the slot taken. @throws DomainError UNAVAILABLE when all are in use. */
  acquire(): () => void {
    if (this.inUse >= this.max) {
      throw new DomainError(
        'UNAVAILABLE',
        `El servidor ya está recibiendo ${this.max} lote(s) a la vez; reenvíe este lote en unos segundos.`,
        {},
        { 'Retry-After': '10', Connection: 'close' },
      )
    }
    this.inUse += 1
    let released = false
    return () => {
      if (released) return
      released = true
      this.inUse -= 1
    }
  }
}
