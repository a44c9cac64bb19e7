import { Link } from 'wouter-preact'
import { api } from '../../api/client.ts'
import { date, MANIFEST_STATES } from '../../format.ts'
import { DateField, Empty, ErrorNote, Field, Loading, Money, Page, Pager, StateTag, Tabs } from '../../ui/components.tsx'
import { matches, pageOf, useFilters, useLoad } from '../../ui/data.ts'
import { Deadline } from './plazo.tsx'

const DEFAULTS = { estado: 'imported', q: '', desde: '', hasta: '', pagina: '1' }

/** Manifiestos: open or closed, by number and arrival date, a page at a time. */
export function ManifestsScreen() {
  const [filters, setFilters] = useFilters(DEFAULTS)
  const estado = filters.estado === 'closed' ? 'closed' : 'imported'
  const loaded = useLoad(() => api.manifests.list({ estado, desde: filters.desde || undefined, hasta: filters.hasta || undefined }), [estado, filters.desde, filters.hasta])
  const found = (loaded.data ?? []).filter((manifest) => matches([manifest.numero], filters.q))
  const page = pageOf(found, Number(filters.pagina))
  const tab = (value: string) => `/manifiestos${value === 'imported' ? '' : `?estado=${value}`}`
  return (
    <Page title="Manifiestos" subtitle="Cada manifiesto agrupa las facturas de una entrega del proveedor.">
      <Tabs
        label="Estado de los manifiestos"
        items={[
          { label: 'Abiertos', href: tab('imported'), current: estado === 'imported' },
          { label: 'Cerrados', href: tab('closed'), current: estado === 'closed' },
        ]}
      />
      <form class="filtros" role="search" aria-label="Buscar manifiestos" onSubmit={(event) => event.preventDefault()}>
        <Field label="Número de manifiesto">
          {(id) => <input id={id} type="search" inputMode="numeric" value={filters.q} onInput={(event) => setFilters({ q: event.currentTarget.value }, { replace: true })} />}
        </Field>
        <DateField label="Ingresó desde" value={filters.desde} onChange={(desde) => setFilters({ desde }, { replace: true })} />
        <DateField label="Ingresó hasta" value={filters.hasta} onChange={(hasta) => setFilters({ hasta }, { replace: true })} />
      </form>
      <ErrorNote error={loaded.error} />
      {loaded.loading && !loaded.data ? (
        <Loading what="los manifiestos" />
      ) : found.length === 0 ? (
        <Empty>
          {filters.q || filters.desde || filters.hasta
            ? 'Ningún manifiesto coincide con la búsqueda. Revise el número o amplíe las fechas.'
            : estado === 'imported'
              ? 'No hay manifiestos abiertos en sus almacenes. Aparecen aquí cuando el proveedor envía facturas.'
              : 'No hay manifiestos cerrados en sus almacenes.'}
        </Empty>
      ) : (
        <>
          <table>
            <caption class="oculto">Manifiestos {estado === 'imported' ? 'abiertos' : 'cerrados'}</caption>
            <thead>
              <tr>
                <th scope="col">Manifiesto</th>
                <th scope="col">Ingreso</th>
                <th scope="col">Estado</th>
                <th scope="col" class="num">Facturas</th>
                <th scope="col" class="num">Total</th>
                <th scope="col" class="num">Devoluciones aprobadas</th>
                <th scope="col">Plazo de devoluciones</th>
              </tr>
            </thead>
            <tbody>
              {page.rows.map((manifest) => (
                <tr key={manifest.numero}>
                  <th scope="row">
                    <Link href={`/manifiestos/${manifest.numero}`}>{manifest.numero}</Link>
                  </th>
                  <td>{date(manifest.fecha_ingreso)}</td>
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
                  <td>
                    <Deadline manifest={manifest} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p class="pie-tabla">{found.length === 1 ? '1 manifiesto' : `${found.length} manifiestos`}</p>
          <Pager page={page.page} pages={page.pages} onPage={(value) => setFilters({ pagina: String(value) })} />
        </>
      )}
    </Page>
  )
}
