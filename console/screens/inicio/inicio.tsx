import type { ComponentChildren } from 'preact'
import { Link } from 'wouter-preact'
import { api } from '../../api/client.ts'
import type { BatchView, DashboardView } from '../../api/types.ts'
import { BATCH_STATES, count, date, dateTime, money, quantity, time } from '../../format.ts'
import { canSeeDeposits, currentUser, isSupervisor, serverToday } from '../../session.ts'
import { Empty, ErrorNote, Loading, Page, StateTag } from '../../ui/components.tsx'
import { useLoad } from '../../ui/data.ts'

interface BatchSummary {
  recibidas?: number
  insertadas?: number
  actualizadas?: number
  sin_cambios?: number
  pendientes_revision?: number
  rechazadas?: number
}

/** Inicio: today at a glance for the person's warehouses; every number links to its list. */
export function HomeScreen() {
  const supervisor = isSupervisor.value
  const loaded = useLoad(async () => {
    const summary = await api.dashboard()
    serverToday.value = summary.fecha
    return { summary, batches: summary.lotes === null ? null : await api.batches.list(summary.fecha) }
  }, [])
  const user = currentUser.value!
  const warehouses = user.almacenes === 'todos' ? 'todos los almacenes' : `almacén ${user.almacenes.join(', ')}`
  const today = loaded.data?.summary.fecha ?? serverToday.value
  return (
    <Page title="Inicio" subtitle={`Hoy, ${date(today)} · ${warehouses}`}>
      <ErrorNote error={loaded.error} />
      {loaded.loading && !loaded.data && <Loading what="el resumen del día" />}
      {loaded.data &&
        (() => {
          const { summary, batches } = loaded.data
          const oldest = summary.manifiestos_abiertos.mas_antiguo
          const failed = summary.lotes?.fallidos ?? []
          const rejected = summary.lotes?.con_rechazos ?? []
          return (
            <>
              <div class="cifras">
                <Figure
                  label="Devoluciones por aprobar"
                  value={quantity(summary.devoluciones_pendientes)}
                  href="/devoluciones?estado=pending"
                  detail={
                    summary.devoluciones_pendientes > 0
                      ? supervisor
                        ? 'Apruébelas o rechácelas'
                        : 'Las aprueba un supervisor'
                      : 'Nada pendiente'
                  }
                />
                <Figure
                  label="Importe por aprobar"
                  value={money(summary.devoluciones_pendientes_importe)}
                  money
                  href="/devoluciones?estado=pending"
                  detail={
                    summary.devoluciones_pendientes === 0
                      ? 'Ninguna devolución pendiente'
                      : `Suma de ${count(summary.devoluciones_pendientes, 'devolución pendiente', 'devoluciones pendientes')}`
                  }
                />
                <Figure
                  label="Facturado hoy"
                  value={money(summary.recibido_hoy.importe)}
                  money
                  href="/manifiestos"
                  detail={`${count(summary.recibido_hoy.facturas, 'factura recibida', 'facturas recibidas')} hoy en sus almacenes`}
                />
                <Figure
                  label="Manifiestos abiertos"
                  value={quantity(summary.manifiestos_abiertos.cantidad)}
                  href="/manifiestos"
                  detail={
                    oldest === null
                      ? 'Ninguno abierto'
                      : `El más antiguo: ${oldest.numero}, ${oldest.dias === 0 ? 'de hoy' : `de hace ${count(oldest.dias, 'día')}`}`
                  }
                />
                {summary.conflictos_pendientes !== null && (
                  <Figure
                    label="Conflictos por decidir"
                    value={quantity(summary.conflictos_pendientes)}
                    href="/conflictos"
                    detail={
                      summary.conflictos_pendientes > 0 ? 'Facturas retenidas para revisión' : 'Ninguno pendiente'
                    }
                    alert={summary.conflictos_pendientes > 0}
                  />
                )}
                {supervisor && (
                  <Figure
                    label="Posibles re-emisiones"
                    value={quantity(summary.reemisiones_pendientes)}
                    href="/conflictos#reemisiones"
                    detail={summary.reemisiones_pendientes > 0 ? 'Revise si son copias' : 'Ninguna pendiente'}
                    alert={summary.reemisiones_pendientes > 0}
                  />
                )}
                {summary.lotes && (
                  <Figure
                    label={user.almacenes === 'todos' ? 'Lotes recibidos hoy' : 'Lotes de hoy de sus almacenes'}
                    value={quantity(
                      user.almacenes === 'todos' ? summary.lotes.cantidad : summary.lotes.de_sus_almacenes,
                    )}
                    href={`/lotes?fecha=${summary.fecha}`}
                    detail={
                      failed.length > 0
                        ? count(failed.length, 'fallido')
                        : user.almacenes === 'todos'
                          ? `${quantity(summary.lotes.resumen.insertadas)} facturas nuevas`
                          : `Trajeron facturas de ${user.almacenes.join(', ')}; ${count(summary.lotes.cantidad, 'lote', 'lotes')} en total`
                    }
                    alert={failed.length > 0}
                  />
                )}
              </div>
              <SettlementMoney summary={summary.liquidacion} today={summary.fecha} />
              {summary.plazos_que_vencen_hoy.length > 0 && (
                <section aria-labelledby="plazos-hoy" class="aviso">
                  <h2 id="plazos-hoy">Plazos de devoluciones que vencen hoy</h2>
                  <ul>
                    {summary.plazos_que_vencen_hoy.map((item) => (
                      <li key={item.numero}>
                        <Link href={`/manifiestos/${item.numero}`}>Manifiesto {item.numero}</Link>: hasta las{' '}
                        {time(item.plazo_devoluciones)}
                        {item.devoluciones_pendientes > 0 &&
                          `, con ${count(item.devoluciones_pendientes, 'devolución pendiente', 'devoluciones pendientes')}`}
                      </li>
                    ))}
                  </ul>
                </section>
              )}
              {(failed.length > 0 || rejected.length > 0) && (
                <section aria-labelledby="lotes-problema" class="aviso error">
                  <h2 id="lotes-problema">Lotes de hoy con problemas</h2>
                  <ul>
                    {failed.map((batch) => (
                      <li key={batch.batch_uuid}>
                        <Link href={`/lotes/${batch.batch_uuid}`}>Lote de las {time(batch.recibido_en)}</Link> falló
                        {batch.fallo ? `: ${batch.fallo}` : ''}. El proveedor debe reenviarlo.
                      </li>
                    ))}
                    {rejected.map((batch) => (
                      <li key={batch.batch_uuid}>
                        <Link href={`/lotes/${batch.batch_uuid}`}>Lote de las {time(batch.recibido_en)}</Link>: se
                        rechazaron manifiestos (respuesta {batch.http_status}). Vea el detalle.
                      </li>
                    ))}
                  </ul>
                </section>
              )}
              {summary.lotes && batches && (
                <TodayBatches
                  batches={
                    user.almacenes === 'todos'
                      ? batches
                      : batches.filter((batch) => batch.facturas_de_sus_almacenes > 0 || batch.estado === 'failed')
                  }
                  total={summary.lotes.resumen}
                  mine={user.almacenes !== 'todos'}
                />
              )}
            </>
          )
        })()}
    </Page>
  )
}

type SettlementSummary = DashboardView['liquidacion']

/**
 * Inicio's money (issue 40): what is still to deposit on open manifests, those ready to close, the
 * deposits registered today, and the open manifests not settled by their age — each a link to its list.
 */
function SettlementMoney({ summary, today }: { summary: SettlementSummary; today: string }) {
  const { por_depositar: missing, depositos_hoy: deposits } = summary
  return (
    <section aria-labelledby="dinero">
      <h2 id="dinero">Liquidación</h2>
      <div class="cifras">
        <Figure
          label="Por depositar"
          value={money(missing.monto)}
          money
          href="/manifiestos?liquidacion=pendiente&orden=-diferencia"
          detail={
            missing.manifiestos === 0
              ? 'Nada pendiente en manifiestos abiertos'
              : `En ${count(missing.manifiestos, 'manifiesto abierto', 'manifiestos abiertos')}`
          }
          alert={missing.monto > 0}
        />
        <Figure
          label="Listos para cerrar"
          value={quantity(summary.listos_para_cerrar)}
          href="/manifiestos?liquidacion=lista"
          detail={summary.listos_para_cerrar > 0 ? 'Liquidados: ciérrelos' : 'Ninguno liquidado todavía'}
        />
        {canSeeDeposits.value && (
          <Figure
            label="Depósitos de hoy"
            value={quantity(deposits.cantidad)}
            href={`/depositos?registrado=${today}`}
            detail={deposits.cantidad > 0 ? `${money(deposits.monto)} registrados hoy` : 'Ninguno registrado hoy'}
          />
        )}
      </div>
      <p class="etiqueta-antiguedad" id="por-antiguedad">
        Manifiestos abiertos por liquidar, según los días desde su ingreso:
      </p>
      <ul class="antiguedad" aria-labelledby="por-antiguedad">
        {summary.por_liquidar_por_antiguedad.map((group) => (
          <li key={group.desde_dias}>
            <Link
              href={`/manifiestos?liquidacion=pendiente&orden=-diferencia${ageRange(today, group.desde_dias, group.hasta_dias)}`}
              class={group.desde_dias >= 8 && group.manifiestos > 0 ? 'alerta' : undefined}
            >
              <strong>{quantity(group.manifiestos)}</strong>{' '}
              {group.hasta_dias === null
                ? `de más de ${group.desde_dias - 1} días`
                : `de ${group.desde_dias} a ${group.hasta_dias} días`}
              <span class="detalle">
                {group.manifiestos > 0 ? `faltan ${money(group.por_depositar)}` : 'nada por liquidar'}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  )
}

/** The list's arrival dates for an age group: arrived between `to` and `from` days before today. */
function ageRange(today: string, from: number, to: number | null): string {
  const day = (ago: number) => {
    const date = new Date(`${today}T12:00:00Z`)
    date.setUTCDate(date.getUTCDate() - ago)
    return date.toISOString().slice(0, 10)
  }
  return `${to === null ? '' : `&desde=${day(to)}`}&hasta=${day(from)}`
}

function Figure({
  label,
  value,
  href,
  detail,
  alert,
  money: isMoney,
}: {
  label: string
  value: string
  href: string
  detail: ComponentChildren
  alert?: boolean
  money?: boolean
}) {
  return (
    <Link href={href} class={`cifra${alert ? ' alerta' : ''}${isMoney ? ' dinero' : ''}`}>
      <span class="cifra-numero">{value}</span>
      <span class="cifra-nombre">{label}</span>
      <span class="cifra-detalle">{detail}</span>
    </Link>
  )
}

function TodayBatches({ batches, total, mine }: { batches: BatchView[]; total: BatchSummary; mine: boolean }) {
  return (
    <section aria-labelledby="lotes-hoy">
      <h2 id="lotes-hoy">{mine ? 'Lotes de hoy con facturas de sus almacenes' : 'Lotes de hoy'}</h2>
      {batches.length === 0 ? (
        <Empty>
          {mine ? 'Hoy no llegó ningún lote con facturas de sus almacenes.' : 'Hoy no llegó ningún lote del proveedor.'}{' '}
          Si esperaba uno, consulte con el proveedor o revise Lotes de otros días.
        </Empty>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Recibido</th>
              <th scope="col">Estado</th>
              <th scope="col">Manifiestos</th>
              {mine && (
                <th scope="col" class="num">
                  De sus almacenes
                </th>
              )}
              <th scope="col" class="num">
                Recibidas
              </th>
              <th scope="col" class="num">
                Insertadas
              </th>
              <th scope="col" class="num">
                Sin cambios
              </th>
              <th scope="col" class="num">
                Retenidas
              </th>
              <th scope="col" class="num">
                Rechazadas
              </th>
            </tr>
          </thead>
          <tbody>
            {batches.map((batch) => {
              const summary = (batch.resumen ?? {}) as BatchSummary
              return (
                <tr key={batch.batch_uuid}>
                  <td>
                    <Link href={`/lotes/${batch.batch_uuid}`}>{dateTime(batch.recibido_en)}</Link>
                  </td>
                  <td>
                    <StateTag state={batch.estado} label={BATCH_STATES[batch.estado]} />
                    {batch.fallo && <span class="detalle"> {batch.fallo}</span>}
                  </td>
                  <td>
                    <ManifestLinks numbers={batch.manifiestos} />
                  </td>
                  {mine && <td class="num">{quantity(batch.facturas_de_sus_almacenes)}</td>}
                  <td class="num">{quantity(summary.recibidas ?? batch.facturas)}</td>
                  <td class="num">{counted(summary.insertadas)}</td>
                  <td class="num">{counted(summary.sin_cambios)}</td>
                  <td class="num">{counted(summary.pendientes_revision)}</td>
                  <td class="num">{counted(summary.rechazadas)}</td>
                </tr>
              )
            })}
          </tbody>
          {batches.length > 1 && (
            <tfoot>
              <tr>
                <th scope="row" colSpan={mine ? 4 : 3}>
                  Total del día (todos los almacenes)
                </th>
                <td class="num">{counted(total.recibidas)}</td>
                <td class="num">{counted(total.insertadas)}</td>
                <td class="num">{counted(total.sin_cambios)}</td>
                <td class="num">{counted(total.pendientes_revision)}</td>
                <td class="num">{counted(total.rechazadas)}</td>
              </tr>
            </tfoot>
          )}
        </table>
      )}
    </section>
  )
}

const counted = (value: number | undefined) => (value === undefined ? '—' : quantity(value))

/** The manifests a batch brought, each a link. */
export function ManifestLinks({ numbers }: { numbers: string[] }) {
  if (numbers.length === 0) return <span class="tenue">—</span>
  return (
    <>
      {numbers.map((numero, index) => (
        <span key={numero}>
          {index > 0 && ', '}
          <Link href={`/manifiestos/${numero}`}>{numero}</Link>
        </span>
      ))}
    </>
  )
}
