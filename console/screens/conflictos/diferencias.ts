import type { ConflictDetail } from '../../api/types.ts'
import { money, quantity } from '../../format.ts'

/**
 * The rows of a conflict's comparison: the fields and lines the service found different (it
 * compares normalised values, as the intake does), with the value each version has.
 */

export interface FieldChange {
  campo: string
  antes: unknown
  despues: unknown
}

export interface LineChange {
  numeroLinea: number
  tipo: ConflictDetail['lineas_con_cambio'][number]['cambio']
  producto: string
  cambios: FieldChange[]
}

/** The invoice's own field that holds its lines (compared line by line, not as one field). */
const LINES_FIELD = 'LineasFactura'

type Row = Record<string, unknown>

function asRow(value: unknown): Row {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Row) : {}
}

/** The changed header fields, with both values. */
export function fieldChanges(
  conflict: Pick<ConflictDetail, 'campos_con_cambio' | 'existente' | 'entrante'>,
): FieldChange[] {
  const before = asRow(conflict.existente)
  const after = asRow(conflict.entrante)
  return conflict.campos_con_cambio
    .filter((campo) => campo !== LINES_FIELD)
    .map((campo) => ({ campo, antes: before[campo], despues: after[campo] }))
}

/** The changed lines, each with its changed fields and both values. */
export function lineChanges(
  conflict: Pick<ConflictDetail, 'lineas_con_cambio' | 'existente' | 'entrante'>,
): LineChange[] {
  const linesOf = (version: unknown) => {
    const lines = asRow(version)[LINES_FIELD]
    return new Map((Array.isArray(lines) ? lines : []).map((line) => [Number(asRow(line).NumeroLinea), asRow(line)]))
  }
  const before = linesOf(conflict.existente)
  const after = linesOf(conflict.entrante)
  return conflict.lineas_con_cambio.map((change) => {
    const old = before.get(change.numero_linea) ?? {}
    const next = after.get(change.numero_linea) ?? {}
    return {
      numeroLinea: change.numero_linea,
      tipo: change.cambio,
      producto: String(next.ProductoDesc ?? old.ProductoDesc ?? ''),
      cambios:
        change.cambio === 'modificada'
          ? change.campos.map((campo) => ({ campo, antes: old[campo], despues: next[campo] }))
          : [],
    }
  })
}

/** The supplier's amount fields: shown as lempiras, like every other amount of the console. */
const MONEY_FIELDS = new Set([
  'Total',
  'Subtotal',
  'SubTotal',
  'Impuesto',
  'Isv',
  'ISV',
  'Descuento',
  'Precio',
  'PrecioUnitario',
  'Importe',
])

/** A field's value as text for the comparison table (amounts as `L 1,087.92`, the rest as sent). */
export function shown(value: unknown, campo = ''): string {
  if (value === undefined) return '(no viene)'
  if (value === null) return '(vacío)'
  if (typeof value === 'number') return MONEY_FIELDS.has(campo) ? money(value) : quantity(value)
  return typeof value === 'string' ? value : JSON.stringify(value)
}
