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

/** @throws NestingTooDeepError */
export function canonicalJson(value: unknown, depth = 0): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (depth >= MAX_NESTING) throw new NestingTooDeepError(`más de ${MAX_NESTING} niveles de anidamiento`)
  if (Array.isArray(value)) {
    let text = '['
    for (let i = 0; i < value.length; i++) text += (i === 0 ? '' : ',') + canonicalJson(value[i], depth + 1)
    return `${text}]`
  }
  const object = value as Record<string, unknown>
  const keys = Object.keys(object).sort()
  let text = '{'
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    text += `${i === 0 ? '' : ','}${JSON.stringify(key)}:${canonicalJson(object[key], depth + 1)}`
  }
  return `${text}}`
}
