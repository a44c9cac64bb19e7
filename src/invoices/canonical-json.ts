/**
 * The canonical text of a JSON value (contract §3a): object keys sorted, numbers in their shortest
 * form (`450` = `450.0`), arrays in order, no whitespace. Equal content gives equal text whatever
 * the sender's key order or formatting.
 */
import { isWellFormed } from '../core/unicode.ts'

export class NestingTooDeepError extends Error {
  override readonly name = 'NestingTooDeepError'
}

/** A string or key with a lone surrogate half: it cannot be stored or answered faithfully. */
export class MalformedTextError extends Error {
  override readonly name = 'MalformedTextError'
}

/** Deeper than this is refused: recursion on client data must stay far from the stack's limit. */
export const MAX_NESTING = 64

/**
 * Canonical JSON of one value, written by hand (keys sorted per object). The reference
 * implementation; `canonicalSerializer` is the fast path with the same output.
 * @throws NestingTooDeepError
 */
export function canonicalJson(value: unknown, depth = 0): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (depth >= MAX_NESTING) throw new NestingTooDeepError(`más de ${MAX_NESTING} niveles de anidamiento`)
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item, depth + 1)).join(',')}]`
  const object = value as Record<string, unknown>
  const keys = Object.keys(object).sort()
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(object[key], depth + 1)}`).join(',')}}`
}

/**
 * The fast writer of the same canonical text, for the invoices of a batch: they share a few
 * object shapes, so each shape's sorted keys (and their `"key":` prefixes) are worked out once,
 * and numbers and plain strings are written without calling JSON.stringify. A test holds it to
 * `canonicalJson` on random JSON.
 */
export class CanonicalWriter {
  private readonly shapes = new Map<string, Shape[]>()

  /** @throws NestingTooDeepError, MalformedTextError */
  write(value: unknown, depth = 0): string {
    switch (typeof value) {
      case 'number':
        return Number.isFinite(value) ? String(value) : 'null'
      case 'string':
        if (PLAIN_STRING.test(value)) return `"${value}"`
        if (!isWellFormed(value))
          throw new MalformedTextError('texto con un carácter Unicode inválido (un sustituto suelto)')
        return JSON.stringify(value)
      case 'boolean':
        return value ? 'true' : 'false'
    }
    if (value === null || typeof value !== 'object') return 'null'
    if (depth >= MAX_NESTING) throw new NestingTooDeepError(`más de ${MAX_NESTING} niveles de anidamiento`)
    if (Array.isArray(value)) {
      let text = '['
      for (let i = 0; i < value.length; i++) text += (i === 0 ? '' : ',') + this.write(value[i], depth + 1)
      return `${text}]`
    }
    const object = value as Record<string, unknown>
    const shape = this.shapeOf(object)
    let text = '{'
    for (let i = 0; i < shape.keys.length; i++)
      text += shape.prefixes[i]! + this.write(object[shape.keys[i]!], depth + 1)
    return `${text}}`
  }

  /**
   * The object's keys sorted. Shapes are found by a cheap signature (count, first and last key)
   * and confirmed key by key, so two key sets that share a signature never share a shape.
   */
  private shapeOf(object: Record<string, unknown>): Shape {
    const keys = Object.keys(object)
    const signature = `${keys.length}\u0000${keys[0]}\u0000${keys[keys.length - 1]}`
    const candidates = this.shapes.get(signature)
    if (candidates) {
      for (const shape of candidates) if (shape.keys.every((key) => Object.hasOwn(object, key))) return shape
    }
    if (!keys.every(isWellFormed))
      throw new MalformedTextError('nombre de campo con un carácter Unicode inválido (un sustituto suelto)')
    const sorted = [...keys].sort()
    const shape = { keys: sorted, prefixes: sorted.map((key, i) => `${i === 0 ? '' : ','}${JSON.stringify(key)}:`) }
    if (this.shapes.size < 10_000) this.shapes.set(signature, [...(candidates ?? []), shape])
    return shape
  }
}

interface Shape {
  keys: string[]
  prefixes: string[]
}

/** Strings JSON writes as they are: no quote, backslash, control character or lone surrogate half. */
const PLAIN_STRING = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/
