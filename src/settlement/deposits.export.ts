import type { Actor } from '../access/actor.ts'
import { formatLocalDateTime, today } from '../core/clock.ts'
import { invalidInput } from '../core/errors.ts'
import { EXPORT_CONTENT_TYPES, type ExportFile } from '../returns/export.service.ts'
import { toCsv, toXlsx, type ExportCell, type ExportTable } from '../returns/export.sheet.ts'
import { centsToLempiras } from './cents.ts'
import { depositFiltersOf, type DepositListFilters } from './deposits.service.ts'
import { findDeposits, sumDeposits, type DepositRow } from './deposits.store.ts'
import { DEPOSIT_EXPORT_LIMIT } from './settlement.schemas.ts'
import type { SettlementDeps } from './settlement.service.ts'

const STATES = { active: 'activo', cancelled: 'anulado' } as const

const COLUMNS: ReadonlyArray<{ header: string; cell: (row: DepositRow, deps: SettlementDeps) => ExportCell }> = [
  { header: 'Depósito', cell: (row) => ({ number: row.id }) },
  { header: 'Fecha', cell: (row) => ({ date: row.fecha }) },
  { header: 'Banco', cell: (row) => ({ text: row.banco }) },
  { header: 'Referencia', cell: (row) => ({ text: row.referencia }) },
  { header: 'Manifiesto', cell: (row) => ({ text: row.manifiesto }) },
  { header: 'Almacén', cell: (row) => ({ text: row.almacen }) },
  { header: 'Monto', cell: (row) => ({ number: centsToLempiras(row.amount_cents), amount: true }) },
  { header: 'Estado', cell: (row) => ({ text: STATES[row.estado] }) },
  { header: 'Registrado por', cell: (row) => ({ text: row.registered_by }) },
  { header: 'Registrado en', cell: (row, deps) => ({ dateTime: formatLocalDateTime(deps.clock, row.registered_at) }) },
  { header: 'Notas', cell: (row) => ({ text: row.notas ?? '' }) },
  { header: 'Justificación', cell: (row) => ({ text: row.justificacion ?? '' }) },
  { header: 'Motivo de anulación', cell: (row) => ({ text: row.cancel_note ?? '' }) },
]

/**
 * The deposits of the list (same filters, the actor's warehouses) as a CSV or XLSX file named
 * `depositos-<today>.<formato>`, one row per deposit, newest slip first, and a last row with the
 * total. @throws DomainError INVALID_INPUT when more than DEPOSIT_EXPORT_LIMIT deposits match.
 */
export async function exportDeposits(
  deps: SettlementDeps,
  actor: Actor,
  formato: 'csv' | 'xlsx',
  filters: DepositListFilters,
): Promise<ExportFile> {
  const where = depositFiltersOf(actor, filters)
  const sums = sumDeposits(deps.db, where)
  if (sums.count > DEPOSIT_EXPORT_LIMIT) {
    throw invalidInput(
      `Los filtros abarcan ${sums.count} depósitos y una exportación admite a lo sumo ${DEPOSIT_EXPORT_LIMIT}: acote las fechas (desde, hasta), el banco o el almacén.`,
    )
  }
  const rows = findDeposits(deps.db, where)
  const total: ExportCell[] = COLUMNS.map((column) =>
    column.header === 'Monto'
      ? { number: centsToLempiras(sums.cents), amount: true }
      : column.header === 'Depósito'
        ? { text: 'Total' }
        : { text: '' },
  )
  const table: ExportTable = {
    header: COLUMNS.map((column) => column.header),
    rows: [...rows.map((row) => COLUMNS.map((column) => column.cell(row, deps))), total],
  }
  const bytes = formato === 'csv' ? toCsv(table) : await toXlsx(table, 'Depósitos')
  return {
    bytes,
    contentType: EXPORT_CONTENT_TYPES[formato],
    fileName: `depositos-${today(deps.clock).toString()}.${formato}`,
  }
}
