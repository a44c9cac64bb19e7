import { useState } from 'preact/hooks'
import { Link } from 'wouter-preact'
import { api, type ApiError } from '../../api/client.ts'
import type { ManifestFilters } from '../../api/types.ts'
import { count, date, MANIFEST_STATES, quantity } from '../../format.ts'
import { useNarrow } from '../../ui/screen.ts'
import { Empty, ErrorNote, Loading, Money, Page, StateTag, Tabs } from '../../ui/components.tsx'
import { DownloadButton } from '../../ui/download.tsx'
import { DateField, Field } from '../../ui/fields.tsx'
import { Pager, SortHeader } from '../../ui/lists.tsx'
import { useFilters, useLoad } from '../../ui/data.ts'
import { WarehouseFilter } from '../../ui/warehouse.tsx'
import { tone } from '../liquidacion/saldo.ts'
import { Deadline } from './plazo.tsx'
import { PrintLink, printAddress } from '../imprimir/enlaces.tsx'

const DEFAULTS = {
  estado: 'imported',
  liquidacion: '',
  q: '',
  desde: '',
  hasta: '',
  almacen: '',
  orden: 'reciente',
  pagina: '1',
}
const ORDERS = ['reciente', 'antiguo', 'total', '-total', 'diferencia', '-diferencia'] as const

/** The list's views: open ones, those still to settle, those ready to close, closed ones. */
const VIEWS = [
  { key: 'abiertos', label: 'Abiertos', href: '/manifiestos' },
  { key: 'pendiente', label: 'Por liquidar', href: '/manifiestos?liquidacion=pendiente&orden=-diferencia' },
  { key: 'lista', label: 'Listos para cerrar', href: '/manifiestos?liquidacion=lista' },
  { key: 'cerrados', label: 'Cerrados', href: '/manifiestos?estado=closed' },
] as const

/** What the subtitle says of the order. */
const ORDER_SENTENCES: Record<(typeof ORDERS)[number], string> = {
  reciente: 'los más recientes primero',
  antiguo: 'los más antiguos primero',
  total: 'los de menor total primero',
  '-total': 'los de mayor total primero',
  diferencia: 'los que más depositaron de más primero',
  '-diferencia': 'los que más deben depositar primero',
}

/**
 * Manifiestos: open (all, still to settle, ready to close) or closed, by number, arrival date and
 * warehouse, newest first or by total or the settlement's diferencia, a page at a time, with their money.
 */
export function ManifestsScreen() {
  const [filters, setFilters] = useFilters(DEFAULTS)
  const liquidacion =
    filters.liquidacion === 'pendiente' || filters.liquidacion === 'lista' ? filters.liquidacion : undefined
  const estado = liquidacion !== undefined ? undefined : filters.estado === 'closed' ? 'closed' : 'imported'
  const view = liquidacion ?? (estado === 'closed' ? 'cerrados' : 'abiertos')
  const number = filters.q.trim()
  const numberProblem = number !== '' && !/^[0-9]{1,20}$/.test(number)
  const order = ORDERS.find((value) => value === filters.orden) ?? 'reciente'
  const narrow = useNarrow()
  const query: Omit<ManifestFilters, 'pagina'> = {
    ...(estado ? { estado } : {}),
    ...(liquidacion ? { liquidacion } : {}),
    ...(number && !numberProblem ? { numero: number } : {}),
    ...(filters.desde ? { desde: filters.desde } : {}),
    ...(filters.hasta ? { hasta: filters.hasta } : {}),
    ...(filters.almacen ? { almacen: filters.almacen } : {}),
    orden: order,
  }
  const loaded = useLoad(
    () => api.manifests.page({ ...query, pagina: filters.pagina }),
    [estado, liquidacion, number, numberProblem, filters.desde, filters.hasta, filters.almacen, order, filters.pagina],
  )
  const [exportError, setExportError] = useState<ApiError | null>(null)
  const page = loaded.data
  const filtered = number !== '' || filters.desde !== '' || filters.hasta !== '' || filters.almacen !== ''
  return (
    <Page
      title="Manifiestos"
      subtitle={`Cada manifiesto agrupa las facturas de una entrega del proveedor; ${ORDER_SENTENCES[order]}.`}
      actions={
        <>
          {filters.desde && filters.hasta && (
            <PrintLink
              href={printAddress.products({
                desde: filters.desde,
                hasta: filters.hasta,
                almacen: filters.almacen || undefined,
              })}
              label="Imprimir productos"
            />
          )}
          <DownloadButton href={api.manifests.exportUrl('csv', query)} label="Exportar CSV" onError={setExportError} />
          <DownloadButton
            href={api.manifests.exportUrl('xlsx', query)}
            label="Exportar Excel"
            onError={setExportError}
          />
        </>
      }
    >
      <ErrorNote error={exportError} />
      <Tabs
        label="Estado de los manifiestos"
        items={VIEWS.map((item) => ({ label: item.label, href: item.href, current: item.key === view }))}
      />
      <form
        class="filtros"
        role="search"
        aria-label="Buscar manifiestos"
        noValidate
        onSubmit={(event) => event.preventDefault()}
      >
        <Field
          label="Número de manifiesto"
          hint={numberProblem ? 'Solo dígitos, por ejemplo 905112' : 'El número o su comienzo'}
        >
          {(id, hint) => (
            <input
              id={id}
              type="search"
              inputMode="numeric"
              aria-describedby={hint}
              aria-invalid={numberProblem}
              value={filters.q}
              onInput={(event) => setFilters({ q: event.currentTarget.value }, { replace: true })}
            />
          )}
        </Field>
        <DateField
          label="Ingresó desde"
          value={filters.desde}
          onChange={(desde) => setFilters({ desde }, { replace: true })}
        />
        <DateField
          label="Ingresó hasta"
          value={filters.hasta}
          onChange={(hasta) => setFilters({ hasta }, { replace: true })}
        />
        <WarehouseFilter value={filters.almacen} onChange={(almacen) => setFilters({ almacen }, { replace: true })} />
      </form>
      <ErrorNote error={loaded.error} />
      {loaded.loading && !page ? (
        <Loading what="los manifiestos" />
      ) : !page || page.manifiestos.length === 0 ? (
        loaded.error === null && (
          <Empty>
            {filtered
              ? 'Ningún manifiesto coincide con la búsqueda. Revise el número, amplíe las fechas o quite el almacén.'
              : view === 'pendiente'
                ? 'Nada por liquidar: todos los manifiestos abiertos de sus almacenes tienen su dinero depositado y sus devoluciones decididas.'
                : view === 'lista'
                  ? 'Ningún manifiesto abierto está liquidado todavía. Registre sus depósitos desde el manifiesto.'
                  : estado === 'imported'
                    ? 'No hay manifiestos abiertos en sus almacenes. Aparecen aquí cuando el proveedor envía facturas.'
                    : 'No hay manifiestos cerrados en sus almacenes.'}
          </Empty>
        )
      ) : (
        <>
          <Pager
            where="arriba"
            page={page.pagina}
            pages={Math.max(1, Math.ceil(page.total / page.por_pagina))}
            onPage={(value) => setFilters({ pagina: String(value) })}
            label="Páginas de manifiestos"
          />
          <table aria-busy={loaded.loading} class="lista-manifiestos">
            <caption class="oculto">Manifiestos {VIEWS.find((item) => item.key === view)!.label.toLowerCase()}</caption>
            <thead>
              <tr>
                <th scope="col">Manifiesto</th>
                <SortHeader
                  label="Ingreso"
                  field="fecha"
                  order={order === 'reciente' ? '-fecha' : order === 'antiguo' ? 'fecha' : ''}
                  onOrder={(next) => setFilters({ orden: next === 'fecha' ? 'antiguo' : 'reciente' })}
                  defaultOrder="reciente"
                />
                {!narrow && <th scope="col">Almacenes</th>}
                {!narrow && <th scope="col">Estado</th>}
                <th scope="col" class="num">
                  Facturas
                </th>
                <SortHeader
                  label="Total"
                  field="total"
                  numeric
                  order={order}
                  onOrder={(orden) => setFilters({ orden })}
                  defaultOrder="reciente"
                />
                <th scope="col" class="num">
                  A depositar
                </th>
                {!narrow && (
                  <th scope="col" class="num">
                    Depositado
                  </th>
                )}
                <SortHeader
                  label="Diferencia"
                  field="diferencia"
                  numeric
                  order={order}
                  onOrder={(orden) => setFilters({ orden })}
                  defaultOrder="reciente"
                />
                {!narrow && (
                  <th scope="col" class="num">
                    Conflictos
                  </th>
                )}
                <th scope="col">Plazo de devoluciones</th>
              </tr>
            </thead>
            <tbody>
              {page.manifiestos.map((manifest) => (
                <tr key={manifest.numero}>
                  <th scope="row">
                    <Link
                      href={`/manifiestos/${manifest.numero}${view === 'pendiente' || view === 'lista' ? '?liquidacion=1' : ''}`}
                    >
                      {manifest.numero}
                    </Link>
                    {narrow && (
                      <span class="detalle">
                        {manifest.almacenes.join(', ')}
                        {manifest.conflictos_pendientes > 0 && (
                          <>
                            {' '}
                            <StateTag
                              state="conflicto"
                              label={
                                manifest.conflictos_pendientes === 1
                                  ? '1 conflicto'
                                  : `${quantity(manifest.conflictos_pendientes)} conflictos`
                              }
                            />
                          </>
                        )}
                      </span>
                    )}
                  </th>
                  <td class="fecha">{date(manifest.fecha_ingreso)}</td>
                  {!narrow && <td>{manifest.almacenes.join(', ')}</td>}
                  {!narrow && (
                    <td>
                      <StateTag state={manifest.estado} label={MANIFEST_STATES[manifest.estado]} />
                    </td>
                  )}
                  <td class="num">{quantity(manifest.total_facturas)}</td>
                  <td class="num">
                    <Money amount={manifest.total_importe} />
                  </td>
                  <td class="num">
                    <Money amount={manifest.liquidacion.a_depositar} />
                  </td>
                  {!narrow && (
                    <td class="num">
                      <Money amount={manifest.liquidacion.depositado} />
                    </td>
                  )}
                  <td class={`num ${tone(manifest.liquidacion.diferencia)}`}>
                    <Money amount={manifest.liquidacion.diferencia} />
                    {manifest.estado === 'imported' && manifest.liquidacion.lista_para_cerrar && (
                      <span class="detalle">Lista para cerrar</span>
                    )}
                    {manifest.liquidacion.devoluciones_pendientes > 0 && (
                      <span class="detalle">
                        {count(
                          manifest.liquidacion.devoluciones_pendientes,
                          'devolución pendiente',
                          'devoluciones pendientes',
                        )}
                      </span>
                    )}
                  </td>
                  {!narrow && (
                    <td class="num">
                      {manifest.conflictos_pendientes > 0 ? (
                        <StateTag state="conflicto" label={quantity(manifest.conflictos_pendientes)} />
                      ) : (
                        '0'
                      )}
                    </td>
                  )}
                  <td>
                    <Deadline manifest={manifest} />
                  </td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={narrow ? 2 : 4} class="num">
                  Total de lo filtrado ({page.total === 1 ? '1 manifiesto' : `${quantity(page.total)} manifiestos`})
                </th>
                <td class="num">{quantity(page.totales.facturas)}</td>
                <td class="num">
                  <Money amount={page.totales.importe} />
                </td>
                <td class="num">
                  <Money amount={page.totales.a_depositar} />
                </td>
                {!narrow && (
                  <td class="num">
                    <Money amount={page.totales.depositado} />
                  </td>
                )}
                <td class="num">
                  <Money amount={page.totales.diferencia} />
                </td>
                <td colSpan={narrow ? 1 : 2} />
              </tr>
            </tfoot>
          </table>
          <Pager
            where="abajo"
            page={page.pagina}
            pages={Math.max(1, Math.ceil(page.total / page.por_pagina))}
            onPage={(value) => setFilters({ pagina: String(value) })}
            label="Páginas de manifiestos"
          />
        </>
      )}
    </Page>
  )
}
