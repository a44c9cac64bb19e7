import { centsToSixDecimals, listedQuantity } from './quantities.ts'
import type { ReturnLineRow, ReturnRow } from './returns.store.ts'

/**
 * Writes one page of the client's listing (interface-v1 §2.3) as JSON text. JSON.stringify
 * cannot write `150.000000`, so this writes the objects itself: strings through JSON.stringify,
 * the amounts and quantities as exact decimals with six places, fields in the interface's order.
 */
export function serializeListing(rows: readonly ReturnRow[], lines: ReadonlyMap<number, readonly ReturnLineRow[]>): string {
  return `[${rows.map((row) => serializeReturn(row, lines.get(row.id) ?? [])).join(',')}]`
}

function serializeReturn(row: ReturnRow, lines: readonly ReturnLineRow[]): string {
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
    ['lineasDevolucion', `[${lines.map(serializeLine).join(',')}]`],
  ]
  return objectOf(fields)
}

function serializeLine(line: ReturnLineRow): string {
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
