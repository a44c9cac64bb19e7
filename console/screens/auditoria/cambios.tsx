import { useState } from 'preact/hooks'
import type { AuditEntryView } from '../../api/types.ts'
import { date, dateTime, money } from '../../format.ts'
import { fieldLabel } from '../../ui/labels.ts'

/** A value longer than this is cut in the list (the whole of it is behind "Ver datos"). */
const LONGEST = 140

type Row = Record<string, unknown>

const asRow = (value: unknown): Row | null =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Row) : null

/** One changed field: its label and both values as text (`—` where a side has none). */
export interface FieldChange {
  campo: string
  antes: string
  despues: string
}

/**
 * What an audit entry changed, field by field (issue 41): the fields whose value differs between
 * `antes` and `despues`, or every field of a side when only one exists (created: despues), then
 * the entry's `detalle` (motivo, nota, lote…) as it is.
 */
export function changesOf(entry: Pick<AuditEntryView, 'antes' | 'despues' | 'detalle'>): FieldChange[] {
  const detail = asRow(entry.detalle)
  const details = Object.entries(detail ?? {}).map(([key, value]) => ({
    campo: fieldLabel(key),
    antes: '',
    despues: shownValue(key, value),
  }))
  return [...fieldChanges(asRow(entry.antes), asRow(entry.despues), ''), ...details]
}

/** The differing fields of two versions; a field that is an object on both sides is compared inside (`Factura › Anulada`). */
function fieldChanges(before: Row | null, after: Row | null, prefix: string): FieldChange[] {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])]
  return keys
    .filter((key) => JSON.stringify(before?.[key]) !== JSON.stringify(after?.[key]))
    .flatMap((key) => {
      const inner = [asRow(before?.[key]), asRow(after?.[key])]
      const [innerBefore, innerAfter] = inner
      if (before !== null && after !== null && innerBefore && innerAfter)
        return fieldChanges(innerBefore, innerAfter, `${prefix}${fieldLabel(key)} › `)
      return [
        {
          campo: `${prefix}${fieldLabel(key)}`,
          antes: before === null ? '' : shownValue(key, before[key]),
          despues: after === null ? '' : shownValue(key, after[key]),
        },
      ]
    })
}

/** The state codes of returns, manifests, conflicts and re-issues as the warehouse says them. */
const STATES: Record<string, string> = {
  pending: 'Pendiente',
  approved: 'Aprobada',
  rejected: 'Rechazada',
  cancelled: 'Anulada',
  accepted: 'Aceptado',
  discarded: 'Descartado',
  confirmed: 'Confirmada',
  imported: 'Abierto',
  closed: 'Cerrado',
}

/** A value as a person reads it: amounts in lempiras, lists joined, lines counted, long text cut. */
function shownValue(key: string, value: unknown): string {
  if (value === undefined) return '(no estaba)'
  if (value === null || value === '') return '(vacío)'
  if (typeof value === 'boolean') return value ? 'Sí' : 'No'
  if (typeof value === 'number') return /total|importe|precio/i.test(key) ? money(value) : String(value)
  if (typeof value === 'string' && key === 'estado' && STATES[value]) return STATES[value]
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2})?)?$/.test(value))
    return /[ T]/.test(value) ? dateTime(value) : date(value)
  if (Array.isArray(value)) {
    if (value.every((item) => typeof item === 'string' || typeof item === 'number')) return cut(value.join(', '))
    return value.length === 1 ? '1 línea' : `${value.length} líneas`
  }
  if (typeof value === 'object') return cut(JSON.stringify(value))
  return cut(String(value))
}

function cut(text: string): string {
  return text.length > LONGEST ? `${text.slice(0, LONGEST - 1)}…` : text
}

/** The changes of an entry as a list, with the raw data behind "Ver datos". */
export function EntryChanges({ entry }: { entry: AuditEntryView }) {
  const [raw, setRaw] = useState(false)
  const changes = changesOf(entry)
  return (
    <div class="cambios">
      {changes.length === 0 ? (
        <p class="tenue">Sin datos de cambios.</p>
      ) : (
        <ul>
          {changes.map((change, index) => (
            <li key={`${change.campo}-${index}`}>
              <strong>{change.campo}:</strong>{' '}
              {change.antes !== '' && (
                <>
                  <span class="antes">{change.antes}</span> →{' '}
                </>
              )}
              <span class="despues">{change.despues}</span>
            </li>
          ))}
        </ul>
      )}
      <button type="button" class="enlace" aria-expanded={raw} onClick={() => setRaw(!raw)}>
        {raw ? 'Ocultar datos' : 'Ver datos'}
      </button>
      {raw && (
        <pre class="original">
          {JSON.stringify({ antes: entry.antes, despues: entry.despues, detalle: entry.detalle }, null, 2)}
        </pre>
      )}
    </div>
  )
}
