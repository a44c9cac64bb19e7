import { Link } from 'wouter-preact'
import { api } from '../../api/client.ts'
import { date, MANIFEST_STATES, quantity } from '../../format.ts'
import { useNarrow } from '../../ui/screen.ts'
import { DateField, Empty, ErrorNote, Field, Loading, Money, Page, Pager, SortHeader, StateTag, Tabs } from '../../ui/components.tsx'
import { useFilters, useLoad } from '../../ui/data.ts'
import { WarehouseFilter } from '../../ui/warehouse.tsx'
import { Deadline } from './plazo.tsx'

const DEFAULTS = { estado: 'imported', q: '', desde: '', hasta: '', almacen: '', orden: 'reciente', pagina: '1' }

/** Manifiestos: open or closed, by number, arrival date and warehouse, newest first, a page at a time. */
export function ManifestsScreen() {
  const [filters, setFilters] = useFilters(DEFAULTS)
  const estado = filters.estado === 'closed' ? 'closed' : 'imported'
  const number = filters.q.trim()
  const numberProblem = number !== '' && !/^[0-9]{1,20}$/.test(number)
  const order = (['reciente', 'antiguo', 'total', '-total'] as const).find((value) => value === filters.orden) ?? 'reciente'
  const narrow = useNarrow()
  const loaded = useLoad(
    () =>
      api.manifests.page({
        estado,
        ...(number && !numberProblem ? { numero: number } : {}),
        ...(filters.desde ? { desde: filters.desde } : {}),
        ...(filters.hasta ? { hasta: filters.hasta } : {}),
        ...(filters.almacen ? { almacen: filters.almacen } : {}),
        orden: order,
        pagina: filters.pagina,
      }),
    [estado, number, numberProblem, filters.desde, filters.hasta, filters.almacen, order, filters.pagina],
  )
  const page = loaded.data
  const tab = (value: string) => `/manifiestos${value === 'imported' ? '' : `?estado=${value}`}`
  const filtered = number !== '' || filters.desde !== '' || filters.hasta !== '' || filters.almacen !== ''
  return (
    <Page title="Manifiestos" subtitle="Cada manifiesto agrupa las facturas de una entrega del proveedor; los más recientes primero.">
      <Tabs
        label="Estado de los manifiestos"
        items={[
          { label: 'Abiertos', href: tab('imported'), current: estado === 'imported' },
          { label: 'Cerrados', href: tab('closed'), current: estado === 'closed' },
        ]}
      />
      <form class="filtros" role="search" aria-label="Buscar manifiestos" noValidate onSubmit={(event) => event.preventDefault()}>
        <Field label="Número de manifiesto" hint={numberProblem ? 'Solo dígitos, por ejemplo 905112' : 'El número o su comienzo'}>
          {(id, hint) => <input id={id} type="search" inputMode="numeric" aria-describedby={hint} aria-invalid={numberProblem} value={filters.q} onInput={(event) => setFilters({ q: event.currentTarget.value }, { replace: true })} />}
        </Field>
        <DateField label="Ingresó desde" value={filters.desde} onChange={(desde) => setFilters({ desde }, { replace: true })} />
        <DateField label="Ingresó hasta" value={filters.hasta} onChange={(hasta) => setFilters({ hasta }, { replace: true })} />
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
              : estado === 'imported'
                ? 'No hay manifiestos abiertos en sus almacenes. Aparecen aquí cuando el proveedor envía facturas.'
                : 'No hay manifiestos cerrados en sus almacenes.'}
          </Empty>
        )
      ) : (
        <>
          <Pager where="arriba" page={page.pagina} pages={Math.max(1, Math.ceil(page.total / page.por_pagina))} onPage={(value) => setFilters({ pagina: String(value) })} label="Páginas de manifiestos" />
          <table aria-busy={loaded.loading} class="lista-manifiestos">
            <caption class="oculto">Manifiestos {estado === 'imported' ? 'abiertos' : 'cerrados'}</caption>
            <thead>
              <tr>
                <th scope="col">Manifiesto</th>
                <SortHeader label="Ingreso" field="fecha" order={order === 'reciente' ? '-fecha' : order === 'antiguo' ? 'fecha' : ''} onOrder={(next) => setFilters({ orden: next === 'fecha' ? 'antiguo' : 'reciente' })} defaultOrder="reciente" />
                {!narrow && <th scope="col">Almacenes</th>}
                {!narrow && <th scope="col">Estado</th>}
                <th scope="col" class="num">Facturas</th>
                <SortHeader label="Total" field="total" numeric order={order} onOrder={(orden) => setFilters({ orden })} defaultOrder="reciente" />
                <th scope="col" class="num">Devoluciones aprobadas</th>
                {!narrow && <th scope="col" class="num">Conflictos</th>}
                <th scope="col">Plazo de devoluciones</th>
              </tr>
            </thead>
            <tbody>
              {page.manifiestos.map((manifest) => (
                <tr key={manifest.numero}>
                  <th scope="row">
                    <Link href={`/manifiestos/${manifest.numero}`}>{manifest.numero}</Link>
                    {narrow && (
                      <span class="detalle">
                        {manifest.almacenes.join(', ')}
                        {manifest.conflictos_pendientes > 0 && (
                          <>
                            {' '}
                            <StateTag state="conflicto" label={manifest.conflictos_pendientes === 1 ? '1 conflicto' : `${quantity(manifest.conflictos_pendientes)} conflictos`} />
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
                    <Money amount={manifest.devoluciones.total_aprobado} />
                  </td>
                  {!narrow && <td class="num">{manifest.conflictos_pendientes > 0 ? <StateTag state="conflicto" label={quantity(manifest.conflictos_pendientes)} /> : '0'}</td>}
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
                  <Money amount={page.totales.devoluciones_aprobadas} />
                </td>
                <td colSpan={narrow ? 1 : 2} />
              </tr>
            </tfoot>
          </table>
          <Pager where="abajo" page={page.pagina} pages={Math.max(1, Math.ceil(page.total / page.por_pagina))} onPage={(value) => setFilters({ pagina: String(value) })} label="Páginas de manifiestos" />
        </>
      )}
    </Page>
  )
}
