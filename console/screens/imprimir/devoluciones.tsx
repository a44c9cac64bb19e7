import { api } from '../../api/client.ts'
import type { ReturnListItem, ReturnState } from '../../api/types.ts'
import { count, date, dateTime, lineQuantityText, money, RETURN_STATES } from '../../format.ts'
import { useLoad } from '../../ui/data.ts'
import { allPages, Amount, cents, PrintSheet, SheetHead } from './hoja.tsx'

export interface ReturnsPrintFilters {
  desde?: string
  hasta?: string
  estado?: string
  almacen?: string
}

/**
 * Devoluciones (issue 42): the returns registered in a date range, of a state and warehouse,
 * grouped by manifest, each with its lines (product, boxes and units, amount) and concepto; the
 * total of each manifest and of the sheet.
 */
export function ReturnsPrint({ filters }: { filters: ReturnsPrintFilters }) {
  const estado = filters.estado as ReturnState | undefined
  const loaded = useLoad(
    () =>
      allPages(async (pagina) => {
        // As the list: approved returns go by their processing date (the one the supplier lists them by).
        const range =
          estado === 'approved'
            ? { procesadas_desde: filters.desde, procesadas_hasta: filters.hasta }
            : { desde: filters.desde, hasta: filters.hasta }
        const page = await api.returns.page({
          ...range,
          estado,
          almacen: filters.almacen,
          orden: 'fecha',
          pagina: String(pagina),
        })
        return { items: page.devoluciones, more: page.hay_mas }
      }),
    [filters.desde, filters.hasta, estado, filters.almacen],
  )
  return (
    <PrintSheet title="Devoluciones" ready={loaded.data !== undefined} error={loaded.error}>
      {loaded.data && <ReturnsSheet returns={loaded.data} filters={filters} />}
    </PrintSheet>
  )
}

function groupsOf(returns: readonly ReturnListItem[]): Array<{ manifiesto: string; returns: ReturnListItem[] }> {
  const groups = new Map<string, ReturnListItem[]>()
  for (const ret of returns) groups.set(ret.manifiesto, [...(groups.get(ret.manifiesto) ?? []), ret])
  return [...groups]
    .sort(([a], [b]) => a.localeCompare(b, 'es', { numeric: true }))
    .map(([manifiesto, rows]) => ({ manifiesto, returns: rows }))
}

function covers(filters: ReturnsPrintFilters): string {
  const verb = filters.estado === 'approved' ? 'procesadas' : 'registradas'
  const range =
    filters.desde && filters.hasta
      ? `${verb} del ${date(filters.desde)} al ${date(filters.hasta)}`
      : filters.desde
        ? `${verb} desde el ${date(filters.desde)}`
        : filters.hasta
          ? `${verb} hasta el ${date(filters.hasta)}`
          : 'todas las fechas'
  const state =
    filters.estado && filters.estado in RETURN_STATES
      ? RETURN_STATES[filters.estado as ReturnState].toLowerCase() + 's'
      : 'en todos los estados'
  return `${range} · ${state}${filters.almacen ? ` · almacén ${filters.almacen}` : ''}`
}

function ReturnsSheet({ returns, filters }: { returns: ReturnListItem[]; filters: ReturnsPrintFilters }) {
  const groups = groupsOf(returns)
  const total = returns.reduce((sum, ret) => sum + cents(ret.total), 0) / 100
  return (
    <>
      <SheetHead title="Devoluciones">
        {covers(filters)} · {count(returns.length, 'devolución', 'devoluciones')} de{' '}
        {count(groups.length, 'manifiesto')}
      </SheetHead>
      <table class="tabla-impresa devoluciones-impresas">
        <thead>
          <tr>
            <th scope="col">Devolución</th>
            <th scope="col">Producto</th>
            <th scope="col">Cantidad</th>
            <th scope="col" class="num">
              Importe
            </th>
          </tr>
        </thead>
        {groups.map((group) => (
          <tbody key={group.manifiesto} class="grupo">
            <tr class="titulo-grupo">
              <th scope="rowgroup" colSpan={4}>
                Manifiesto {group.manifiesto} · {count(group.returns.length, 'devolución', 'devoluciones')}
              </th>
            </tr>
            {group.returns.map((ret) =>
              ret.lineas.map((line, index) => (
                <tr key={`${ret.id}-${line.numeroLinea}`} class={index === 0 ? 'primera' : undefined}>
                  <td>
                    {index === 0 && (
                      <>
                        <strong>N.º {ret.id}</strong> · {dateTime(ret.fecha)} · {RETURN_STATES[ret.estado]}
                        <br />
                        {ret.factura} · {ret.cliente}
                        <br />
                        {ret.conceptoDescripcion}
                      </>
                    )}
                  </td>
                  <td>
                    {line.productoId} {line.producto}
                  </td>
                  <td>{lineQuantityText(line.unidades, line.uniVenta, line.factor_conversion)}</td>
                  <Amount value={line.lineTotal} />
                </tr>
              )),
            )}
            <tr class="subtotal">
              <th scope="row" colSpan={3}>
                Total del manifiesto {group.manifiesto}
              </th>
              <td class="num">{money(group.returns.reduce((sum, ret) => sum + cents(ret.total), 0) / 100)}</td>
            </tr>
          </tbody>
        ))}
        <tfoot>
          <tr class="total">
            <th scope="row" colSpan={3}>
              Total ({count(returns.length, 'devolución', 'devoluciones')})
            </th>
            <td class="num">{money(total)}</td>
          </tr>
        </tfoot>
      </table>
    </>
  )
}
