import { useState } from 'preact/hooks'
import { api, type ApiError } from '../../api/client.ts'
import type { ReturnFilters, ReturnListItem, ReturnState } from '../../api/types.ts'
import { money } from '../../format.ts'
import { isSupervisor } from '../../session.ts'
import { ErrorNote, Loading, Notice, Page, Tabs } from '../../ui/components.tsx'
import { ActionDialog } from '../../ui/dialog.tsx'
import { DownloadButton } from '../../ui/download.tsx'
import { DateField, Field } from '../../ui/fields.tsx'
import { Pager } from '../../ui/lists.tsx'
import { useFilters, useLoad } from '../../ui/data.ts'
import { WarehouseFilter } from '../../ui/warehouse.tsx'
import { ReturnsTable } from './tabla.tsx'
import { PrintLink, printAddress } from '../imprimir/enlaces.tsx'

const DEFAULTS = { estado: 'pending', q: '', desde: '', hasta: '', almacen: '', orden: 'reciente', pagina: '1' }
const STATES: Array<{ value: ReturnState; label: string }> = [
  { value: 'pending', label: 'Pendientes' },
  { value: 'approved', label: 'Aprobadas' },
  { value: 'rejected', label: 'Rechazadas' },
  { value: 'cancelled', label: 'Anuladas' },
]

/**
 * Devoluciones: by state, registration dates, client, invoice or manifest, newest first; approved
 * one by one or a selection at once; the listed returns exported for the supplier (CSV, Excel).
 */
export function ReturnsScreen() {
  const [filters, setFilters] = useFilters(DEFAULTS)
  const estado = (STATES.find((state) => state.value === filters.estado)?.value ?? 'pending') as ReturnState
  const search = filters.q.trim()
  // The approved tab goes by the processing date: the one the supplier lists them by.
  const byProcessing = estado === 'approved'
  const query: Omit<ReturnFilters, 'pagina' | 'orden'> = {
    estado,
    ...(search ? { buscar: search } : {}),
    ...(filters.desde ? { [byProcessing ? 'procesadas_desde' : 'desde']: filters.desde } : {}),
    ...(filters.hasta ? { [byProcessing ? 'procesadas_hasta' : 'hasta']: filters.hasta } : {}),
    ...(filters.almacen ? { almacen: filters.almacen } : {}),
  }
  const order =
    (['reciente', 'total', '-total', 'fecha', '-fecha'] as const).find((value) => value === filters.orden) ?? 'reciente'
  const loaded = useLoad(
    () => api.returns.page({ ...query, orden: order, pagina: filters.pagina }),
    [JSON.stringify(query), order, filters.pagina],
  )
  /** Chosen pending returns (kept across pages), with their totals. */
  const [selected, setSelected] = useState<ReadonlyMap<string, number>>(new Map())
  const [bulk, setBulk] = useState(false)
  const [notice, setNotice] = useState<string | null>(null)
  const [exportError, setExportError] = useState<ApiError | null>(null)
  const page = loaded.data
  const supervisor = isSupervisor.value
  const chosenTotal = [...selected.values()].reduce((sum, total) => sum + total, 0)
  const filtered = search !== '' || filters.desde !== '' || filters.hasta !== '' || filters.almacen !== ''
  const href = (value: string) => {
    const params = new URLSearchParams()
    if (value !== 'pending') params.set('estado', value)
    // Dates mean registration on one tab and processing on another: they stay behind.
    for (const key of ['q', 'almacen'] as const) if (filters[key]) params.set(key, filters[key])
    const text = params.toString()
    return `/devoluciones${text ? `?${text}` : ''}`
  }
  const totalsOf = (ids: string[]) =>
    new Map((page?.devoluciones ?? []).filter((item) => ids.includes(item.id)).map((item) => [item.id, item.total]))
  const changed = () => {
    setSelected(new Map())
    loaded.reload()
  }
  return (
    <Page
      title="Devoluciones"
      subtitle="Lo que el almacén devuelve al proveedor, por factura; las más recientes primero."
      actions={
        <>
          <PrintLink
            href={printAddress.returns({
              desde: filters.desde || undefined,
              hasta: filters.hasta || undefined,
              estado,
              almacen: filters.almacen || undefined,
            })}
          />
          <DownloadButton href={api.returns.exportUrl('csv', query)} label="Exportar CSV" onError={setExportError} />
          <DownloadButton href={api.returns.exportUrl('xlsx', query)} label="Exportar Excel" onError={setExportError} />
          {/* The supplier receives the approved returns: its workbook is offered where they are listed. */}
          {estado === 'approved' && (
            <DownloadButton
              href={api.returns.exportUrl('proveedor', query)}
              label="Libro del proveedor"
              onError={setExportError}
            />
          )}
        </>
      }
    >
      <Tabs
        label="Estado de las devoluciones"
        items={STATES.map((state) => ({
          label: state.label,
          href: href(state.value),
          current: state.value === estado,
        }))}
      />
      <form
        class="filtros"
        role="search"
        aria-label="Buscar devoluciones"
        noValidate
        onSubmit={(event) => event.preventDefault()}
      >
        <Field label="Buscar" hint="Factura, cliente, código, RTN, ruta o manifiesto; sin tildes">
          {(id, hint) => (
            <input
              id={id}
              type="search"
              maxLength={100}
              aria-describedby={hint}
              value={filters.q}
              onInput={(event) => setFilters({ q: event.currentTarget.value }, { replace: true })}
            />
          )}
        </Field>
        {byProcessing ? (
          <>
            <DateField
              label="Procesadas desde"
              hint="Fecha de proceso: la del listado del proveedor"
              value={filters.desde}
              onChange={(desde) => setFilters({ desde }, { replace: true })}
            />
            <DateField
              label="Procesadas hasta"
              hint="dd/mm/aaaa"
              value={filters.hasta}
              onChange={(hasta) => setFilters({ hasta }, { replace: true })}
            />
          </>
        ) : (
          <>
            <DateField
              label="Registradas desde"
              value={filters.desde}
              onChange={(desde) => setFilters({ desde }, { replace: true })}
            />
            <DateField
              label="Registradas hasta"
              value={filters.hasta}
              onChange={(hasta) => setFilters({ hasta }, { replace: true })}
            />
          </>
        )}
        <WarehouseFilter value={filters.almacen} onChange={(almacen) => setFilters({ almacen }, { replace: true })} />
      </form>
      <Notice text={notice} />
      <ErrorNote error={exportError} />
      {supervisor && estado === 'pending' && (page?.total ?? 0) > 0 && (
        <div class="barra-seleccion" role="group" aria-label="Acciones con la selección">
          <span>
            {selected.size === 0
              ? 'Marque las devoluciones pendientes que quiera aprobar juntas; «▸ líneas» muestra qué devuelve cada una.'
              : `${selected.size} seleccionadas · ${money(chosenTotal)}`}
          </span>
          <span class="acciones">
            {selected.size > 0 && (
              <button type="button" class="enlace" onClick={() => setSelected(new Map())}>
                Quitar la selección
              </button>
            )}
            <button type="button" class="principal" disabled={selected.size === 0} onClick={() => setBulk(true)}>
              Aprobar seleccionadas
            </button>
          </span>
        </div>
      )}
      <ErrorNote error={loaded.error} />
      {loaded.loading && !page ? (
        <Loading what="las devoluciones" />
      ) : (
        page && (
          <>
            <Pager
              where="arriba"
              page={page.pagina}
              pages={Math.max(1, Math.ceil(page.total / page.por_pagina))}
              onPage={(value) => setFilters({ pagina: String(value) })}
            />
            <ReturnsTable<ReturnListItem>
              sorting={{ order, onOrder: (orden) => setFilters({ orden }) }}
              totals={page.total > 0 ? { count: page.total, amount: page.totales.importe } : undefined}
              returns={page.devoluciones}
              onChanged={changed}
              extraColumns={[
                {
                  header: 'Cliente',
                  cell: (item) => (
                    <>
                      {item.cliente}
                      <span class="detalle">
                        {' '}
                        {item.clienteid} · {item.almacen}
                      </span>
                    </>
                  ),
                },
              ]}
              selection={
                supervisor && estado === 'pending'
                  ? {
                      selected: new Set(selected.keys()),
                      // Updates from the previous selection: two quick clicks never lose one.
                      toggle: (id) =>
                        setSelected((previous) => {
                          const next = new Map(previous)
                          if (next.has(id)) next.delete(id)
                          else next.set(id, totalsOf([id]).get(id) ?? 0)
                          return next
                        }),
                      toggleAll: (ids, on) =>
                        setSelected((previous) => {
                          const next = new Map(previous)
                          if (on) for (const [id, total] of totalsOf(ids)) next.set(id, total)
                          else for (const id of ids) next.delete(id)
                          return next
                        }),
                    }
                  : undefined
              }
              empty={
                filtered
                  ? 'Ninguna devolución coincide con la búsqueda. Quite un filtro o revise el número o el nombre.'
                  : estado === 'pending'
                    ? 'No hay devoluciones pendientes de aprobar. Se registran desde la factura (Manifiestos → factura → Registrar devolución).'
                    : `No hay devoluciones ${STATES.find((state) => state.value === estado)!.label.toLowerCase()}.`
              }
            />
            <Pager
              where="abajo"
              page={page.pagina}
              pages={Math.max(1, Math.ceil(page.total / page.por_pagina))}
              onPage={(value) => setFilters({ pagina: String(value) })}
            />
          </>
        )
      )}
      {bulk && (
        <ActionDialog
          title={`Aprobar ${selected.size} devoluciones`}
          message={
            <p>
              Las {selected.size} devoluciones seleccionadas ({money(chosenTotal)}) pasarán juntas al listado que
              consulta el proveedor. Si una no se puede aprobar, no se aprueba ninguna y el mensaje dice cuál.
            </p>
          }
          confirmLabel="Aprobar seleccionadas"
          onConfirm={() => api.returns.approveMany([...selected.keys()])}
          onDone={() => {
            setBulk(false)
            setNotice(`${selected.size} devoluciones aprobadas.`)
            changed()
          }}
          onCancel={() => setBulk(false)}
        />
      )}
    </Page>
  )
}
