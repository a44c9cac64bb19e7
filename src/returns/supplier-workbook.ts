import type { ZoneId } from '@js-joda/core'
import { dayMonthYearText, isoDateOf } from '../core/calendar.ts'
import type { XlsxCell, XlsxSheet } from '../core/xlsx.ts'
import { invoiceDate } from '../invoices/invoice-date.ts'
import { boxesAndLoose, centsToAmount, isBoxLine } from '../shared/quantities.ts'
import type { SupplierWorkbookLine } from './return-lists.store.ts'

/**
 * The supplier's returns workbook ("71 columnas"), in the layout its system reads today: the one
 * the system being replaced writes (`app/Exports/ReturnsDetailExport.php` of OPL_ALIANZA), which
 * copies the report the supplier itself made. One row per returned line, the invoice's header
 * repeated on each; the headers in that order and spelling; `0.0000` on the amounts and
 * quantities; header green (1A7A4A) in white bold Arial 8, every cell Arial 8, the PHP's widths,
 * the first row frozen with an autofilter.
 *
 * Every invoice field comes from the invoice's stored original — the JSON the supplier sent,
 * extra fields included (Barrio, Latitud, Rinicial, ImporteExento_*…) — so no column is empty
 * that the supplier filled. Texts are written as the old system's spreadsheet library wrote them:
 * a text that reads as a number without a leading zero (`20417`, a Clienteid) is a number cell;
 * dates are the text `dd/MM/yyyy HH:mm:ss`, as the PHP writes them.
 */
export interface WorkbookRow {
  line: SupplierWorkbookLine
  /** The invoice's stored original: the supplier's JSON. */
  invoice: Record<string, unknown>
  /** Its line of LineasFactura with the returned NumeroLinea (undefined if a later version dropped it). */
  invoiceLine: Record<string, unknown> | undefined
  zone: ZoneId
}

interface WorkbookColumn {
  header: string
  /** The PHP's `columnWidths()`. */
  width: number
  /** The PHP's DECIMAL_COLS: `0.0000`, right-aligned. */
  decimal?: true
  cell: (row: WorkbookRow) => XlsxCell
}

/** .NET's DateTime.MinValue, the supplier's "no date" (PHP: NET_NULL_DATE). */
const NET_NULL_DATE = '01/01/0001 00:00:00'

/** The 71 columns, in the PHP's order, each with its source (`sent`: the invoice's field as the supplier sent it). */
export const SUPPLIER_COLUMNS: readonly WorkbookColumn[] = [
  { header: 'NumeroLinea', width: 12, cell: ({ line }) => line.numero_linea },
  { header: 'ProductoId', width: 12, cell: ({ line }) => asWritten(line.producto_id) },
  { header: 'Nfactura', width: 14, cell: ({ line }) => asWritten(line.nfactura) },
  { header: 'CantidadCaja', width: 12, decimal: true, cell: ({ line }) => returnedQuantity(line).boxes },
  { header: 'Cantidad', width: 10, decimal: true, cell: ({ line }) => returnedQuantity(line).loose },
  // The supplier's id of the reason, or its code when it has none (as the returns listing's idConcepto).
  {
    header: 'MotivoDevolucion',
    width: 18,
    cell: ({ line }) => asWritten(line.reason_id_proveedor ?? line.reason_codigo),
  },
  { header: 'FechaFacturaConvertida', width: 22, cell: ({ line }) => storedDate(line.fecha_factura) },
  { header: 'IdDetalleDevolucion', width: 18, cell: ({ line }) => line.line_id },
  // The PHP writes the invoice's Id here too (its comment: "= id_fac_encabezado en Jaremar").
  { header: 'Id_Jaremar_DD', width: 14, cell: sent('Id') },
  { header: 'LineTotal', width: 12, decimal: true, cell: ({ line }) => centsToAmount(line.amount_cents) },
  { header: 'idDevolucion', width: 14, cell: ({ line }) => line.return_id },
  {
    header: 'id_fac_detalle',
    width: 14,
    cell: ({ invoiceLine }) => (invoiceLine === undefined ? null : textCell(invoiceLine.Id)),
  },
  { header: 'id_fac_encabezado', width: 16, cell: sent('Id') },
  { header: 'Id_Jaremar_F', width: 14, cell: sent('Id') },
  { header: 'FechaFactura', width: 22, cell: ({ line }) => storedDate(line.fecha_factura) },
  { header: 'FechaVencimiento', width: 22, cell: sentDate('FechaVencimiento') },
  { header: 'Vendedorid', width: 12, cell: sent('Vendedorid') },
  { header: 'Vendedor', width: 28, cell: sent('Vendedor') },
  { header: 'Clienteid', width: 12, cell: sent('Clienteid') },
  { header: 'Cliente', width: 32, cell: sent('Cliente') },
  { header: 'Depto', width: 18, cell: sent('Depto') },
  { header: 'Municipio', width: 18, cell: sent('Municipio') },
  { header: 'Barrio', width: 18, cell: sent('Barrio') },
  // The return's warehouse: its invoice's Almacen.
  { header: 'Almacen', width: 12, cell: ({ line }) => asWritten(line.almacen) },
  { header: 'TipoPago', width: 14, cell: sent('TipoPago') },
  { header: 'DiasCred', width: 10, cell: sentNumber('DiasCred') },
  { header: 'Rtn', width: 16, cell: sent('Rtn') },
  { header: 'Cai', width: 14, cell: sent('Cai') },
  // Empty in every workbook the supplier made and the PHP writes; the supplier sends them empty.
  { header: 'OrdenEx', width: 10, cell: sent('OrdenEx') },
  { header: 'RegExonerado', width: 14, cell: sent('RegExonerado') },
  { header: 'RegSag', width: 10, cell: sent('RegSag') },
  { header: 'Rinicial', width: 10, cell: sent('Rinicial') },
  { header: 'Rfinal', width: 10, cell: sent('Rfinal') },
  { header: 'Direccion', width: 36, cell: sent('Direccion') },
  { header: 'Tel', width: 14, cell: sent('Tel') },
  { header: 'Longitud', width: 14, decimal: true, cell: sentNumber('Longitud') },
  { header: 'Latitud', width: 14, decimal: true, cell: sentNumber('Latitud') },
  { header: 'FechaLimImpre', width: 22, cell: sentDate('FechaLimImpre') },
  { header: 'DirCasaMatriz', width: 30, cell: sent('DirCasaMatriz') },
  { header: 'DirSucursal', width: 30, cell: sent('DirSucursal') },
  { header: 'NumeroPedido', width: 14, cell: sent('NumeroPedido') },
  // The PHP trims it (the supplier pads it: "118  ").
  { header: 'NumeroRuta', width: 14, cell: ({ invoice }) => textCell(invoice.NumeroRuta, (text) => text.trim()) },
  { header: 'EntregarA', width: 22, cell: sent('EntregarA') },
  { header: 'ImporteExcento', width: 16, decimal: true, cell: sentNumber('ImporteExcento') },
  { header: 'ImporteExento_Desc', width: 18, decimal: true, cell: sentNumber('ImporteExento_Desc') },
  { header: 'ImporteExento_ISV18', width: 18, decimal: true, cell: sentNumber('ImporteExento_ISV18') },
  { header: 'ImporteExento_ISV15', width: 18, decimal: true, cell: sentNumber('ImporteExento_ISV15') },
  { header: 'ImporteExento_Total', width: 18, decimal: true, cell: sentNumber('ImporteExento_Total') },
  { header: 'ImporteExonerado', width: 18, decimal: true, cell: sentNumber('ImporteExonerado') },
  { header: 'ImporteExonerado_Desc', width: 20, decimal: true, cell: sentNumber('ImporteExonerado_Desc') },
  { header: 'ImporteExonerado_ISV18', width: 20, decimal: true, cell: sentNumber('ImporteExonerado_ISV18') },
  { header: 'ImporteExonerado_ISV15', width: 20, decimal: true, cell: sentNumber('ImporteExonerado_ISV15') },
  { header: 'ImporteExonerado_Total', width: 20, decimal: true, cell: sentNumber('ImporteExonerado_Total') },
  { header: 'ImporteGrabado', width: 18, decimal: true, cell: sentNumber('ImporteGrabado') },
  { header: 'ImporteGravado_Desc', width: 18, decimal: true, cell: sentNumber('ImporteGravado_Desc') },
  { header: 'ImporteGravado_ISV18', width: 18, decimal: true, cell: sentNumber('ImporteGravado_ISV18') },
  { header: 'ImporteGravado_ISV15', width: 18, decimal: true, cell: sentNumber('ImporteGravado_ISV15') },
  { header: 'ImporteGravado_Total', width: 18, decimal: true, cell: sentNumber('ImporteGravado_Total') },
  // The value the supplier sent; the PHP, which did not keep it, computed Total − Isv15 − Isv18.
  {
    header: 'ImporteTotal_Val',
    width: 18,
    decimal: true,
    cell: ({ invoice }) => numberSent(invoice.ImporteTotal_Val) ?? totalWithoutTax(invoice),
  },
  { header: 'DescuentosRebajas', width: 20, decimal: true, cell: sentNumber('DescuentosRebajas') },
  { header: 'Isv18', width: 14, decimal: true, cell: sentNumber('Isv18') },
  { header: 'Isv15', width: 14, decimal: true, cell: sentNumber('Isv15') },
  { header: 'Total', width: 14, decimal: true, cell: sentNumber('Total') },
  { header: 'CreationTime', width: 20, cell: () => NET_NULL_DATE },
  { header: 'LastModifierUserId', width: 20, cell: () => NET_NULL_DATE },
  { header: 'LastModificationTime', width: 20, cell: () => NET_NULL_DATE },
  { header: 'IsDeleted', width: 12, cell: () => 0 },
  { header: 'NumeroFacturaLX', width: 18, cell: sent('NumeroFacturaLX') },
  { header: 'NumeroManifiesto', width: 18, cell: ({ line }) => asWritten(line.manifiesto) },
  // Always 0, whatever the invoice's EstadoFactura: what the supplier's system receives (PHP).
  { header: 'EstadoFactura', width: 14, cell: () => 0 },
  { header: 'TipoFactura', width: 14, cell: sent('TipoFactura') },
]

export const SUPPLIER_SHEET: XlsxSheet = {
  name: 'Devoluciones',
  columns: SUPPLIER_COLUMNS.map((column) => ({
    header: column.header,
    width: column.width,
    ...(column.decimal ? { numberFormat: '0.0000', align: 'right' as const } : {}),
  })),
  font: { name: 'Arial', size: 8 },
  header: { fill: '1A7A4A', color: 'FFFFFF', height: 14 },
}

/**
 * The rows of the returned lines, made one at a time as the writer asks for them (in its time
 * slices); `originals` are the invoices' JSON texts, each parsed when a row first needs it.
 */
export function* supplierWorkbookRows(
  lines: readonly SupplierWorkbookLine[],
  originals: ReadonlyMap<number, string>,
  zone: ZoneId,
): Generator<XlsxCell[]> {
  const parsed = new Map<number, Record<string, unknown>>()
  for (const line of lines) {
    let invoice = parsed.get(line.invoice_id)
    if (invoice === undefined) {
      const text = originals.get(line.invoice_id)
      invoice = text === undefined ? {} : (JSON.parse(text) as Record<string, unknown>)
      parsed.set(line.invoice_id, invoice)
    }
    const row: WorkbookRow = { line, invoice, invoiceLine: invoiceLineOf(invoice, line.numero_linea), zone }
    yield SUPPLIER_COLUMNS.map((column) => column.cell(row))
  }
}

/** The first line of LineasFactura with this NumeroLinea (a repeated number keeps its first, as returns do). */
function invoiceLineOf(invoice: Record<string, unknown>, numeroLinea: number): Record<string, unknown> | undefined {
  const lines = invoice.LineasFactura
  if (!Array.isArray(lines)) return undefined
  return lines.find(
    (line): line is Record<string, unknown> => isRecord(line) && Number(line.NumeroLinea) === numeroLinea,
  )
}

/**
 * Whole boxes and loose units returned: a box line (UniVenta CJ, more than one unit a box) in
 * boxes and the units left over, any other line in units (the PHP's quantity_box and quantity).
 */
function returnedQuantity(line: SupplierWorkbookLine): { boxes: number; loose: number } {
  return isBoxLine(line.uni_venta, line.factor_conversion)
    ? boxesAndLoose(line.units, line.factor_conversion)
    : { boxes: 0, loose: line.units }
}

/** A text field of the invoice as the supplier sent it; empty when it sent none. */
function sent(field: string): (row: WorkbookRow) => XlsxCell {
  return ({ invoice }) => textCell(invoice[field])
}

/** A numeric field of the invoice: 0 when the supplier sent none (as the PHP writes a missing amount). */
function sentNumber(field: string): (row: WorkbookRow) => XlsxCell {
  return ({ invoice }) => {
    const value = invoice[field]
    if (value === undefined || value === null || value === '') return 0
    return numberSent(value) ?? textCell(value)
  }
}

/** A date field of the invoice as `dd/MM/yyyy 00:00:00` (read by the rules of FechaFactura); one it cannot read, as sent. */
function sentDate(field: string): (row: WorkbookRow) => XlsxCell {
  return ({ invoice, zone }) => {
    const value = invoice[field]
    if (typeof value !== 'string' || value === '') return textCell(value)
    const date = invoiceDate(value, zone)
    return date === null ? value : `${dayMonthYearText(date)} 00:00:00`
  }
}

function storedDate(date: string): string {
  return `${dayMonthYearText(isoDateOf(date)!)} 00:00:00`
}

/** A number, or a text that is one (`"-87.1821"`); undefined otherwise. */
function numberSent(value: unknown): number | undefined {
  if (typeof value === 'number') return value
  if (typeof value !== 'string' || value.trim() === '') return undefined
  const number = Number(value)
  return Number.isFinite(number) ? number : undefined
}

/** A field's value as text (a number as its JSON digits, any other value as its JSON), written as the PHP wrote texts. */
function textCell(value: unknown, adjust: (text: string) => string = (text) => text): XlsxCell {
  if (value === undefined || value === null) return null
  return asWritten(adjust(typeof value === 'string' ? value : JSON.stringify(value)))
}

/** PhpSpreadsheet's DefaultValueBinder: what reads as a number (its pattern) is a number cell. */
const NUMERIC_TEXT = /^[+-]?(\d+\.?\d*|\d*\.?\d+)([Ee][-+]?[0-2]?\d{1,3})?$/

/**
 * A text as the old system's spreadsheet library wrote it: '' is an empty cell; a numeric text is
 * a number, unless it has a leading zero (`0801…`, an RTN; `00912001`) — then it stays text, as
 * there — or has more digits than a number cell holds exactly (kept as text, every digit).
 */
export function asWritten(text: string): XlsxCell {
  if (text === '') return null
  if (!NUMERIC_TEXT.test(text)) return text
  const unsigned = text.replace(/^[+-]/, '')
  if (unsigned.length > 1 && unsigned[0] === '0' && unsigned[1] !== '.') return text
  const value = Number(text)
  if (!Number.isFinite(value) || (/^[+-]?\d+$/.test(text) && !Number.isSafeInteger(value))) return text
  return value
}

/** Total − Isv15 − Isv18 in exact millionths, rounded once to four decimals, half away from zero (the PHP's round(…, 4)). */
function totalWithoutTax(invoice: Record<string, unknown>): number {
  const micros = (field: string) => Math.round((numberSent(invoice[field]) ?? 0) * 1_000_000)
  const difference = micros('Total') - micros('Isv15') - micros('Isv18')
  return (Math.sign(difference) * Math.floor((Math.abs(difference) + 50) / 100)) / 10_000 || 0
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
