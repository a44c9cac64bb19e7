import { useState } from 'preact/hooks'
import { api } from '../../api/client.ts'
import type { ReturnState } from '../../api/types.ts'
import { money } from '../../format.ts'
import { isSupervisor } from '../../session.ts'
import { ActionDialog, DateField, ErrorNote, Field, Loading, Notice, Page, Pager, Tabs } from '../../ui/components.tsx'
import { matches, pageOf, useFilters, useLoad } from '../../ui/data.ts'
import { ReturnsTable } from './tabla.tsx'

const DEFAULTS = { estado: 'pending', fecha: '', q: '', pagina: '1' }
const STATES: Array<{ value: ReturnState; label: string }> = [
  { value: 'pending', label: 'Pendientes' },
  { value: 'approved', label: 'Aprobadas' },
  { value: 'rejected', label: 'Rechazadas' },
  { value: 'cancelled', label: 'Anuladas' },
]

/** Devoluciones: by state and date, searchable; approved one by one or a selection at once; exported for the supplier. */
export function ReturnsScreen() {
  const [filters, setFilters] = useFilters(DEFAULTS)
  const estado = (STATES.find((state) => state.value === filters.estado)?.value ?? 'pending') as ReturnState
  const loaded = useLoad(() => api.returns.list({ estado, fecha: filters.fecha || undefined }), [estado, filters.fecha])
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set())
  const [bulk, setBulk] = useState(false)
  const [notice, setNotice] = useState<string | null>(null)
  const found = (loaded.data ?? []).filter((item) => matches([item.factura, item.manifiesto, item.id], filters.q))
  const page = pageOf(found, Number(filters.pagina))
  const supervisor = isSupervisor.value
  const chosen = found.filter((item) => selected.has(item.id) && item.estado === 'pending')
  const href = (value: string) => {
    const params = new URLSearchParams()
    if (value !== 'pending') params.set('estado', value)
    if (filters.fecha) params.set('fecha', filters.fecha)
    const text = params.toString()
    return `/devoluciones${text ? `?${text}` : ''}`
  }
  const changed = () => {
    setSelected(new Set())
    loaded.reload()
  }
  return (
    <Page title="Devoluciones" subtitle="Lo que el almacén devuelve al proveedor, por factura.">
      <Tabs label="Estado de las devoluciones" items={STATES.map((state) => ({ label: state.label, href: href(state.value), current: state.value === estado }))} />
      <form class="filtros" role="search" aria-label="Buscar devoluciones" onSubmit={(event) => event.preventDefault()}>
        <Field label="Buscar" hint="Número de factura, de manifiesto o de devolución">
          {(id, hint) => <input id={id} type="search" aria-describedby={hint} value={filters.q} onInput={(event) => setFilters({ q: event.currentTarget.value }, { replace: true })} />}
        </Field>
        <DateField label="Registradas el día" value={filters.fecha} onChange={(fecha) => setFilters({ fecha }, { replace: true })} />
      </form>
      <Notice text={notice} />
      {supervisor && estado === 'pending' && found.length > 0 && (
        <div class="barra-seleccion" role="group" aria-label="Acciones con la selección">
          <span>{chosen.length === 0 ? 'Marque las devoluciones pendientes que quiera aprobar juntas.' : `${chosen.length} seleccionadas · ${money(chosen.reduce((sum, item) => sum + item.total, 0))}`}</span>
          <button type="button" class="principal" disabled={chosen.length === 0} onClick={() => setBulk(true)}>
            Aprobar seleccionadas
          </button>
        </div>
      )}
      <ErrorNote error={loaded.error} />
      {loaded.loading && !loaded.data ? (
        <Loading what="las devoluciones" />
      ) : (
        <>
          <ReturnsTable
            returns={page.rows}
            onChanged={changed}
            selection={
              supervisor && estado === 'pending'
                ? {
                    selected,
                    toggle: (id) => {
                      const next = new Set(selected)
                      if (next.has(id)) next.delete(id)
                      else next.add(id)
                      setSelected(next)
                    },
                    toggleAll: (ids, on) => {
                      const next = new Set(selected)
                      for (const id of ids) if (on) next.add(id)
                      else next.delete(id)
                      setSelected(next)
                    },
                  }
                : undefined
            }
            empty={
              filters.q || filters.fecha
                ? 'Ninguna devolución coincide con la búsqueda. Quite el filtro de fecha o revise el número.'
                : estado === 'pending'
                  ? 'No hay devoluciones pendientes de aprobar. Se registran desde la factura (Manifiestos → factura → Registrar devolución).'
                  : `No hay devoluciones ${STATES.find((state) => state.value === estado)!.label.toLowerCase()}.`
            }
          />
          {found.length > 0 && <p class="pie-tabla">{found.length === 1 ? '1 devolución' : `${found.length} devoluciones`} · {money(found.reduce((sum, item) => sum + item.total, 0))}</p>}
          <Pager page={page.page} pages={page.pages} onPage={(value) => setFilters({ pagina: String(value) })} />
        </>
      )}
      {bulk && (
        <ActionDialog
          title={`Aprobar ${chosen.length} devoluciones`}
          message={<p>Las {chosen.length} devoluciones seleccionadas ({money(chosen.reduce((sum, item) => sum + item.total, 0))}) pasarán al listado que consulta el proveedor.</p>}
          confirmLabel="Aprobar seleccionadas"
          onConfirm={async () => {
            for (const item of chosen) await api.returns.approve(item.id)
          }}
          onDone={() => {
            setBulk(false)
            setNotice(`${chosen.length} devoluciones aprobadas.`)
            changed()
          }}
          onCancel={() => setBulk(false)}
        />
      )}
    </Page>
  )
}
