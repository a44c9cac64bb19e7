import { useState } from 'preact/hooks'
import { Link } from 'wouter-preact'
import { api } from '../../api/client.ts'
import type { ManifestDetail } from '../../api/types.ts'
import { date, dateTime, MANIFEST_STATES, OTHER_WAREHOUSE_INVOICE, quantity } from '../../format.ts'
import { useNarrow } from '../../ui/screen.ts'
import { canReadAudit, isAdmin, isSupervisor } from '../../session.ts'
import { BackLink, Empty, ErrorNote, Loading, Money, Notice, Page, StateTag } from '../../ui/components.tsx'
import { ActionDialog } from '../../ui/dialog.tsx'
import { DateField, Field } from '../../ui/fields.tsx'
import { Pager, SortHeader } from '../../ui/lists.tsx'
import { useFilters, useLoad } from '../../ui/data.ts'
import { History } from '../auditoria/historial.tsx'
import { SettlementPanel } from '../liquidacion/panel.tsx'
import { Deadline } from './plazo.tsx'
import { ManifestPrintLinks } from '../imprimir/enlaces.tsx'

const DEFAULTS = { q: '', almacen: '', orden: 'llegada', pagina: '1' }

/** One manifest: its invoices (searchable), totals, returns window, Cerrar / Reabrir and its history. */
export function ManifestScreen({ numero }: { numero: string }) {
  const loaded = useLoad(() => api.manifests.get(numero), [numero])
  const [dialog, setDialog] = useState<'cerrar' | 'reabrir' | 'plazo' | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const [changes, setChanges] = useState(0)
  const [view, setView] = useFilters({ liquidacion: '' })
  const manifest = loaded.data
  const supervisor = isSupervisor.value
  const done = (text: string) => () => {
    setDialog(null)
    setNotice(text)
    setChanges(changes + 1)
    loaded.reload()
  }
  return (
    <Page
      title={`Manifiesto ${numero}`}
      subtitle={
        manifest ? (
          <>
            Ingresó el {dateTime(manifest.fecha_ingreso)} ·{' '}
            <StateTag state={manifest.estado} label={MANIFEST_STATES[manifest.estado]} />
          </>
        ) : undefined
      }
      actions={
        manifest && (
          <>
            <ManifestPrintLinks numero={manifest.numero} />
            {supervisor && (
              <>
                {manifest.estado === 'imported' ? (
                  <button
                    type="button"
                    class={manifest.liquidacion.lista_para_cerrar ? 'principal' : undefined}
                    disabled={!manifest.liquidacion.lista_para_cerrar}
                    aria-describedby={manifest.liquidacion.falta ? 'por-que-no-cierra' : undefined}
                    onClick={() => setDialog('cerrar')}
                  >
                    Cerrar manifiesto
                  </button>
                ) : (
                  <button type="button" onClick={() => setDialog('reabrir')}>
                    Reabrir manifiesto
                  </button>
                )}
                {manifest.estado === 'imported' &&
                  manifest.plazo_devoluciones !== null &&
                  manifest.paquete_proveedor?.publicado !== true && (
                    <button type="button" onClick={() => setDialog('plazo')}>
                      Ampliar plazo
                    </button>
                  )}
              </>
            )}
          </>
        )
      }
    >
      <BackLink href="/manifiestos">Manifiestos</BackLink>
      <Notice text={notice} />
      <ErrorNote error={loaded.error} />
      {loaded.loading && !manifest && <Loading what="el manifiesto" />}
      {manifest && (
        <>
          <dl class="resumen compacto">
            <div>
              <dt>Facturas</dt>
              <dd class="num">{quantity(manifest.total_facturas)}</dd>
            </div>
            <div>
              <dt>Total</dt>
              <dd>
                <Money amount={manifest.total_importe} />
              </dd>
            </div>
            <div>
              <dt>Devoluciones aprobadas</dt>
              <dd>
                <Money amount={manifest.devoluciones.total_aprobado} />
              </dd>
            </div>
            <div>
              <dt>Devoluciones (pendientes y aprobadas)</dt>
              <dd class="num">{quantity(manifest.devoluciones.cantidad)}</dd>
            </div>
            <div>
              <dt>Plazo de devoluciones</dt>
              <dd>
                <Deadline manifest={manifest} />
              </dd>
            </div>
            {manifest.paquete_proveedor && (
              <div>
                <dt>Paquete al proveedor</dt>
                <dd>{manifest.paquete_proveedor.nota}</dd>
              </div>
            )}
            {manifest.cerrado_en && (
              <div>
                <dt>Cerrado</dt>
                <dd>{dateTime(manifest.cerrado_en)}</dd>
              </div>
            )}
          </dl>
          <SettlementPanel
            manifest={manifest}
            changes={changes}
            expanded={view.liquidacion === '1'}
            onExpand={(expanded) => setView({ liquidacion: expanded ? '1' : '' }, { replace: true })}
            onChanged={(text) => {
              setNotice(text)
              setChanges(changes + 1)
              loaded.reload()
            }}
          />
          <Invoices manifest={manifest} />
          {canReadAudit.value && <History key={changes} tipo="manifiesto" sujeto={numero} />}
        </>
      )}
      {dialog === 'cerrar' && (
        <ActionDialog
          title={`Cerrar el manifiesto ${numero}`}
          message="Un manifiesto cerrado no admite devoluciones, depósitos ni ajustes nuevos. Un supervisor puede reabrirlo después, con un motivo (si tiene depósitos, el administrador)."
          confirmLabel="Cerrar manifiesto"
          reason={{ label: 'Motivo', required: false }}
          onConfirm={(motivo) => api.manifests.close(numero, motivo || undefined)}
          onDone={done(`Manifiesto ${numero} cerrado.`)}
          onCancel={() => setDialog(null)}
        />
      )}
      {dialog === 'reabrir' && (
        <ActionDialog
          title={`Reabrir el manifiesto ${numero}`}
          message={
            manifest && manifest.liquidacion.depositado !== 0 && !isAdmin.value
              ? 'Este manifiesto tiene depósitos: solo el administrador puede reabrirlo. Pídaselo, con el motivo.'
              : 'Reabierto, el manifiesto vuelve a admitir devoluciones, depósitos y ajustes; los que tiene se conservan. El motivo queda en la auditoría.'
          }
          confirmLabel="Reabrir manifiesto"
          reason={{ label: 'Motivo', required: true }}
          onConfirm={(motivo) => api.manifests.reopen(numero, motivo)}
          onDone={done(`Manifiesto ${numero} reabierto.`)}
          onCancel={() => setDialog(null)}
        />
      )}
      {dialog === 'plazo' && manifest && (
        <ExtendDialog
          manifest={manifest}
          onDone={done(`Plazo del manifiesto ${numero} ampliado.`)}
          onCancel={() => setDialog(null)}
        />
      )}
    </Page>
  )
}

function ExtendDialog({
  manifest,
  onDone,
  onCancel,
}: {
  manifest: ManifestDetail
  onDone: () => void
  onCancel: () => void
}) {
  const [hasta, setHasta] = useState('')
  return (
    <ActionDialog
      title={`Ampliar el plazo del manifiesto ${manifest.numero}`}
      message={
        <>
          <p>
            Plazo actual: hasta {dateTime(manifest.plazo_devoluciones)}. El nuevo último día debe ser un día hábil
            posterior.
          </p>
          <DateField label="Nuevo último día" value={hasta} onChange={setHasta} />
        </>
      }
      confirmLabel="Ampliar plazo"
      reason={{ label: 'Motivo', required: true }}
      onConfirm={(motivo) => api.manifests.extend(manifest.numero, hasta, motivo)}
      onDone={onDone}
      onCancel={onCancel}
    />
  )
}

function Invoices({ manifest }: { manifest: ManifestDetail }) {
  const [filters, setFilters] = useFilters(DEFAULTS)
  const search = filters.q.trim()
  const order =
    (['llegada', 'total', '-total', 'fecha', '-fecha'] as const).find((value) => value === filters.orden) ?? 'llegada'
  const narrow = useNarrow()
  const loaded = useLoad(
    () =>
      api.manifests.invoices(manifest.numero, {
        ...(search ? { buscar: search } : {}),
        ...(filters.almacen ? { almacen: filters.almacen } : {}),
        orden: order,
        pagina: filters.pagina,
      }),
    [manifest, search, filters.almacen, order, filters.pagina],
  )
  const warehouses = [...new Set(manifest.facturas.map((invoice) => invoice.almacen))].sort()
  const page = loaded.data
  const pager = (where: 'arriba' | 'abajo') =>
    page && (
      <Pager
        where={where}
        page={page.pagina}
        pages={Math.max(1, Math.ceil(page.total / page.por_pagina))}
        onPage={(value) => setFilters({ pagina: String(value) })}
        label="Páginas de facturas"
      />
    )
  const sorting = { order, onOrder: (orden: string) => setFilters({ orden }) }
  return (
    <section aria-labelledby="facturas-manifiesto">
      <h2 id="facturas-manifiesto" class="oculto">
        Facturas
      </h2>
      <form
        class="filtros compactos"
        role="search"
        aria-label="Buscar facturas del manifiesto"
        noValidate
        onSubmit={(event) => event.preventDefault()}
      >
        <Field
          label="Buscar factura, cliente o ruta"
          hint="Número, cliente, código, RTN o ruta; sin tildes, en cualquier orden"
          wide
        >
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
        {warehouses.length > 1 && (
          <Field label="Almacén">
            {(id) => (
              <select
                id={id}
                value={filters.almacen}
                onChange={(event) => setFilters({ almacen: event.currentTarget.value })}
              >
                <option value="">Todos</option>
                {warehouses.map((code) => (
                  <option key={code} value={code}>
                    {code}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        {pager('arriba')}
      </form>
      <ErrorNote error={loaded.error} />
      {loaded.loading && !page ? (
        <Loading what="las facturas" />
      ) : !page || page.facturas.length === 0 ? (
        loaded.error === null && (
          <Empty>
            Ninguna factura coincide con la búsqueda. Pruebe con parte del nombre del cliente, del número de factura o
            de la ruta.
          </Empty>
        )
      ) : (
        <>
          <table aria-busy={loaded.loading} class="facturas-manifiesto">
            <caption class="oculto">Facturas del manifiesto {manifest.numero}</caption>
            <thead>
              <tr>
                <th scope="col">Factura</th>
                <th scope="col">Cliente</th>
                {!narrow && <th scope="col">Ruta</th>}
                {!narrow && <th scope="col">Almacén</th>}
                <SortHeader
                  label="Fecha"
                  field="fecha"
                  order={order}
                  onOrder={sorting.onOrder}
                  defaultOrder="llegada"
                />
                <SortHeader
                  label="Total"
                  field="total"
                  numeric
                  order={order}
                  onOrder={sorting.onOrder}
                  defaultOrder="llegada"
                />
                <th scope="col" class="num">
                  Devoluciones aprobadas
                </th>
                <th scope="col">Observaciones</th>
              </tr>
            </thead>
            <tbody>
              {page.facturas.map((invoice) => (
                <tr key={invoice.factura} class={invoice.anulada ? 'anulada' : undefined}>
                  <th scope="row">
                    <Link href={`/facturas/${encodeURIComponent(invoice.factura)}`}>{invoice.factura}</Link>
                  </th>
                  <td>
                    {invoice.cliente}
                    <span class="detalle">
                      {' '}
                      {invoice.clienteid}
                      {narrow && ` · ruta ${invoice.ruta?.trim() || '—'} · ${invoice.almacen}`}
                    </span>
                  </td>
                  {!narrow && <td>{invoice.ruta?.trim() || '—'}</td>}
                  {!narrow && <td>{invoice.almacen}</td>}
                  <td class="fecha">{date(invoice.fecha_factura)}</td>
                  <td class="num">
                    <Money amount={invoice.total} />
                  </td>
                  <td class="num">
                    <Money amount={invoice.devoluciones_aprobadas} />
                  </td>
                  <td>
                    {invoice.conflicto_pendiente && <StateTag state="conflicto" label="Conflicto pendiente" />}
                    {invoice.anulada && <StateTag state="cancelled" label="Anulada (re-emisión)" />}
                    {!invoice.anulada && invoice.reemision?.estado === 'pending' && (
                      <StateTag
                        state="pending"
                        label={`¿Copia de ${invoice.reemision.identica_a ?? OTHER_WAREHOUSE_INVOICE}?`}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={narrow ? 3 : 5} class="num">
                  Total de lo filtrado ({page.total === 1 ? '1 factura' : `${quantity(page.total)} facturas`})
                </th>
                <td class="num">
                  <Money amount={page.totales.importe} />
                </td>
                <td class="num">
                  <Money amount={page.totales.devoluciones_aprobadas} />
                </td>
                <td />
              </tr>
            </tfoot>
          </table>
          {pager('abajo')}
        </>
      )}
    </section>
  )
}
