import Type, { type Static, type TSchema } from 'typebox'
import { LocalDate, WarehouseCode } from '../schemas/vocabulary.ts'

/**
 * What the print views need (issue 42), in one answer: a manifest's invoices with everything the
 * paper shows. The supplier's fields keep the supplier's spelling (docs/decisiones/api.md) and
 * come from the invoice as the supplier sent it (its original JSON), so a field the supplier adds
 * (CAI range, FechaLimImpre, the exempt and exonerated amounts…) is printed without a column of
 * its own; the fields of this service are snake_case.
 */

const Text = Type.Union([Type.String(), Type.Null()])
const Amount = Type.Union([Type.Number(), Type.Null()])

/** `{Name: schema}` for each name, keeping the names in the static type. */
function fieldsOf<const Names extends readonly string[], S extends TSchema>(
  names: Names,
  schema: S,
): { [N in Names[number]]: S } {
  return Object.fromEntries(names.map((name) => [name, schema])) as { [N in Names[number]]: S }
}

/** The header fields the invoice prints, as text (null: not sent). Dates as YYYY-MM-DD. */
export const HEADER_TEXT_FIELDS = [
  'NumeroPedido',
  'NumeroFacturaLX',
  'FechaFactura',
  'FechaVencimiento',
  'FechaLimImpre',
  'Vendedorid',
  'Vendedor',
  'Clienteid',
  'Cliente',
  'EntregarA',
  'Rtn',
  'Cai',
  'Rinicial',
  'Rfinal',
  'Depto',
  'Municipio',
  'Barrio',
  'Direccion',
  'Tel',
  'DirCasaMatriz',
  'DirSucursal',
  'OrdenEx',
  'RegExonerado',
  'RegSag',
  'TipoPago',
  'DiasCred',
  'TipoFactura',
] as const

/** The invoice's amounts as sent (null: not sent), in the supplier's spelling (ImporteExcento as it spells it). */
export const AMOUNT_FIELDS = [
  'ImporteExcento',
  'ImporteExento_Desc',
  'ImporteExento_ISV18',
  'ImporteExento_ISV15',
  'ImporteExento_Total',
  'ImporteExonerado',
  'ImporteExonerado_Desc',
  'ImporteExonerado_ISV18',
  'ImporteExonerado_ISV15',
  'ImporteExonerado_Total',
  'ImporteGrabado',
  'ImporteGravado_Desc',
  'ImporteGravado_ISV18',
  'ImporteGravado_ISV15',
  'ImporteGravado_Total',
  'ImporteTotal_Val',
  'DescuentosRebajas',
  'Isv15',
  'Isv18',
  'Total',
] as const

/** A line's fields as sent (numbers; null: not sent). */
export const LINE_AMOUNT_FIELDS = [
  'CantidadCaja',
  'CantidadFracciones',
  'FactorConversion',
  'Precio',
  'PrecioUnidadMinVenta',
  'Subtotal',
  'Descuento',
  'Impuesto',
  'Impuesto18',
  'PorcentajeImpuesto',
  'Total',
] as const
export const LINE_TEXT_FIELDS = ['ProductoId', 'ProductoDesc', 'UniVenta', 'TipoProducto'] as const

export const PrintMark = Type.Object(
  {
    primera_en: Type.String({ description: 'Cuándo se imprimió el original, YYYY-MM-DD HH:mm:ss, hora de Honduras' }),
    primera_por: Type.String({ description: 'Quién lo imprimió' }),
    ultima_en: Type.String({ description: 'La última impresión (el original o una copia)' }),
    ultima_por: Type.String(),
    copias: Type.Integer({ minimum: 0, description: 'Copias impresas después del original' }),
  },
  { description: 'La factura ya se imprimió: la próxima impresión dirá COPIA' },
)

export const PrintLine = Type.Object({
  NumeroLinea: Type.Union([Type.Integer(), Type.Null()]),
  ...fieldsOf(LINE_TEXT_FIELDS, Text),
  ...fieldsOf(LINE_AMOUNT_FIELDS, Amount),
  unidades: Type.Number({
    description: 'Unidades de la línea (CantidadFracciones, o CantidadCaja × FactorConversion + CantidadFracciones)',
  }),
  cantidad: Type.String({
    description: 'Como se cuentan en el almacén: «8 cajas + 55 unid.» en una línea de cajas, «12 unid.» en las demás',
  }),
})

export const PrintInvoice = Type.Object({
  factura: Type.String({ description: 'Nfactura' }),
  manifiesto: Type.String(),
  almacen: Type.String(),
  ruta: Type.String({ description: 'NumeroRuta sin espacios ("" si no vino)' }),
  total: Type.Number({ description: 'Total, L' }),
  anulada: Type.Boolean({ description: 'Confirmada como re-emisión: no se entrega ni cuenta en los totales' }),
  impresa: Type.Union([PrintMark, Type.Null()], {
    description: 'null: nunca se imprimió (la próxima impresión es el original)',
  }),
  cajas: Type.Integer({ minimum: 0, description: 'Cajas completas de sus líneas de cajas' }),
  unidades_sueltas: Type.Number({
    minimum: 0,
    description: 'Unidades fuera de cajas (las de líneas por unidad y las sueltas de las de cajas)',
  }),
  encabezado: Type.Object(fieldsOf(HEADER_TEXT_FIELDS, Text), {
    description: 'Los campos del encabezado como los envió el proveedor (fechas YYYY-MM-DD)',
  }),
  importes: Type.Object(fieldsOf(AMOUNT_FIELDS, Amount), {
    description: 'Los importes de la factura como los envió el proveedor',
  }),
  lineas: Type.Array(PrintLine),
})
export type PrintInvoice = Static<typeof PrintInvoice>
export type PrintLine = Static<typeof PrintLine>
export type PrintMark = Static<typeof PrintMark>

export const ManifestPrintQuery = Type.Object(
  { almacen: Type.Optional(WarehouseCode('Solo la parte de este almacén (uno de los suyos)')) },
  { additionalProperties: false },
)

export const ManifestPrint = Type.Object({
  manifiesto: Type.String(),
  estado: Type.Union([Type.Literal('imported'), Type.Literal('closed')]),
  fecha_ingreso: Type.String({ description: 'YYYY-MM-DD HH:mm:ss, hora de Honduras' }),
  almacenes: Type.Array(Type.String(), { description: 'Los almacenes de las facturas impresas' }),
  facturas: Type.Array(PrintInvoice, {
    description: 'Sus facturas de sus almacenes (o del almacen pedido), en orden de ruta: NumeroRuta, luego Nfactura',
  }),
})
export type ManifestPrint = Static<typeof ManifestPrint>

export const InvoicePrintParams = Type.Object({
  nfactura: Type.String({ minLength: 1, maxLength: 100, description: 'Nfactura' }),
})

/** At most this many invoices marked in one call: a whole manifest (the largest seen hold ~1,000). */
export const MAX_MARKED = 5000

export const MarkPrintedBody = Type.Object(
  {
    facturas: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
      minItems: 1,
      maxItems: MAX_MARKED,
      description: `Las facturas que se imprimen ahora (Nfactura, de 1 a ${MAX_MARKED}, sin repetir)`,
    }),
  },
  { additionalProperties: false },
)

export const MarkedPrint = Type.Object({
  factura: Type.String(),
  copia: Type.Boolean({ description: 'true: ya se había impreso, esta impresión es una copia (dice COPIA)' }),
  impresa: PrintMark,
})
export const MarkedPrints = Type.Object({ impresas: Type.Array(MarkedPrint, { description: 'En el orden pedido' }) })
export type MarkedPrints = Static<typeof MarkedPrints>

/** The products report: of one manifest, or of the manifests received in a date range. */
export const ProductsQuery = Type.Object(
  {
    manifiesto: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,20}$',
        description: 'NumeroManifiesto',
        errorMessage: 'solo dígitos (de 1 a 20)',
      }),
    ),
    desde: Type.Optional(LocalDate('Manifiestos ingresados desde esta fecha (YYYY-MM-DD, incluida)')),
    hasta: Type.Optional(LocalDate('Manifiestos ingresados hasta esta fecha (YYYY-MM-DD, incluida)')),
    almacen: Type.Optional(WarehouseCode('Solo facturas de este almacén (uno de los suyos)')),
  },
  { additionalProperties: false },
)

/** At most this many days in a range of the products report. */
export const MAX_PRODUCT_DAYS = 62

export const ProductRow = Type.Object({
  producto_id: Type.String(),
  producto: Type.String(),
  uni_venta: Text,
  factor_conversion: Type.Number({ description: 'Unidades por caja (1 si la línea no trae uno usable)' }),
  unidades: Type.Number(),
  cantidad: Type.String({ description: '«8 cajas + 55 unid.» para un producto de cajas, «12 unid.» para los demás' }),
  importe: Type.Number({ description: 'Σ Total de sus líneas, L' }),
  facturas: Type.Integer({ minimum: 0, description: 'En cuántas facturas aparece' }),
})

export const ProductReport = Type.Object({
  manifiesto: Type.Union([Type.String(), Type.Null()]),
  desde: Type.Union([Type.String(), Type.Null()]),
  hasta: Type.Union([Type.String(), Type.Null()]),
  almacen: Type.Union([Type.String(), Type.Null()]),
  productos: Type.Array(ProductRow, { description: 'Un renglón por producto (y unidades por caja), por código' }),
  totales: Type.Object({ facturas: Type.Integer({ minimum: 0 }), importe: Type.Number() }),
})
export type ProductReport = Static<typeof ProductReport>
