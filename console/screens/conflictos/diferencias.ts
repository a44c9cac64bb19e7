/** What changed between the stored version of an invoice and the one held for review. */

export interface FieldChange {
  campo: string
  antes: unknown
  despues: unknown
}

export interface LineChange {
  numeroLinea: string
  tipo: 'cambiada' | 'nueva' | 'quitada'
  producto: string
  cambios: FieldChange[]
}

type Row = Record<string, unknown>

function asRow(value: unknown): Row {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Row) : {}
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

/** Top-level fields that differ (the lines are compared apart). */
export function fieldChanges(before: unknown, after: unknown, linesField = 'LineasFactura'): FieldChange[] {
  const a = asRow(before)
  const b = asRow(after)
  const names = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((name) => name !== linesField)
  return names.filter((name) => !same(a[name], b[name])).map((campo) => ({ campo, antes: a[campo], despues: b[campo] }))
}

/** Lines matched by NumeroLinea: changed (with their fields), added, removed. */
export function lineChanges(before: unknown, after: unknown, linesField = 'LineasFactura'): LineChange[] {
  const linesOf = (value: unknown) => {
    const lines = asRow(value)[linesField]
    return new Map((Array.isArray(lines) ? lines : []).map((line) => [String(asRow(line).NumeroLinea), asRow(line)]))
  }
  const a = linesOf(before)
  const b = linesOf(after)
  const numbers = [...new Set([...a.keys(), ...b.keys()])].sort((x, y) => Number(x) - Number(y))
  const changes: LineChange[] = []
  for (const number of numbers) {
    const old = a.get(number)
    const next = b.get(number)
    const producto = String((next ?? old)?.ProductoDesc ?? '')
    if (!old) changes.push({ numeroLinea: number, tipo: 'nueva', producto, cambios: [] })
    else if (!next) changes.push({ numeroLinea: number, tipo: 'quitada', producto, cambios: [] })
    else {
      const cambios = fieldChanges(old, next, '\u0000')
      if (cambios.length > 0) changes.push({ numeroLinea: number, tipo: 'cambiada', producto, cambios })
    }
  }
  return changes
}

/** A field's value as text for the comparison table. */
export function shown(value: unknown): string {
  if (value === undefined) return '(no viene)'
  if (value === null) return '(vacío)'
  return typeof value === 'string' ? value : JSON.stringify(value)
}
