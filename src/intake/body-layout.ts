import type { OriginalPlace } from '../batches/body-chunks.ts'

/**
 * One pass over a batch's bytes, before JSON.parse is asked to build anything: how many values
 * it would build (step 2 refuses absurdly dense bodies) and where each invoice lies. The body is
 * kept as the invoices' originals: invoice i's original is bytes `starts[i]..ends[i]` of the body
 * exactly as sent, so nothing is serialised again to store it (src/batches/body-chunks.ts).
 */
export interface BodyScan {
  bytes: number
  /** Objects and arrays opened outside strings: what JSON.parse would allocate as containers. */
  containers: number
  /** Commas outside strings: one more value each. */
  commas: number
  /** Deepest nesting of objects and arrays, the body's own array included. */
  maxDepth: number
  /** The top-level objects and arrays of the body's array; null when the body does not close, or holds more than MAX_RECORDED. */
  layout: BodyLayout | null
}

export interface BodyLayout {
  count: number
  starts: Uint32Array
  ends: Uint32Array
}

/**
 * Scans the body. Inside a string only `"` and `\` matter, so bytes ≥ 0x80 (UTF-8) never look
 * structural; scalars at the top level are not listed (such a batch fails step 3 before the
 * layout is used).
 */
export function scanBody(body: Buffer): BodyScan {
  const scanner = new BodyScanner()
  scanner.advance(body, body.length)
  return scanner.finish(body.length)
}

/**
 * `scanBody` a piece at a time, as the body arrives: `advance` over the bytes that are there,
 * `finish` once all of them are. The body worker (src/batches/body-worker.ts) runs this class's own
 * source text, so it names nothing outside itself: its constants are its own.
 */
export class BodyScanner {
  /**
   * More top-level values than any real batch holds (an invoice takes kilobytes): past this,
   * their places are not recorded, so a body of millions of `{}` costs no memory here (step 2
   * refuses it).
   */
  static readonly MAX_RECORDED = 1_000_000
  private starts = new Uint32Array(1024)
  private ends = new Uint32Array(1024)
  private count = 0
  private depth = 0
  private maxDepth = 0
  private containers = 0
  private commas = 0
  /** The next byte to look at. */
  private position = 0
  /** Whether `position` is inside a string (which a `"` not escaped by an odd run of `\`s closes). */
  private inString = false

  /** Scans on to byte `available` (the bytes before it have arrived). */
  advance(body: Buffer, available: number): void {
    const QUOTE = 0x22
    const BACKSLASH = 0x5c
    const COMMA = 0x2c
    const OPEN_OBJECT = 0x7b
    const CLOSE_OBJECT = 0x7d
    const OPEN_ARRAY = 0x5b
    const CLOSE_ARRAY = 0x5d
    const max = BodyScanner.MAX_RECORDED
    // The bytes past `available` have not arrived: no search may look at them.
    const bytes = available === body.length ? body : body.subarray(0, available)
    let { starts, ends, count, depth, maxDepth, containers, commas, inString } = this
    let i = this.position
    while (i < available) {
      if (inString) {
        let quote = bytes.indexOf(QUOTE, i)
        while (quote !== -1) {
          let backslashes = 0
          while (bytes[quote - 1 - backslashes] === BACKSLASH) backslashes++
          if (backslashes % 2 === 0) break
          quote = bytes.indexOf(QUOTE, quote + 1)
        }
        if (quote === -1) {
          i = available
          break
        }
        inString = false
        i = quote + 1
        continue
      }
      const byte = bytes[i]!
      if (byte === QUOTE) {
        inString = true
      } else if (byte === COMMA) {
        commas += 1
      } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
        containers += 1
        if (depth === 1 && count < max) {
          if (count === starts.length) {
            const larger = (array: Uint32Array<ArrayBuffer>) => {
              const grown = new Uint32Array(array.length * 2)
              grown.set(array)
              return grown
            }
            starts = larger(starts)
            ends = larger(ends)
          }
          starts[count] = i
        }
        depth += 1
        if (depth > maxDepth) maxDepth = depth
      } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
        depth -= 1
        if (depth === 1 && count++ < max) ends[count - 1] = i + 1
      }
      i += 1
    }
    Object.assign(this, { starts, ends, count, depth, maxDepth, containers, commas, inString, position: i })
  }

  /** The scan of a body of `length` bytes, all of which `advance` has seen. */
  finish(length: number): BodyScan {
    const { count, depth, inString } = this
    const layout = !inString && depth === 0 && count <= BodyScanner.MAX_RECORDED ? { count, starts: this.starts.subarray(0, count), ends: this.ends.subarray(0, count) } : null
    return { bytes: length, containers: this.containers, commas: this.commas, maxDepth: this.maxDepth, layout }
  }
}

/**
 * Whether some string may hold a lone surrogate half: in valid UTF-8 one can only come from a
 * `\uD800`–`\uDFFF` escape, so a body without `\ud`/`\uD` holds none and the per-string check
 * is skipped.
 */
export function mayHoldLoneSurrogate(body: Buffer): boolean {
  return body.includes('\\ud') || body.includes('\\uD')
}

/** Where invoice `index` (0-based position in the batch) lies in the body. */
export function placeOf(layout: BodyLayout, index: number): OriginalPlace {
  return { offset: layout.starts[index]!, length: layout.ends[index]! - layout.starts[index]! }
}
