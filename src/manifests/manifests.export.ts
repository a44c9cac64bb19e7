import type { Actor } from '../access/actor.ts'
import { today } from '../core/clock.ts'
import { invalidInput } from '../core/errors.ts'
import { EXPORT_CONTENT_TYPES, type ExportFile } from '../returns/export.service.ts'
import { toCsv, toXlsx, type ExportCell, type ExportTable } from '../returns/export.sheet.ts'
import type { ManifestView } from './manifests.schemas.ts'
import { listManifests, type ManifestDeps, type ManifestListFilters } from './manifests.service.ts'

/** At most this many manifests in one export: a larger one asks for a narrower range. */
export const MANIFEST_EXPORT_LIMIT = 20_000

const STATES = { imported: 'Abierto', closed: 'Cerrado' } as const

type Money = 'facturado' | 'devuelto' | 'a_depositar' | 'depositado' | 'ajustes' | 'diferencia'
const money = (header: string, field: Money) => ({
  header,
  cell: (view: ManifestView): ExportCell => ({ number: view.liquidacion[field], amount: true }),
  total: field,
})

const COLUMNS: ReadonlyArray<{ header: string; cell: (view: ManifestView) => ExportCell; total?: Money | 'facturas' }> =
  [
    { header: 'Manifiesto', cell: (view) => ({ text: view.numero }) },
    { header: 'Estado', cell: (view) => ({ text: STATES[view.estado] }) },
    { header: 'Fecha de ingreso', cell: (view) => ({ dateTime: view.fecha_ingreso }) },
    { header: 'Cerrado en', cell: (view) => ({ dateTime: view.cerrado_en ?? '' }) },
    {
      header: 'Almacenes',
      cell: (view) => ({ text: view.liquidacion.por_almacen.map((part) => part.almacen).join(', ') }),
    },
    { header: 'Facturas', cell: (view) => ({ number: view.total_facturas }), total: 'facturas' },
    money('Facturado', 'facturado'),
    money('Devuelto', 'devuelto'),
    money('A depositar', 'a_depositar'),
    money('Depositado', 'depositado'),
    money('Ajustes', 'ajustes'),
    money('Diferencia', 'diferencia'),
    { header: 'Devoluciones pendientes', cell: (view) => ({ number: view.liquidacion.devoluciones_pendientes }) },
    { header: 'Liquidado', cell: (view) => ({ text: view.liquidacion.liquidada ? 'Sí' : 'No' }) },
    { header: 'Plazo de devoluciones', cell: (view) => ({ dateTime: view.plazo_devoluciones ?? '' }) },
  ]

/**
 * The manifests of the list (same filters, the actor's warehouses) with their money — facturado,
 * devuelto, a depositar, depositado, ajustes, diferencia — as a CSV or XLSX file named
 * `manifiestos-<today>.<formato>`, one row per manifest by date of arrival (or `orden`), and a last
 * row with the totals (summed in cents). @throws DomainError INVALID_INPUT beyond MANIFEST_EXPORT_LIMIT.
 */
export async function exportManifests(
  deps: ManifestDeps,
  actor: Actor,
  formato: 'csv' | 'xlsx',
  filters: Omit<ManifestListFilters, 'pagina'>,
): Promise<ExportFile> {
  const views = listManifests(deps, actor, filters) as ManifestView[]
  if (views.length > MANIFEST_EXPORT_LIMIT) {
    throw invalidInput(
      `Los filtros abarcan ${views.length} manifiestos y una exportación admite a lo sumo ${MANIFEST_EXPORT_LIMIT}: acote las fechas (desde, hasta) o el estado.`,
    )
  }
  const totals: ExportCell[] = COLUMNS.map((column, index) => {
    if (index === 0) return { text: 'Total' }
    if (column.total === undefined) return { text: '' }
    if (column.total === 'facturas') return { number: views.reduce((sum, view) => sum + view.total_facturas, 0) }
    const field = column.total
    return {
      number: views.reduce((cents, view) => cents + Math.round(view.liquidacion[field] * 100), 0) / 100,
      amount: true,
    }
  })
  const table: ExportTable = {
    header: COLUMNS.map((column) => column.header),
    rows: [...views.map((view) => COLUMNS.map((column) => column.cell(view))), totals],
  }
  const bytes = formato === 'csv' ? toCsv(table) : await toXlsx(table, 'Manifiestos')
  return {
    bytes,
    contentType: EXPORT_CONTENT_TYPES[formato],
    fileName: `manifiestos-${today(deps.clock).toString()}.${formato}`,
  }
}
