import type { ClientContract } from '../config/contract.ts'
import { centsToSixDecimals, listedQuantity, unitsQuantity } from '../shared/quantities.ts'
import type { ReturnLineTable } from '../db/tables.ts'
import type { ReturnRow } from './returns.store.ts'

/** The fields of a returned line the listing shows. */
export type ListedLine = Pick<
  ReturnLineTable,
  'numero_linea' | 'producto_id' | 'producto_desc' | 'uni_venta' | 'factor_conversion' | 'units' | 'amount_cents'
>

/**
 * Writes one page of the client's listing (interface-v1 §2.3) as JSON text. JSON.stringify
 * cannot write `150.000000`, so this writes the objects itself: strings through JSON.stringify,
 * the amounts and quantities as exact decimals with six places, fields in the interface's order.
 */
export function serializeListing(
  rows: readonly ReturnRow[],
  linesOf: (row: ReturnRow) => string = (row) => row.listed_lines,
): string {
  return `[${rows.map((row) => serializeReturn(row, linesOf(row))).join(',')}]`
}

type Quantity = ClientContract['listing']['quantity']

/**
 * `lineasDevolucion` of one return. In the listing's first unit (boxes for CJ lines) it is
 * written once, when the return is registered (its lines never change); in units (v2) when listed.
 */
export function serializeListedLines(lines: readonly ListedLine[], quantity: Quantity = 'sales-unit'): string {
  return `[${lines.map((line) => serializeLine(line, quantity)).join(',')}]`
}

function serializeReturn(row: ReturnRow, lines: string): string {
  const fields: Array<[string, string]> = [
    ['devolucion', text(String(row.id))],
    ['factura', text(row.nfactura)],
    ['clienteid', text(row.cliente_id)],
    ['cliente', text(row.cliente)],
    ['fecha', text(row.fecha)],
    ['total', centsToSixDecimals(row.total_cents)],
    ['almacen', text(row.almacen)],
    ['idConcepto', text(row.reason_id_proveedor ?? row.reason_codigo)],
    ['concepto', text(row.reason_descripcion)],
    ['numeroManifiesto', text(row.manifiesto)],
    ['fechaProcesado', row.processed_date === null ? 'null' : text(`${row.processed_date}T00:00:00`)],
    ['horaProcesado', row.processed_time === null ? 'null' : text(row.processed_time)],
    ['lineasDevolucion', lines],
  ]
  return objectOf(fields)
}

function serializeLine(line: ListedLine, quantity: Quantity): string {
  return objectOf([
    ['productoId', text(line.producto_id)],
    ['producto', text(line.producto_desc)],
    ['cantidad', listingQuantity(line, quantity)],
    ['numeroLinea', text(String(line.numero_linea))],
    ['lineTotal', centsToSixDecimals(line.amount_cents)],
  ])
}

/** A line's `cantidad` as the client's listing writes it: in units (v2), or boxes for CJ lines (v1). */
export function listingQuantity(
  line: Pick<ListedLine, 'units' | 'uni_venta' | 'factor_conversion'>,
  quantity: Quantity,
): string {
  return quantity === 'units'
    ? unitsQuantity(line.units)
    : listedQuantity(line.units, line.uni_venta, line.factor_conversion)
}

function objectOf(fields: ReadonlyArray<[string, string]>): string {
  return `{${fields.map(([name, value]) => `"${name}":${value}`).join(',')}}`
}

function text(value: string): string {
  return JSON.stringify(value)
}
