import type { ComponentChildren } from 'preact'
import { Link } from 'wouter-preact'
import { api } from '../../api/client.ts'
import type { BatchView } from '../../api/types.ts'
import { BATCH_STATES, count, date, daysBetween, dateTime, hondurasDate, money } from '../../format.ts'
import { currentUser, isSupervisor } from '../../session.ts'
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
  const today = hondurasDate(new Date())
  const loaded = useLoad(async () => {
    const [open, pending, batches, conflicts, reissues] = await Promise.all([
      api.manifests.list({ estado: 'imported' }),
      api.returns.list({ estado: 'pending' }),
      supervisor ? api.batches.list(today) : Promise.resolve(null),
      supervisor ? api.conflicts.list('pending') : Promise.resolve(null),
      supervisor ? api.reissues.list('pending') : Promise.resolve(null),
    ])
    return { open, pending, batches, conflicts, reissues }
  }, [supervisor, today])
  const user = currentUser.value!
  const warehouses = user.almacenes === 'todos' ? 'todos los almacenes' : `almacén ${user.almacenes.join(', ')}`
  return (
    <Page title="Inicio" subtitle={`Hoy, ${date(today)} · ${warehouses}`}>
      <ErrorNote error={loaded.error} />
      {loaded.loading && !loaded.data && <Loading what="el resumen del día" />}
      {loaded.data && (() => {
        const { open, pending, batches, conflicts, reissues } = loaded.data
        const oldest = open.reduce<string | null>((min, manifest) => (min === null || manifest.fecha_ingreso < min ? manifest.fecha_ingreso : min), null)
        const pendingAmount = pending.reduce((sum, item) => sum + item.total, 0)
        const failed = batches?.filter((batch) => batch.estado === 'failed') ?? []
        return (
          <>
            <div class="cifras">
              <Figure label="Devoluciones por aprobar" value={pending.length} href="/devoluciones?estado=pending" detail={pending.length > 0 ? money(pendingAmount) : 'Nada pendiente'} />
              <Figure
                label="Manifiestos abiertos"
                value={open.length}
                href="/manifiestos"
                detail={oldest === null ? 'Ninguno abierto' : `El más antiguo: ${date(oldest)} (${count(daysBetween(oldest.slice(0, 10), today), 'día')})`}
              />
              {conflicts && <Figure label="Conflictos por decidir" value={conflicts.length} href="/conflictos" detail={conflicts.length > 0 ? 'Facturas retenidas para revisión' : 'Ninguno pendiente'} />}
              {reissues && <Figure label="Posibles re-emisiones" value={reissues.length} href="/conflictos#reemisiones" detail={reissues.length > 0 ? 'Revise si son copias' : 'Ninguna pendiente'} />}
              {batches && <Figure label="Lotes recibidos hoy" value={batches.length} href={`/lotes?fecha=${today}`} detail={failed.length > 0 ? `${count(failed.length, 'fallido')}` : 'Ninguno fallido'} alert={failed.length > 0} />}
            </div>
            {batches && <TodayBatches batches={batches} />}
          </>
        )
      })()}
    </Page>
  )
}

function Figure({ label, value, href, detail, alert }: { label: string; value: number; href: string; detail: ComponentChildren; alert?: boolean }) {
  return (
    <Link href={href} class={alert ? 'cifra alerta' : 'cifra'}>
      <span class="cifra-numero">{value}</span>
      <span class="cifra-nombre">{label}</span>
      <span class="cifra-detalle">{detail}</span>
    </Link>
  )
}

function TodayBatches({ batches }: { batches: BatchView[] }) {
  return (
    <section aria-labelledby="lotes-hoy">
      <h2 id="lotes-hoy">Lotes de hoy</h2>
      {batches.length === 0 ? (
        <Empty>Hoy no llegó ningún lote del proveedor. Si esperaba uno, consulte con el proveedor o revise Lotes de otros días.</Empty>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Recibido</th>
              <th scope="col">Estado</th>
              <th scope="col" class="num">Recibidas</th>
              <th scope="col" class="num">Insertadas</th>
              <th scope="col" class="num">Sin cambios</th>
              <th scope="col" class="num">Retenidas</th>
              <th scope="col" class="num">Rechazadas</th>
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
                  <td class="num">{summary.recibidas ?? batch.facturas}</td>
                  <td class="num">{summary.insertadas ?? '—'}</td>
                  <td class="num">{summary.sin_cambios ?? '—'}</td>
                  <td class="num">{summary.pendientes_revision ?? '—'}</td>
                  <td class="num">{summary.rechazadas ?? '—'}</td>
                </tr>
              )
            })}
          </tbody>
        </table>
      )}
    </section>
  )
}
