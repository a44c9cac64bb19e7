import type { Actor } from '../access/actor.ts'
import { formatLocalDateTime, today, type Clock } from '../core/clock.ts'
import type { ClientContract } from '../config/contract.ts'
import type { Database } from '../db/database.ts'
import { invalidInput } from '../core/errors.ts'
import { writeXlsx } from '../core/xlsx.ts'
import { findInvoiceOriginals } from '../invoices/invoices.store.ts'
import { toCsv, toXlsx, type ExportCell, type ExportTable } from './export.sheet.ts'
import { listingQuantity } from './listed-lines.ts'
import { boxesAndUnits, centsToAmount, isBoxLine, unitsText } from '../shared/quantities.ts'
import { RETURN_EXPORT_LIMIT, type ReturnState } from './returns.schemas.ts'
import { returnFiltersOf, type ReturnListFilters } from './returns.service.ts'
import { findReturnLines, type ReturnLineRow, type ReturnRow } from './returns.store.ts'
import { countReturns, findReturns, findSupplierWorkbookLines, type ReturnFilters } from './return-lists.store.ts'
import { SUPPLIER_SHEET, supplierWorkbookRows } from './supplier-workbook.ts'

export interface ExportDeps {
  db: Database
  clock: Clock
  /** Cantidad is written as the client's listing writes it under the active contract. */
  contract: ClientContract
}

export interface ExportFile {
  bytes: Buffer
  contentType: string
  fileName: string
}

export const EXPORT_CONTENT_TYPES = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  proveedor: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
}

/** As the console names them. */
const STATE_NAMES: Record<ReturnState, string> = {
  pending: 'Pendiente',
  approved: 'Aprobada',
  rejected: 'Rechazada',
  cancelled: 'Anulada',
}

/** The columns of the export, in order: a header and how each return line fills it. */
const COLUMNS: ReadonlyArray<{
  header: string
  cell: (ret: ReturnRow, line: ReturnLineRow, deps: ExportDeps) => ExportCell
}> = [
  { header: 'Devolución', cell: (ret) => ({ number: ret.id }) },
  { header: 'Estado', cell: (ret) => ({ text: STATE_NAMES[ret.estado] }) },
  { header: 'Fecha', cell: (ret) => ({ dateTime: ret.fecha.replace('T', ' ') }) },
  {
    header: 'Registrada en',
    cell: (ret, _line, { clock }) => ({ dateTime: formatLocalDateTime(clock, ret.registered_at) }),
  },
  { header: 'Factura', cell: (ret) => ({ text: ret.nfactura }) },
  { header: 'Manifiesto', cell: (ret) => ({ text: ret.manifiesto }) },
  { header: 'Almacén', cell: (ret) => ({ text: ret.almacen }) },
  { header: 'Cliente ID', cell: (ret) => ({ text: ret.cliente_id }) },
  { header: 'Cliente', cell: (ret) => ({ text: ret.cliente }) },
  { header: 'Concepto', cell: (ret) => ({ text: ret.reason_codigo }) },
  { header: 'Descripción del concepto', cell: (ret) => ({ text: ret.reason_descripcion }) },
  { header: 'Línea', cell: (_ret, line) => ({ number: line.numero_linea }) },
  { header: 'Producto ID', cell: (_ret, line) => ({ text: line.producto_id }) },
  { header: 'Producto', cell: (_ret, line) => ({ text: line.producto_desc }) },
  { header: 'Unidad', cell: (_ret, line) => ({ text: line.uni_venta ?? '' }) },
  {
    header: 'Cantidad',
    cell: (_ret, line, { contract }) => ({ number: Number(listingQuantity(line, contract.listing.quantity)) }),
  },
  { header: 'Unidades', cell: (_ret, line) => ({ number: line.units }) },
  {
    header: 'Cajas y unidades',
    cell: (_ret, line) => ({
      text: isBoxLine(line.uni_venta, line.factor_conversion)
        ? boxesAndUnits(line.units, line.factor_conversion)
        : unitsText(line.units),
    }),
  },
  { header: 'Importe', cell: (_ret, line) => ({ number: centsToAmount(line.amount_cents), amount: true }) },
  { header: 'Total de la devolución', cell: (ret) => ({ number: centsToAmount(ret.total_cents), amount: true }) },
  {
    header: 'Procesada',
    cell: (ret) => ({
      dateTime: ret.processed_date === null ? '' : `${ret.processed_date} ${ret.processed_time ?? '00:00:00'}`,
    }),
  },
]

/**
 * The returns of the operator's list (same filters, the actor's warehouses) with their lines, as
 * a CSV or XLSX file named `devoluciones-<today>.<formato>`: one row per return line, by return id
 * and line. @throws DomainError INVALID_INPUT when more than RETURN_EXPORT_LIMIT returns match.
 */
export async function exportReturns(
  deps: ExportDeps,
  actor: Actor,
  formato: 'csv' | 'xlsx',
  filters: ReturnListFilters,
): Promise<ExportFile> {
  const where = returnFiltersOf(actor, filters)
  requireExportable(deps, where)
  const returns = findReturns(deps.db, where)
  const lines = findReturnLines(
    deps.db,
    returns.map((row) => row.id),
  )
  const table: ExportTable = {
    header: COLUMNS.map((column) => column.header),
    rows: returns.flatMap((ret) =>
      (lines.get(ret.id) ?? []).map((line) => COLUMNS.map((column) => column.cell(ret, line, deps))),
    ),
  }
  const bytes = formato === 'csv' ? toCsv(table) : await toXlsx(table, 'Devoluciones')
  return {
    bytes,
    contentType: EXPORT_CONTENT_TYPES[formato],
    fileName: `devoluciones-${today(deps.clock).toString()}.${formato}`,
  }
}

/**
 * The supplier's returns workbook ("71 columnas", src/returns/supplier-workbook.ts) of the returns
 * the same filters find in the actor's warehouses — the approved ones unless `estado` asks for
 * another — named `devoluciones-proveedor-<today>.xlsx`: one row per returned line, by return id
 * and NumeroLinea. Everything is read first, in one synchronous stretch (one consistent view of
 * the database); the sheet is then written in time slices.
 * @throws DomainError INVALID_INPUT when more than RETURN_EXPORT_LIMIT returns match.
 */
export async function exportSupplierWorkbook(
  deps: ExportDeps,
  actor: Actor,
  filters: ReturnListFilters,
): Promise<ExportFile> {
  const where = returnFiltersOf(actor, { ...filters, estado: filters.estado ?? 'approved' })
  requireExportable(deps, where)
  const lines = findSupplierWorkbookLines(deps.db, where)
  const originals = findInvoiceOriginals(deps.db, [...new Set(lines.map((line) => line.invoice_id))])
  const bytes = await writeXlsx(SUPPLIER_SHEET, supplierWorkbookRows(lines, originals, deps.clock.zone))
  return {
    bytes,
    contentType: EXPORT_CONTENT_TYPES.proveedor,
    fileName: `devoluciones-proveedor-${today(deps.clock).toString()}.xlsx`,
  }
}

/** @throws DomainError INVALID_INPUT when more than RETURN_EXPORT_LIMIT returns match: one export reads them all at once. */
function requireExportable(deps: ExportDeps, where: ReturnFilters): void {
  const { count } = countReturns(deps.db, where)
  if (count > RETURN_EXPORT_LIMIT) {
    throw invalidInput(
      `Los filtros abarcan ${count} devoluciones y una exportación admite a lo sumo ${RETURN_EXPORT_LIMIT}: acote las fechas (desde, hasta) o el estado.`,
    )
  }
}
