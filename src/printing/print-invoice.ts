import { formatLocalDateTime, type Clock } from '../core/clock.ts'
import { boxesAndUnits, factorOf, isBoxLine, lineUnits, toMilliUnits, unitsText } from '../shared/quantities.ts'
import {
  AMOUNT_FIELDS,
  HEADER_TEXT_FIELDS,
  LINE_AMOUNT_FIELDS,
  LINE_TEXT_FIELDS,
  type PrintInvoice,
  type PrintLine,
  type PrintMark,
} from './printing.schemas.ts'
import type { PrintRow } from './printing.store.ts'

/**
 * An invoice as the paper prints it, from its row (number, warehouse, route, print mark) and the
 * supplier's JSON as sent (every other printed field: the intake keeps all of it). Fields the
 * supplier did not send are null; a value of an unexpected type is printed as text, never lost.
 */
export function printInvoiceOf(clock: Clock, row: PrintRow, original: Record<string, unknown>): PrintInvoice {
  const lines = Array.isArray(original.LineasFactura)
    ? (original.LineasFactura as unknown[]).filter(isRecord).map(printLineOf)
    : []
  let boxes = 0
  let looseMilli = 0
  for (const line of lines) {
    const factor = factorOf({ factor_conversion: line.FactorConversion })
    const milli = toMilliUnits(line.unidades)
    if (isBoxLine(line.UniVenta, factor)) {
      const whole = Math.floor(milli / (factor * 1000))
      boxes += whole
      looseMilli += milli - whole * factor * 1000
    } else looseMilli += milli
  }
  return {
    factura: row.nfactura,
    manifiesto: row.manifiesto,
    almacen: row.almacen,
    ruta: (row.numero_ruta ?? '').trim(),
    total: row.total,
    anulada: row.annulled_at !== null,
    impresa: markOf(clock, row),
    cajas: boxes,
    unidades_sueltas: looseMilli / 1000,
    encabezado: {
      ...textFields(original, HEADER_TEXT_FIELDS),
      FechaFactura: row.fecha_factura,
      FechaVencimiento: dateOf(original.FechaVencimiento),
      FechaLimImpre: dateOf(original.FechaLimImpre),
    },
    importes: amountFields(original, AMOUNT_FIELDS),
    lineas: lines,
  }
}

/** The print mark as the answers show it, or null when the invoice was never printed. */
export function markOf(
  clock: Clock,
  row: Pick<PrintRow, 'first_at' | 'first_by' | 'last_at' | 'last_by' | 'copies'>,
): PrintMark | null {
  if (row.first_at === null) return null
  return {
    primera_en: formatLocalDateTime(clock, row.first_at),
    primera_por: row.first_by!,
    ultima_en: formatLocalDateTime(clock, row.last_at!),
    ultima_por: row.last_by!,
    copias: row.copies ?? 0,
  }
}

/**
 * The route order of the sheet and the invoices: by NumeroRuta (numbers as numbers: route 9
 * before 10), then by invoice number.
 */
export function byRoute(a: { ruta: string; factura: string }, b: { ruta: string; factura: string }): number {
  return ROUTE_ORDER.compare(a.ruta, b.ruta) || ROUTE_ORDER.compare(a.factura, b.factura)
}

const ROUTE_ORDER = new Intl.Collator('es', { numeric: true })

function printLineOf(raw: Record<string, unknown>): PrintLine {
  const amounts = amountFields(raw, LINE_AMOUNT_FIELDS)
  const units = lineUnits({
    cantidad_fracciones: amounts.CantidadFracciones,
    cantidad_caja: amounts.CantidadCaja,
    factor_conversion: amounts.FactorConversion,
  })
  const factor = factorOf({ factor_conversion: amounts.FactorConversion })
  const texts = textFields(raw, LINE_TEXT_FIELDS)
  return {
    NumeroLinea: typeof raw.NumeroLinea === 'number' && Number.isInteger(raw.NumeroLinea) ? raw.NumeroLinea : null,
    ...texts,
    ...amounts,
    unidades: units,
    cantidad: isBoxLine(texts.UniVenta, factor) ? boxesAndUnits(units, factor) : unitsText(units),
  }
}

function textFields<const Names extends readonly string[]>(
  raw: Record<string, unknown>,
  names: Names,
): { [N in Names[number]]: string | null } {
  return Object.fromEntries(names.map((name) => [name, textOf(raw[name])])) as { [N in Names[number]]: string | null }
}

function amountFields<const Names extends readonly string[]>(
  raw: Record<string, unknown>,
  names: Names,
): { [N in Names[number]]: number | null } {
  return Object.fromEntries(names.map((name) => [name, amountOf(raw[name])])) as { [N in Names[number]]: number | null }
}

function textOf(value: unknown): string | null {
  if (value === null || value === undefined) return null
  if (typeof value === 'string') return value.trim() === '' ? null : value.trim()
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return JSON.stringify(value)
}

function amountOf(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value)
  return null
}

/** `2027-06-30T00:00:00.000Z` → `2027-06-30`: the interface's dates are calendar days sent as UTC midnight. */
function dateOf(value: unknown): string | null {
  const text = textOf(value)
  if (text === null) return null
  return /^\d{4}-\d{2}-\d{2}/.test(text) ? text.slice(0, 10) : text
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
