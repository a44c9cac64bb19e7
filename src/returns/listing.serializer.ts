import { centsToSixDecimals, listedQuantity } from './quantities.ts'
import type { ReturnLineTable } from '../db/tables.ts'
import type { ReturnRow } from './returns.store.ts'

/** The fields of a returned line the listing shows. */
export type ListedLine = Pick<ReturnLineTable, 'numero_linea' | 'producto_id' | 'producto_desc' | 'uni_venta' | 'factor_conversion' | 'units' | 'amount_cents'>

/**
 * Writes one page of the client's listing (interface-v1 §2.3) as JSON text. JSON.stringify
 * cannot write `150.000000`, so this writes the objects itself: strings through JSON.stringify,
 * the amounts and quantities as exact decimals with six places, fields in the interface's order.
 */
export function serializeListing(rows: readonly ReturnRow[]): string {
  return `[${rows.map(serializeReturn).join(',')}]`
}

/** `lineasDevolucion` of one return, written when it is registered (its lines never change). */
export function serializeListedLines(lines: readonly ListedLine[]): string {
  return `[${lines.map(serializeLine).join(',')}]`
}

function serializeReturn(row: ReturnRow): string {
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
    ['lineasDevolucion', row.listed_lines],
  ]
  return objectOf(fields)
}

function serializeLine(line: ListedLine): string {
  return objectOf([
    ['productoId', text(line.producto_id)],
    ['producto', text(line.producto_desc)],
    ['cantidad', listedQuantity(line.units, line.uni_venta, line.factor_conversion)],
    ['numeroLinea', text(String(line.numero_linea))],
    ['lineTotal', centsToSixDecimals(line.amount_cents)],
  ])
}

function objectOf(fields: ReadonlyArray<[string, string]>): string {
  return `{${fields.map(([name, value]) => `"${name}":${value}`).join(',')}}`
}

function text(value: string): string {
  return JSON.stringify(value)
}
