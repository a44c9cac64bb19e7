import { Link } from 'wouter-preact'
import { api } from '../../api/client.ts'
import type { BatchView } from '../../api/types.ts'
import { BATCH_STATES, date, dateTime, quantity } from '../../format.ts'
import { serverToday } from '../../session.ts'
import { BackLink, Empty, ErrorNote, Loading, Page, StateTag } from '../../ui/components.tsx'
import { DateField } from '../../ui/fields.tsx'
import { Pager } from '../../ui/lists.tsx'
import { pageOf, useFilters, useLoad } from '../../ui/data.ts'
import { useNarrow } from '../../ui/screen.ts'
import { ManifestLinks } from '../inicio/inicio.tsx'

type Summary = Partial<
  Record<'recibidas' | 'insertadas' | 'actualizadas' | 'sin_cambios' | 'pendientes_revision' | 'rechazadas', number>
>

const summaryOf = (batch: BatchView): Summary =>
  batch.resumen !== null && typeof batch.resumen === 'object' ? (batch.resumen as Summary) : {}

/** Lotes: what the supplier's system sent on a day, what it was answered, and who sent it. */
export function BatchesScreen() {
  const [filters, setFilters] = useFilters({ fecha: '', pagina: '1' })
  const fecha = filters.fecha || serverToday.value
  const loaded = useLoad(() => api.batches.list(fecha), [fecha])
  const page = pageOf(loaded.data ?? [], Number(filters.pagina))
  const narrow = useNarrow()
  return (
    <Page title="Lotes" subtitle="Envíos de facturas del sistema del proveedor, en orden de llegada.">
      <form class="filtros" aria-label="Día de los lotes" noValidate onSubmit={(event) => event.preventDefault()}>
        <DateField
          label="Día de recepción"
          value={fecha}
          onChange={(value) => setFilters({ fecha: value }, { replace: true })}
        />
      </form>
      <ErrorNote error={loaded.error} />
      {loaded.loading && !loaded.data ? (
        <Loading what="los lotes" />
      ) : page.rows.length === 0 ? (
        <Empty>
          El {date(fecha)} no llegó ningún lote. Elija otro día; si esperaba uno, consulte con el proveedor.
        </Empty>
      ) : (
        <>
          <Pager
            where="arriba"
            page={page.page}
            pages={page.pages}
            onPage={(value) => setFilters({ pagina: String(value) })}
          />
          <table>
            <thead>
              <tr>
                <th scope="col">Recibido</th>
                <th scope="col">Estado</th>
                <th scope="col">Manifiestos</th>
                {!narrow && (
                  <th scope="col" class="num">
                    Respuesta
                  </th>
                )}
                <th scope="col" class="num">
                  Facturas
                </th>
                <th scope="col" class="num">
                  Insertadas
                </th>
                <th scope="col" class="num">
                  Actualizadas
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
                {!narrow && <th scope="col">Enviado desde</th>}
              </tr>
            </thead>
            <tbody>
              {page.rows.map((batch) => {
                const summary = summaryOf(batch)
                return (
                  <tr key={batch.batch_uuid}>
                    <th scope="row">
                      <Link href={`/lotes/${batch.batch_uuid}`}>{dateTime(batch.recibido_en)}</Link>
                    </th>
                    <td>
                      <StateTag state={batch.estado} label={BATCH_STATES[batch.estado]} />
                    </td>
                    <td>
                      <ManifestLinks numbers={batch.manifiestos} />
                    </td>
                    {!narrow && <td class="num">{batch.http_status ?? '—'}</td>}
                    <td class="num">{quantity(batch.facturas)}</td>
                    <td class="num">{counted(summary.insertadas)}</td>
                    <td class="num">{counted(summary.actualizadas)}</td>
                    <td class="num">{counted(summary.sin_cambios)}</td>
                    <td class="num">{counted(summary.pendientes_revision)}</td>
                    <td class="num">{counted(summary.rechazadas)}</td>
                    {!narrow && (
                      <td>
                        {batch.ip}
                        <span class="detalle"> clave {batch.clave || '—'}</span>
                      </td>
                    )}
                  </tr>
                )
              })}
            </tbody>
          </table>
          <Pager
            where="abajo"
            page={page.page}
            pages={page.pages}
            onPage={(value) => setFilters({ pagina: String(value) })}
          />
        </>
      )}
    </Page>
  )
}

const counted = (value: number | undefined) => (value === undefined ? '—' : quantity(value))

/** One batch: its answer, who sent it, and the body as it arrived. */
export function BatchScreen({ uuid }: { uuid: string }) {
  const loaded = useLoad(() => api.batches.get(uuid), [uuid])
  const batch = loaded.data
  return (
    <Page title="Lote" subtitle={uuid}>
      <BackLink href={batch ? `/lotes?fecha=${batch.recibido_en.slice(0, 10)}` : '/lotes'}>Lotes</BackLink>
      <ErrorNote error={loaded.error} />
      {loaded.loading && !batch && <Loading what="el lote" />}
      {batch && (
        <>
          <dl class="resumen">
            <div>
              <dt>Recibido</dt>
              <dd>{dateTime(batch.recibido_en)}</dd>
            </div>
            <div>
              <dt>Terminado</dt>
              <dd>{dateTime(batch.terminado_en)}</dd>
            </div>
            <div>
              <dt>Estado</dt>
              <dd>
                <StateTag state={batch.estado} label={BATCH_STATES[batch.estado]} />
              </dd>
            </div>
            <div>
              <dt>Respuesta HTTP</dt>
              <dd>{batch.http_status ?? '—'}</dd>
            </div>
            <div>
              <dt>Facturas</dt>
              <dd class="num">{quantity(batch.facturas)}</dd>
            </div>
            <div>
              <dt>Manifiestos que trajo</dt>
              <dd>
                <ManifestLinks numbers={batch.manifiestos} />
              </dd>
            </div>
            <div>
              <dt>Dirección IP</dt>
              <dd>{batch.ip}</dd>
            </div>
            <div>
              <dt>Huella de la clave</dt>
              <dd>{batch.clave || '—'}</dd>
            </div>
          </dl>
          {batch.fallo && (
            <p class="aviso error" role="note">
              Falló: {batch.fallo}
            </p>
          )}
          <h2>Resumen respondido</h2>
          <SummaryList summary={summaryOf(batch)} />
          <details>
            <summary>Ver el resumen tal como se respondió</summary>
            <pre class="original">{JSON.stringify(batch.resumen, null, 2)}</pre>
          </details>
          <h2>Cuerpo recibido</h2>
          {batch.cuerpo.guardado ? (
            <p>
              <a href={api.batches.payloadUrl(batch.batch_uuid)} download={`lote-${batch.batch_uuid}.json`}>
                Descargar el cuerpo tal como llegó
              </a>{' '}
              (
              {batch.cuerpo.bytes === null
                ? 'tamaño desconocido'
                : `${quantity(Math.ceil(batch.cuerpo.bytes / 1024))} KB`}
              )
            </p>
          ) : (
            <Empty>
              {batch.cuerpo.eliminado_en
                ? `El cuerpo se eliminó el ${dateTime(batch.cuerpo.eliminado_en)} por la regla de retención.`
                : 'El cuerpo de este lote no se guardó.'}
            </Empty>
          )}
        </>
      )}
    </Page>
  )
}

const SUMMARY_NAMES: Array<[keyof Summary, string]> = [
  ['recibidas', 'Facturas recibidas'],
  ['insertadas', 'Insertadas'],
  ['actualizadas', 'Actualizadas'],
  ['sin_cambios', 'Sin cambios'],
  ['pendientes_revision', 'Retenidas para revisión'],
  ['rechazadas', 'Rechazadas'],
]

function SummaryList({ summary }: { summary: Summary }) {
  const known = SUMMARY_NAMES.filter(([key]) => typeof summary[key] === 'number')
  if (known.length === 0) return <Empty>Este lote no tiene resumen (no terminó de procesarse).</Empty>
  return (
    <dl class="resumen">
      {known.map(([key, label]) => (
        <div key={key}>
          <dt>{label}</dt>
          <dd class="num">{quantity(summary[key]!)}</dd>
        </div>
      ))}
    </dl>
  )
}
