import { hash } from 'node:crypto'
import { LINES_FIELD, numberOf, textOf } from './invoice-fields.ts'
import { lineUnits, toMilliUnits, type LineUnitFields } from '../shared/quantities.ts'

/**
 * An invoice's economic fingerprint: what stays the same when the supplier re-issues the same
 * invoice under a new number. The customer (`Clienteid`, trimmed), its lines as (`ProductoId`,
 * total units by the returns' unit rule) in sorted order, and the invoice `Total` as a number in
 * exact millionths. The invoice number, the supplier's ids, every date and the line amounts are
 * left out: a re-issue re-rounds line amounts by a cent, but its total does not change.
 */
export interface FingerprintSource {
  clienteId: string
  total: number
  lines: ReadonlyArray<{ producto_id: string } & LineUnitFields>
}

/** 128 bits of SHA-256 as 32 hex digits: stored on every invoice and indexed. */
export function fingerprintOf(source: FingerprintSource): string {
  // Each line as `"ProductoId":units in thousandths` (JSON-quoted: no id can fake a separator),
  // sorted as text: any fixed order will do, as long as both invoices use the same.
  const lines = source.lines
    .map((line) => `${JSON.stringify(line.producto_id)}:${toMilliUnits(lineUnits(line))}`)
    .sort()
  const canonical = `${JSON.stringify(source.clienteId.trim())}|${lines.join(',')}|${Math.round(source.total * 1_000_000)}`
  return hash('sha256', canonical, 'hex').slice(0, 32)
}

/**
 * The fingerprint of an invoice as the client sent it (step 3 passed it): each field read as its
 * column stores it (a number for a text field is its decimal text, a numeric string its number),
 * so this equals the fingerprint of the stored rows (the migration back-fills from those).
 */
export function fingerprintOfInvoice(raw: Record<string, unknown>): string {
  const lines = raw[LINES_FIELD] as Array<Record<string, unknown>>
  return fingerprintOf({
    clienteId: textOf(raw.Clienteid as string | number),
    total: numberOf(raw.Total as string | number),
    lines: lines.map((line) => ({
      producto_id: textOf(line.ProductoId as string | number),
      cantidad_fracciones: quantity(line.CantidadFracciones),
      cantidad_caja: quantity(line.CantidadCaja),
      factor_conversion: quantity(line.FactorConversion),
    })),
  })
}

/** A numeric field as its column holds it: null when absent. */
function quantity(value: unknown): number | null {
  return value === undefined || value === null ? null : numberOf(value as string | number)
}
