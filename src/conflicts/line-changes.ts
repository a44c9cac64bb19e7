import { canonicalJson } from '../invoices/canonical-json.ts'
import { normalize } from '../invoices/received-invoice.ts'
import { LINES_FIELD } from '../invoices/invoice-fields.ts'

export interface LineChange {
  numero_linea: number
  cambio: 'modificada' | 'agregada' | 'quitada'
  /** The line's fields that differ (every field of an added or removed line). */
  campos: string[]
}

/**
 * Which lines differ between two versions of an invoice, matched by NumeroLinea, and in which
 * fields — compared as the intake compares versions (normalised values, canonical JSON), so a
 * line is "modificada" exactly when it makes `LineasFactura` one of the changed fields.
 */
export function lineChanges(existingRaw: Record<string, unknown>, incomingRaw: Record<string, unknown>): LineChange[] {
  const existing = linesByNumber(normalize(existingRaw))
  const incoming = linesByNumber(normalize(incomingRaw))
  const numbers = [...new Set([...existing.keys(), ...incoming.keys()])].sort((a, b) => a - b)
  return numbers.flatMap((numero): LineChange[] => {
    const before = existing.get(numero)
    const after = incoming.get(numero)
    if (before === undefined) return [{ numero_linea: numero, cambio: 'agregada', campos: Object.keys(after!) }]
    if (after === undefined) return [{ numero_linea: numero, cambio: 'quitada', campos: Object.keys(before) }]
    const keys = [...new Set([...Object.keys(after), ...Object.keys(before)])]
    const valueOf = (line: Record<string, unknown>, key: string) =>
      Object.hasOwn(line, key) ? canonicalJson(line[key]) : undefined
    const campos = keys.filter((key) => valueOf(before, key) !== valueOf(after, key))
    return campos.length === 0 ? [] : [{ numero_linea: numero, cambio: 'modificada', campos }]
  })
}

/** An invoice's lines by NumeroLinea (a repeated number keeps its first line, as returns do). */
function linesByNumber(invoice: Record<string, unknown>): Map<number, Record<string, unknown>> {
  const lines = Array.isArray(invoice[LINES_FIELD]) ? (invoice[LINES_FIELD] as Array<Record<string, unknown>>) : []
  const byNumber = new Map<number, Record<string, unknown>>()
  for (const line of lines) {
    const numero = Number(line.NumeroLinea)
    if (!byNumber.has(numero)) byNumber.set(numero, line)
  }
  return byNumber
}
