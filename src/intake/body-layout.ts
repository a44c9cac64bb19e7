/**
 * Where each invoice of a batch lies in the body's bytes. The body is kept as the invoices'
 * originals: invoice i's original is bytes `starts[i]..ends[i]` of the body exactly as sent, so
 * nothing is serialised again to store it and the raw body is the concatenation of its chunks.
 */
export interface BodyLayout {
  /** Top-level objects and arrays of the body's array, in order. */
  count: number
  starts: Uint32Array
  ends: Uint32Array
  /** Deepest nesting of objects and arrays, the body's own array included. */
  maxDepth: number
}

/**
 * Finds the top-level elements of a JSON array body that JSON.parse accepted. Top-level scalars
 * are not listed (such a batch fails step 3 before the layout is used). One pass over the bytes:
 * inside a string only `"` and `\` matter, so bytes ≥ 0x80 (UTF-8) never look structural.
 * @returns null when the body is not an array whose strings all close (never after JSON.parse).
 */
export function layoutOf(body: Uint8Array): BodyLayout | null {
  let starts = new Uint32Array(1024)
  let ends = new Uint32Array(1024)
  let count = 0
  let depth = 0
  let maxDepth = 0
  const length = body.length
  for (let i = 0; i < length; i++) {
    const byte = body[i]!
    if (byte === QUOTE) {
      for (i++; ; ) {
        if (i >= length) return null
        const inner = body[i]!
        if (inner === QUOTE) break
        i += inner === BACKSLASH ? 2 : 1
      }
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (depth === 1) {
        if (count === starts.length) [starts, ends] = [grown(starts), grown(ends)]
        starts[count] = i
      }
      depth += 1
      if (depth > maxDepth) maxDepth = depth
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      depth -= 1
      if (depth === 1) ends[count++] = i + 1
    }
  }
  if (depth !== 0) return null
  return { count, starts: starts.subarray(0, count), ends: ends.subarray(0, count), maxDepth }
}

/**
 * Whether some string may hold a lone surrogate half: in valid UTF-8 one can only come from a
 * `\uD800`–`\uDFFF` escape, so a body without `\ud`/`\uD` holds none and the per-string check
 * is skipped.
 */
export function mayHoldLoneSurrogate(body: Buffer): boolean {
  return body.includes('\\ud') || body.includes('\\uD')
}

function grown(array: Uint32Array<ArrayBuffer>): Uint32Array<ArrayBuffer> {
  const larger = new Uint32Array(array.length * 2)
  larger.set(array)
  return larger
}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d
const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d
