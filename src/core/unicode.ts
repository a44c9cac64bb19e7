import { isUtf8 } from 'node:buffer'

/**
 * Text the service accepts is valid Unicode (contract §9): bodies are UTF-8, and strings hold no
 * lone surrogate halves (a `"\ud800"` escape in JSON makes one), which could not be stored or
 * answered faithfully.
 */

/**
 * Offset of the first byte that is not part of valid UTF-8, or -1 when all of it is. Node's
 * `isUtf8` (native) finds the megabyte that holds it; only that one is walked here byte by byte,
 * so a 128 MB body with a bad byte at its end is answered in milliseconds, not seconds.
 */
export function invalidUtf8Offset(bytes: Uint8Array): number {
  if (isUtf8(bytes)) return -1
  let from = 0
  for (;;) {
    let to = Math.min(from + UTF8_CHECK_BYTES, bytes.length)
    // End the part before a character's continuation bytes (at most 3 back), not inside it.
    for (let back = 0; back < 3 && to < bytes.length && (bytes[to]! & 0xc0) === 0x80; back++) to--
    if (to === bytes.length || !isUtf8(bytes.subarray(from, to))) break
    from = to
  }
  for (let i = from; i < bytes.length;) {
    const length = utf8SequenceLength(bytes, i)
    if (length === 0) return i
    i += length
  }
  return -1
}

const UTF8_CHECK_BYTES = 1024 * 1024

/** Length of the valid UTF-8 sequence starting at `i`, or 0 (overlong forms and surrogates are invalid). */
function utf8SequenceLength(bytes: Uint8Array, i: number): number {
  const lead = bytes[i]!
  if (lead < 0x80) return 1
  const [length, low, high] =
    lead >= 0xc2 && lead <= 0xdf
      ? [2, 0x80, 0xbf]
      : lead === 0xe0
        ? [3, 0xa0, 0xbf]
        : lead === 0xed
          ? [3, 0x80, 0x9f]
          : lead >= 0xe1 && lead <= 0xef
            ? [3, 0x80, 0xbf]
            : lead === 0xf0
              ? [4, 0x90, 0xbf]
              : lead >= 0xf1 && lead <= 0xf3
                ? [4, 0x80, 0xbf]
                : lead === 0xf4
                  ? [4, 0x80, 0x8f]
                  : [0, 0, 0]
  if (length === 0 || i + length > bytes.length) return 0
  const second = bytes[i + 1]!
  if (second < low || second > high) return 0
  for (let k = 2; k < length; k++) {
    const next = bytes[i + k]!
    if (next < 0x80 || next > 0xbf) return 0
  }
  return length
}

/** Whether a string is well-formed UTF-16 (no lone surrogate half). */
export function isWellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed()
}

/**
 * Where a parsed JSON value holds a string (or key) with a lone surrogate: its path
 * (`lineas[0].motivo`), or null when it holds none.
 */
export function findMalformedText(value: unknown): string | null {
  return findText(value, (text) => !isWellFormed(text))?.path ?? null
}

/** A string (or key) that `test` picks in a parsed JSON value, and its path (`lineas[0].motivo`). */
export interface FoundText {
  path: string
  text: string
  /** The text is a key (a field's name), not a value. */
  isKey: boolean
}

/**
 * The first string or key of a parsed JSON value that `test` picks, depth first in key order, or
 * null. Nothing deeper than MAX_WALK_DEPTH is looked at: the callers refuse such nesting anyway,
 * and recursion on client data must stay far from the stack's limit.
 */
export function findText(value: unknown, test: (text: string) => boolean, path = '', depth = 0): FoundText | null {
  if (typeof value === 'string') return test(value) ? { path: path || 'valor', text: value, isKey: false } : null
  if (value === null || typeof value !== 'object' || depth > MAX_WALK_DEPTH) return null
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findText(value[i], test, `${path}[${i}]`, depth + 1)
      if (found !== null) return found
    }
    return null
  }
  for (const key of Object.keys(value)) {
    const where = path === '' ? key : `${path}.${key}`
    if (test(key)) return { path: where, text: key, isKey: true }
    const found = findText((value as Record<string, unknown>)[key], test, where, depth + 1)
    if (found !== null) return found
  }
  return null
}

const MAX_WALK_DEPTH = 100

/** Characters as JSON Schema counts them (Unicode code points), for a limit of `max`: counted only past it. */
export function isLongerThan(text: string, max: number): boolean {
  if (text.length <= max) return false
  if (text.length > max * 2) return true
  let points = 0
  for (const _ of text) if (++points > max) return true
  return false
}

/** Unicode code points in `text`. */
export function codePointCount(text: string): number {
  let points = 0
  for (const _ of text) points++
  return points
}
