import { isUtf8 } from 'node:buffer'

/**
 * Text the service accepts is valid Unicode (contract §9): bodies are UTF-8, and strings hold no
 * lone surrogate halves (a `"\ud800"` escape in JSON makes one), which could not be stored or
 * answered faithfully.
 */

/** Offset of the first byte that is not part of valid UTF-8, or -1 when all of it is. */
export function invalidUtf8Offset(bytes: Uint8Array): number {
  if (isUtf8(bytes)) return -1
  for (let i = 0; i < bytes.length; ) {
    const length = utf8SequenceLength(bytes, i)
    if (length === 0) return i
    i += length
  }
  return -1
}

/** Length of the valid UTF-8 sequence starting at `i`, or 0 (overlong forms and surrogates are invalid). */
function utf8SequenceLength(bytes: Uint8Array, i: number): number {
  const lead = bytes[i]!
  if (lead < 0x80) return 1
  const [length, low, high] =
    lead >= 0xc2 && lead <= 0xdf ? [2, 0x80, 0xbf]
    : lead === 0xe0 ? [3, 0xa0, 0xbf]
    : lead === 0xed ? [3, 0x80, 0x9f]
    : lead >= 0xe1 && lead <= 0xef ? [3, 0x80, 0xbf]
    : lead === 0xf0 ? [4, 0x90, 0xbf]
    : lead >= 0xf1 && lead <= 0xf3 ? [4, 0x80, 0xbf]
    : lead === 0xf4 ? [4, 0x80, 0x8f]
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
export function findMalformedText(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return isWellFormed(value) ? null : path || 'valor'
  if (value === null || typeof value !== 'object') return null
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findMalformedText(value[i], `${path}[${i}]`)
      if (found !== null) return found
    }
    return null
  }
  for (const key of Object.keys(value)) {
    const where = path === '' ? key : `${path}.${key}`
    if (!isWellFormed(key)) return where
    const found = findMalformedText((value as Record<string, unknown>)[key], where)
    if (found !== null) return found
  }
  return null
}
