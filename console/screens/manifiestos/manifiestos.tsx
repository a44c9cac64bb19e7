import { Link } from 'wouter-preact'
import { api } from '../../api/client.ts'
import { date, MANIFEST_STATES } from '../../format.ts'
import { DateField, Empty, ErrorNote, Field, Loading, Money, Page, Pager, StateTag, Tabs } from '../../ui/components.tsx'
import { useFilters, useLoad } from '../../ui/data.ts'
import { WarehouseFilter } from '../../ui/warehouse.tsx'
import { Deadline } from './plazo.tsx'

const DEFAULTS = { estado: 'imported', q: '', desde: '', hasta: '', almacen: '', pagina: '1' }

/** Manifiestos: open or closed, by number, arrival date and warehouse, newest first, a page at a time. */
export function ManifestsScreen() {
  const [filters, setFilters] = useFilters(DEFAULTS)
  const estado = filters.estado === 'closed' ? 'closed' : 'imported'
  const number = filters.q.trim()
  const numberProblem = number !== '' && !/^[0-9]{1,20}$/.test(number)
  const loaded = useLoad(
    () =>
      api.manifests.page({
        estado,
        ...(number && !numberProblem ? { numero: number } : {}),
        ...(filters.desde ? { desde: filters.desde } : {}),
        ...(filters.hasta ? { hasta: filters.hasta } : {}),
        ...(filters.almacen ? { almacen: filters.almacen } : {}),
        pagina: filters.pagina,
      }),
    [estado, number, numberProblem, filters.desde, filters.hasta, filters.almacen, filters.pagina],
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
      <form class="filtros" role="search" aria-label="Buscar manifiestos" onSubmit={(event) => event.preventDefault()}>
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
          <table aria-busy={loaded.loading}>
            <caption class="oculto">Manifiestos {estado === 'imported' ? 'abiertos' : 'cerrados'}</caption>
            <thead>
              <tr>
                <th scope="col">Manifiesto</th>
                <th scope="col">Ingreso</th>
                <th scope="col">Almacenes</th>
                <th scope="col">Estado</th>
                <th scope="col" class="num">Facturas</th>
                <th scope="col" class="num">Total</th>
                <th scope="col" class="num">Devoluciones aprobadas</th>
                <th scope="col" class="num">Conflictos</th>
                <th scope="col">Plazo de devoluciones</th>
              </tr>
            </thead>
            <tbody>
              {page.manifiestos.map((manifest) => (
                <tr key={manifest.numero}>
                  <th scope="row">
                    <Link href={`/manifiestos/${manifest.numero}`}>{manifest.numero}</Link>
                  </th>
                  <td>{date(manifest.fecha_ingreso)}</td>
                  <td>{manifest.almacenes.join(', ')}</td>
                  <td>
                    <StateTag state={manifest.estado} label={MANIFEST_STATES[manifest.estado]} />
                  </td>
                  <td class="num">{manifest.total_facturas}</td>
                  <td class="num">
                    <Money amount={manifest.total_importe} />
                  </td>
                  <td class="num">
                    <Money amount={manifest.devoluciones.total_aprobado} />
                  </td>
                  <td class="num">{manifest.conflictos_pendientes > 0 ? <StateTag state="conflicto" label={String(manifest.conflictos_pendientes)} /> : '0'}</td>
                  <td>
                    <Deadline manifest={manifest} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p class="pie-tabla">{page.total === 1 ? '1 manifiesto' : `${page.total} manifiestos`}</p>
          <Pager page={page.pagina} pages={Math.max(1, Math.ceil(page.total / page.por_pagina))} onPage={(value) => setFilters({ pagina: String(value) })} />
        </>
      )}
    </Page>
  )
}
