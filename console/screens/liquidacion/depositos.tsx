import { useState } from 'preact/hooks'
import { Link } from 'wouter-preact'
import { api, type ApiError } from '../../api/client.ts'
import type { DepositFilters } from '../../api/types.ts'
import { date, dateTime, money } from '../../format.ts'
import { Empty, ErrorNote, Loading, Money, Page, Tabs } from '../../ui/components.tsx'
import { DownloadButton } from '../../ui/download.tsx'
import { DateField, Field } from '../../ui/fields.tsx'
import { Pager } from '../../ui/lists.tsx'
import { useFilters, useLoad } from '../../ui/data.ts'
import { WarehouseFilter } from '../../ui/warehouse.tsx'
import { PrintLink, printAddress } from '../imprimir/enlaces.tsx'

const DEFAULTS = { estado: 'active', desde: '', hasta: '', banco: '', almacen: '', registrado: '', pagina: '1' }

/**
 * Depósitos: the deposits of the person's warehouses by the slip's date (newest first), bank,
 * warehouse and day registered, with the totals of all that match by bank and by warehouse, and
 * their export (CSV, Excel). Cancelled deposits are a view of their own: they never add up with
 * the active ones.
 */
export function DepositsScreen() {
  const [filters, setFilters] = useFilters(DEFAULTS)
  const [exportError, setExportError] = useState<ApiError | null>(null)
  const rules = useLoad(() => api.settlement.rules(), [])
  const estado = filters.estado === 'cancelled' ? 'cancelled' : 'active'
  const query: Omit<DepositFilters, 'pagina'> = {
    ...(estado === 'cancelled' ? { estado } : {}),
    ...(filters.desde ? { desde: filters.desde } : {}),
    ...(filters.hasta ? { hasta: filters.hasta } : {}),
    ...(filters.banco ? { banco: filters.banco } : {}),
    ...(filters.almacen ? { almacen: filters.almacen } : {}),
    ...(filters.registrado ? { registrado: filters.registrado } : {}),
  }
  const loaded = useLoad(
    () => api.settlement.page({ ...query, pagina: filters.pagina }),
    [JSON.stringify(query), filters.pagina],
  )
  const page = loaded.data
  const tab = (value: string) => {
    const params = new URLSearchParams()
    if (value === 'cancelled') params.set('estado', value)
    for (const key of ['desde', 'hasta', 'banco', 'almacen', 'registrado'] as const)
      if (filters[key]) params.set(key, filters[key])
    const text = params.toString()
    return `/depositos${text ? `?${text}` : ''}`
  }
  return (
    <Page
      title="Depósitos"
      subtitle="Los depósitos bancarios de la liquidación de los manifiestos, por la fecha de la boleta; los más recientes primero."
      actions={
        <>
          {estado === 'active' && (
            <PrintLink
              href={printAddress.deposits({
                desde: filters.desde || undefined,
                hasta: filters.hasta || undefined,
                almacen: filters.almacen || undefined,
              })}
            />
          )}
          <DownloadButton href={api.settlement.exportUrl('csv', query)} label="Exportar CSV" onError={setExportError} />
          <DownloadButton
            href={api.settlement.exportUrl('xlsx', query)}
            label="Exportar Excel"
            onError={setExportError}
          />
        </>
      }
    >
      <Tabs
        label="Estado de los depósitos"
        items={[
          { label: 'Activos', href: tab('active'), current: estado === 'active' },
          { label: 'Anulados', href: tab('cancelled'), current: estado === 'cancelled' },
        ]}
      />
      <form class="filtros" role="search" aria-label="Buscar depósitos" onSubmit={(event) => event.preventDefault()}>
        <DateField
          label="Boleta desde"
          value={filters.desde}
          onChange={(desde) => setFilters({ desde }, { replace: true })}
        />
        <DateField
          label="Boleta hasta"
          value={filters.hasta}
          onChange={(hasta) => setFilters({ hasta }, { replace: true })}
        />
        <Field label="Banco">
          {(id) => (
            <select
              id={id}
              value={filters.banco}
              onChange={(event) => setFilters({ banco: event.currentTarget.value })}
            >
              <option value="">Todos</option>
              {[...new Set([...(rules.data?.bancos ?? []), ...(filters.banco ? [filters.banco] : [])])].map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <WarehouseFilter value={filters.almacen} onChange={(almacen) => setFilters({ almacen }, { replace: true })} />
      </form>
      {filters.registrado && (
        <p class="aviso">
          Solo los registrados el {date(filters.registrado)}.{' '}
          <button type="button" class="enlace" onClick={() => setFilters({ registrado: '' })}>
            Ver todos
          </button>
        </p>
      )}
      <ErrorNote error={exportError} />
      <ErrorNote error={loaded.error} />
      {loaded.loading && !page ? (
        <Loading what="los depósitos" />
      ) : !page || page.depositos.length === 0 ? (
        loaded.error === null && (
          <Empty>
            {estado === 'cancelled'
              ? 'Ningún depósito anulado con estos filtros.'
              : 'Ningún depósito con estos filtros. Se registran desde el manifiesto (Manifiestos → manifiesto → Liquidación → Registrar depósito).'}
          </Empty>
        )
      ) : (
        <>
          <table aria-busy={loaded.loading}>
            <caption class="oculto">Depósitos {estado === 'cancelled' ? 'anulados' : 'activos'}</caption>
            <thead>
              <tr>
                <th scope="col">Fecha</th>
                <th scope="col">Banco</th>
                <th scope="col">Boleta</th>
                <th scope="col">Manifiesto</th>
                <th scope="col">Almacén</th>
                <th scope="col" class="num">
                  Monto
                </th>
                <th scope="col">Foto</th>
                <th scope="col">Registró</th>
                {estado === 'cancelled' && <th scope="col">Anulado</th>}
              </tr>
            </thead>
            <tbody>
              {page.depositos.map((deposit) => (
                <tr key={deposit.id}>
                  <td>{date(deposit.fecha)}</td>
                  <td>{deposit.banco}</td>
                  <td>{deposit.referencia}</td>
                  <th scope="row">
                    <Link href={`/manifiestos/${deposit.manifiesto}`}>{deposit.manifiesto}</Link>
                  </th>
                  <td>{deposit.almacen}</td>
                  <td class="num">
                    <Money amount={deposit.monto} />
                  </td>
                  <td>
                    {deposit.comprobante === null ? (
                      <span class="tenue">Sin foto</span>
                    ) : deposit.comprobante.disponible ? (
                      <a href={api.settlement.receiptUrl(deposit.id)} target="_blank" rel="noopener">
                        {deposit.comprobante.tipo === 'application/pdf' ? 'Ver PDF' : 'Ver foto'}
                      </a>
                    ) : (
                      <span class="tenue">Eliminada</span>
                    )}
                  </td>
                  <td>
                    {deposit.registrado_por}
                    <span class="detalle">{dateTime(deposit.registrado_en)}</span>
                  </td>
                  {estado === 'cancelled' && (
                    <td>
                      {deposit.anulado_por}, {dateTime(deposit.anulado_en)}
                      <span class="detalle">{deposit.motivo_anulacion}</span>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={5}>
                  Total ({page.totales.cantidad === 1 ? '1 depósito' : `${page.totales.cantidad} depósitos`}, todas las
                  páginas)
                </th>
                <td class="num">{money(page.totales.monto)}</td>
                <td colSpan={estado === 'cancelled' ? 3 : 2} />
              </tr>
            </tfoot>
          </table>
          <Pager
            page={page.pagina}
            pages={Math.max(1, Math.ceil(page.total / page.por_pagina))}
            onPage={(value) => setFilters({ pagina: String(value) })}
          />
          <div class="totales">
            <table class="compacta">
              <caption>Por banco</caption>
              <thead>
                <tr>
                  <th scope="col">Banco</th>
                  <th scope="col" class="num">
                    Depósitos
                  </th>
                  <th scope="col" class="num">
                    Monto
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.totales.por_banco.map((bank) => (
                  <tr key={bank.banco}>
                    <th scope="row">{bank.banco}</th>
                    <td class="num">{bank.cantidad}</td>
                    <td class="num">{money(bank.monto)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <table class="compacta">
              <caption>Por almacén</caption>
              <thead>
                <tr>
                  <th scope="col">Almacén</th>
                  <th scope="col" class="num">
                    Depósitos
                  </th>
                  <th scope="col" class="num">
                    Monto
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.totales.por_almacen.map((warehouse) => (
                  <tr key={warehouse.almacen}>
                    <th scope="row">{warehouse.almacen}</th>
                    <td class="num">{warehouse.cantidad}</td>
                    <td class="num">{money(warehouse.monto)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </Page>
  )
}
