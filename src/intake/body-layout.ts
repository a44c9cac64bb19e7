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
  /**
   * Whether some string may hold a lone surrogate half: in valid UTF-8 one can only come from a
   * `\uD800`–`\uDFFF` escape, so a body whose strings have no `\ud`/`\uD` escape (any `\uDxxx`
   * counts, to keep the test simple) holds none and step 3's per-string check is skipped. Sound
   * for a body that parses; one that does not is refused in step 2 anyway.
   */
  mayHoldLoneSurrogate: boolean
  /**
   * The objects and arrays one level inside the body's top-level value; null when the body does
   * not close, or holds more than MAX_RECORDED. They are the batch's elements only when the rest
   * of the body is an array's punctuation, which step 2 checks before using them (`parseBatchBody`).
   */
  layout: BodyLayout | null
}

export interface BodyLayout {
  count: number
  starts: Uint32Array
  ends: Uint32Array
}

/**
 * More top-level values than any real batch holds (an invoice takes kilobytes): past this, their
 * places are not recorded, so a body of millions of `{}` costs no memory here (step 2 refuses it).
 */
const MAX_RECORDED = 1_000_000

/**
 * Scans the body. Inside a string only `"` and `\` matter, so bytes ≥ 0x80 (UTF-8) never look
 * structural; scalars at the top level are not listed (step 2 then parses the body whole).
 */
export function scanBody(body: Uint8Array): BodyScan {
  let starts = new Uint32Array(1024)
  let ends = new Uint32Array(1024)
  let count = 0
  let depth = 0
  let maxDepth = 0
  let containers = 0
  let commas = 0
  let closed = true
  const seen = { surrogateEscape: false }
  const length = body.length
  const words = new DataView(body.buffer, body.byteOffset, body.byteLength)
  for (let i = 0; i < length; i++) {
    const byte = body[i]!
    // Most bytes outside strings are digits, letters of literals, colons and spaces: one test for them.
    if (UNREMARKABLE[byte] === 1) continue
    if (byte === QUOTE) {
      i = closingQuote(body, words, i + 1, seen)
      if (i === -1) {
        closed = false
        break
      }
    } else if (byte === COMMA) {
      commas += 1
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      containers += 1
      if (depth === 1 && count < MAX_RECORDED) {
        if (count === starts.length) {
          starts = grown(starts)
          ends = grown(ends)
        }
        starts[count] = i
      }
      depth += 1
      if (depth > maxDepth) maxDepth = depth
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      depth -= 1
      if (depth === 1 && count++ < MAX_RECORDED) ends[count - 1] = i + 1
    }
  }
  const layout = closed && depth === 0 && count <= MAX_RECORDED ? { count, starts: starts.subarray(0, count), ends: ends.subarray(0, count) } : null
  return { bytes: length, containers, commas, maxDepth, mayHoldLoneSurrogate: seen.surrogateEscape, layout }
}

/** Where invoice `index` (0-based position in the batch) lies in the body. */
export function placeOf(layout: BodyLayout, index: number): OriginalPlace {
  return { offset: layout.starts[index]!, length: layout.ends[index]! - layout.starts[index]! }
}

/**
 * Where the string opened before `from` closes: the next `"` not escaped by a `\`; -1 if none.
 * Two thirds of a supplier's batch are string bytes, so they are read four at a time (a 32-bit
 * word, little-endian: the first byte is the lowest) until a word holds a quote or a backslash; a
 * 56 MB batch scans in ~73 ms instead of ~100 byte by byte. Not `indexOf`: the body lives in
 * shared memory (src/http/body.ts), where a native call per string (millions of short ones) costs
 * more than the whole loop.
 */
function closingQuote(body: Uint8Array, words: DataView, from: number, seen: { surrogateEscape: boolean }): number {
  const length = body.length
  let i = from
  for (;;) {
    while (i + 4 <= length) {
      const found = quoteOrBackslashBytes(words.getInt32(i, true))
      if (found !== 0) {
        i += lowestByteOf(found)
        break
      }
      i += 4
    }
    if (i >= length) return -1
    const byte = body[i]!
    if (byte === QUOTE) return i
    if (byte === BACKSLASH) {
      if (body[i + 1] === LETTER_U && (body[i + 2] === LETTER_D || body[i + 2] === LETTER_D_UPPER)) seen.surrogateEscape = true
      // The byte after the backslash is part of the string, whatever it is.
      i += 2
    } else {
      // A word's last bytes before the end of the body, read one at a time.
      i += 1
    }
  }
}

/**
 * The high bit of each byte of `word` that is `"` or `\`, and possibly of bytes after such a one
 * (never before it): the classic "has a zero byte" test, `(x - 0x01…) & ~x & 0x80…`, over the word
 * xor-ed with each of the two bytes.
 */
function quoteOrBackslashBytes(word: number): number {
  const quotes = word ^ FOUR_QUOTES
  const backslashes = word ^ FOUR_BACKSLASHES
  return (((quotes - FOUR_ONES) & ~quotes) | ((backslashes - FOUR_ONES) & ~backslashes)) & FOUR_HIGH_BITS
}

/**
 * Which byte (0–3) of a little-endian word is the first marked in `bits` (bits 7, 15, 23, 31). Two
 * tests rather than `clz32(bits & -bits)`, whose negation leaves 32-bit integers for 0x80000000.
 */
function lowestByteOf(bits: number): number {
  if ((bits & 0x8080) !== 0) return (bits & 0x80) !== 0 ? 0 : 1
  return (bits & 0x800000) !== 0 ? 2 : 3
}

function grown(array: Uint32Array<ArrayBuffer>): Uint32Array<ArrayBuffer> {
  const larger = new Uint32Array(array.length * 2)
  larger.set(array)
  return larger
}

const QUOTE = 0x22
const BACKSLASH = 0x5c
export const COMMA = 0x2c
const LETTER_U = 0x75
const LETTER_D = 0x64
const LETTER_D_UPPER = 0x44
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d
export const OPEN_ARRAY = 0x5b
export const CLOSE_ARRAY = 0x5d

/** 32-bit words whose four bytes are the same byte, for `quoteOrBackslashBytes`. */
const FOUR_ONES = 0x01010101
const FOUR_QUOTES = QUOTE * FOUR_ONES
const FOUR_BACKSLASHES = BACKSLASH * FOUR_ONES
const FOUR_HIGH_BITS = 0x80 * FOUR_ONES

/** 1 for every byte the scan passes over outside strings (all but `"` `,` `{` `}` `[` `]`). */
const UNREMARKABLE = new Uint8Array(256).fill(1)
for (const byte of [QUOTE, COMMA, OPEN_OBJECT, CLOSE_OBJECT, OPEN_ARRAY, CLOSE_ARRAY]) UNREMARKABLE[byte] = 0
