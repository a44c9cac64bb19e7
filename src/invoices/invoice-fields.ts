import type { InvoiceLineTable, InvoiceTable } from '../db/tables.ts'

/**
 * The interface's invoice and line fields (interface-v1 §2.1–2.2), each with its column and kind.
 * This one table drives the request schema (what is required, which types are accepted) and the
 * mapping of a received invoice to typed columns. Fields not listed are kept in `original`.
 */
export type FieldKind = 'text' | 'number' | 'integer' | 'factor'

/**
 * Limits of contract §9: amounts and quantities at most 10^12 in absolute value (every sum of
 * them stays exact in millionths); integers and identifiers sent as numbers exact (safe); a box
 * holds a positive whole number of units.
 */
export const MAX_AMOUNT = 1_000_000_000_000
export const MAX_FACTOR = 1_000_000

/**
 * Limits of text (contract §9): every string value of an invoice or a line, extra fields
 * included, at most 1,000 characters (Unicode code points, as JSON Schema counts them); an
 * `Nfactura` at most 50; a `NumeroManifiesto` 1 to 20 digits (interface-v1 §4.3 can only query
 * a manifest whose number is `[0-9]+`). A 30 MB `Cliente` would otherwise be stored, and then
 * served in every list that names it.
 */
export const MAX_TEXT_LENGTH = 1000
export const MAX_NFACTURA_LENGTH = 50
export const MANIFEST_NUMBER_PATTERN = '^[0-9]{1,20}$'

export interface FieldSpec<Column extends string> {
  name: string
  /** null: kept elsewhere (NumeroManifiesto becomes the manifest reference). */
  column: Column | null
  kind: FieldKind
  required: boolean
  /** Only for Total: a number ≥ 0 (contract §3). */
  nonNegative?: boolean
  /** Text: at most this many characters (default MAX_TEXT_LENGTH). */
  maxLength?: number
  /** Text: digits only (MANIFEST_NUMBER_PATTERN); a number sent for it must not be negative. */
  digits?: boolean
  description?: string
}

type InvoiceColumn = Exclude<
  keyof InvoiceTable,
  | 'id'
  | 'manifest_id'
  | 'batch_id'
  | 'total_micros'
  | 'original'
  | 'original_offset'
  | 'original_length'
  | 'created_at'
  | 'updated_at'
>
type LineColumn = Exclude<keyof InvoiceLineTable, 'id' | 'invoice_id' | 'position'>

const text = <C extends string>(name: string, column: C | null, required = false): FieldSpec<C> => ({
  name,
  column,
  kind: 'text',
  required,
})
const number = <C extends string>(name: string, column: C, required = false): FieldSpec<C> => ({
  name,
  column,
  kind: 'number',
  required,
})
const integer = <C extends string>(name: string, column: C, required = false): FieldSpec<C> => ({
  name,
  column,
  kind: 'integer',
  required,
})
const factor = <C extends string>(name: string, column: C): FieldSpec<C> => ({
  name,
  column,
  kind: 'factor',
  required: false,
})

export const INVOICE_FIELDS: ReadonlyArray<FieldSpec<InvoiceColumn>> = [
  { ...text('Nfactura', 'nfactura', true), maxLength: MAX_NFACTURA_LENGTH },
  { ...text<never>('NumeroManifiesto', null, true), digits: true },
  text('FechaFactura', 'fecha_factura', true),
  text('FechaVencimiento', 'fecha_vencimiento'),
  text('Almacen', 'almacen', true),
  text('Vendedorid', 'vendedor_id', true),
  text('Vendedor', 'vendedor'),
  text('Clienteid', 'cliente_id', true),
  text('Cliente', 'cliente', true),
  text('Rtn', 'rtn'),
  text('Cai', 'cai'),
  text('Depto', 'depto'),
  text('Municipio', 'municipio'),
  text('Direccion', 'direccion'),
  text('Tel', 'tel'),
  text('NumeroPedido', 'numero_pedido'),
  text('NumeroRuta', 'numero_ruta'),
  text('NumeroFacturaLX', 'numero_factura_lx'),
  text('TipoPago', 'tipo_pago'),
  integer('DiasCred', 'dias_cred'),
  text('TipoFactura', 'tipo_factura'),
  integer('EstadoFactura', 'estado_factura'),
  number('ImporteGrabado', 'importe_grabado'),
  number('ImporteGravado_ISV15', 'importe_gravado_isv15'),
  number('ImporteGravado_Total', 'importe_gravado_total'),
  number('Isv15', 'isv15'),
  number('Isv18', 'isv18'),
  number('DescuentosRebajas', 'descuentos_rebajas'),
  { ...number('Total', 'total', true), nonNegative: true },
]

export const LINE_FIELDS: ReadonlyArray<FieldSpec<LineColumn>> = [
  integer('Id', 'line_ref_id'),
  integer('InvoiceId', 'invoice_ref_id'),
  integer('NumeroLinea', 'numero_linea', true),
  text('ProductoId', 'producto_id', true),
  text('ProductoDesc', 'producto_desc', true),
  text('UniVenta', 'uni_venta'),
  text('TipoProducto', 'tipo_producto'),
  number('CantidadFracciones', 'cantidad_fracciones'),
  number('CantidadCaja', 'cantidad_caja'),
  factor('FactorConversion', 'factor_conversion'),
  number('Precio', 'precio'),
  number('PrecioUnidadMinVenta', 'precio_unidad_min_venta'),
  number('Subtotal', 'subtotal'),
  number('Descuento', 'descuento'),
  number('Impuesto', 'impuesto'),
  number('PorcentajeImpuesto', 'porcentaje_impuesto'),
  number('Total', 'total', true),
  number('Peso', 'peso'),
]

export const LINES_FIELD = 'LineasFactura'

/** Decimal text of a number as JSON writes it: a string field sent as a number keeps these digits. */
export function textOf(value: string | number): string {
  return typeof value === 'number' ? JSON.stringify(value) : value
}

/** A numeric field sent as a numeric string is read as that number. */
export function numberOf(value: string | number): number {
  return typeof value === 'number' ? value : Number(value)
}

/** Normalises one field to its column type; null or absent stays null. */
export function columnValue(spec: FieldSpec<string>, value: unknown): string | number | null {
  if (value === undefined || value === null) return null
  if (spec.kind === 'text') return textOf(value as string | number)
  return numberOf(value as string | number)
}

/** Writes `columnValue` of each field of an object into `params`, the first at `params[at]`. */
export type ColumnValuesWriter = (object: Record<string, unknown>, params: unknown[], at: number) => void

/**
 * `columnValue` of every field, as straight-line code made once from the list: each field read by
 * its own name. A loop reading `object[spec.name]` asks V8 for a different property at one place
 * for every field, the slowest kind of read, and step 8 does it for every field of every line
 * (~145,000 reads for the supplier's batch of 1,000 invoices): ~6 ms of it on a fresh service.
 * The code is made from this file's own lists (names quoted as JSON), never from input.
 */
export function compileColumnValues(fields: ReadonlyArray<FieldSpec<string>>): ColumnValuesWriter {
  const assignments = fields.map(
    (spec, index) =>
      `value = object[${JSON.stringify(spec.name)}]; params[at + ${index}] = value === undefined || value === null ? null : ${spec.kind === 'text' ? 'textOf' : 'numberOf'}(value)`,
  )
  const source = `return function columnValues(object, params, at) {\n  let value\n  ${assignments.join('\n  ')}\n}`
  return new Function('textOf', 'numberOf', source)(textOf, numberOf) as ColumnValuesWriter
}
