/**
 * The canonical text of a JSON value (contract §3a): object keys sorted, numbers in their shortest
 * form (`450` = `450.0`), arrays in order, no whitespace. Equal content gives equal text whatever
 * the sender's key order or formatting.
 */
export class NestingTooDeepError extends Error {
  override readonly name = 'NestingTooDeepError'
}

/** Deeper than this is refused: recursion on client data must stay far from the stack's limit. */
export const MAX_NESTING = 64

/**
 * Writes canonical JSON. One writer per batch: the invoices of a batch share a handful of
 * object shapes, so each shape's sorted, quoted keys are worked out once and reused.
 */
export class CanonicalWriter {
  private readonly shapes = new Map<string, string[][]>()

  /** @throws NestingTooDeepError */
  write(value: unknown, depth = 0): string {
    if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
    if (depth >= MAX_NESTING) throw new NestingTooDeepError(`más de ${MAX_NESTING} niveles de anidamiento`)
    if (Array.isArray(value)) {
      let text = '['
      for (let i = 0; i < value.length; i++) text += (i === 0 ? '' : ',') + this.write(value[i], depth + 1)
      return `${text}]`
    }
    const object = value as Record<string, unknown>
    const [keys, prefixes] = this.sortedKeys(Object.keys(object))
    let text = '{'
    for (let i = 0; i < keys.length; i++) text += prefixes[i]! + this.write(object[keys[i]!], depth + 1)
    return `${text}}`
  }

  /** The keys sorted, and each one's `,"key":` prefix, cached by the object's key list. */
  private sortedKeys(keys: string[]): [string[], string[]] {
    const signature = keys.join('\u0000')
    let entry = this.shapes.get(signature)
    if (entry === undefined) {
      const sorted = [...keys].sort()
      entry = [sorted, sorted.map((key, i) => `${i === 0 ? '' : ','}${JSON.stringify(key)}:`)]
      if (this.shapes.size < 10_000) this.shapes.set(signature, entry)
    }
    return entry as [string[], string[]]
  }
}

/** Canonical JSON of one value (a fresh writer; use a CanonicalWriter for many values). */
export function canonicalJson(value: unknown): string {
  return new CanonicalWriter().write(value)
}
