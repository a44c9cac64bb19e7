import { useState } from 'preact/hooks'
import { Link } from 'wouter-preact'
import { api } from '../../api/client.ts'
import type { ReturnListItem } from '../../api/types.ts'
import { date, dateTime, RETURN_STATES } from '../../format.ts'
import { isSupervisor } from '../../session.ts'
import { BackLink, ErrorNote, Loading, Money, Notice, Page, StateTag } from '../../ui/components.tsx'
import { useLoad } from '../../ui/data.ts'
import { History } from '../auditoria/historial.tsx'
import { ReturnLines } from './lineas.tsx'
import { DecisionDialog, type Decision } from './tabla.tsx'

/**
 * Una devolución (issue 41, "see before you decide"): its invoice and client, its lines in boxes
 * and units with their amounts, who registered, approved, rejected or cancelled it and when, and —
 * for a supervisor — Aprobar, Rechazar or Anular here, and the audit of it.
 */
export function ReturnScreen({ id }: { id: string }) {
  const loaded = useLoad(() => api.returns.get(id), [id])
  const [decision, setDecision] = useState<Decision | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const [changes, setChanges] = useState(0)
  const item = loaded.data
  const supervisor = isSupervisor.value
  return (
    <Page
      title={`Devolución ${id}`}
      subtitle={
        item ? (
          <>
            <StateTag state={item.estado} label={RETURN_STATES[item.estado]} /> · {item.cliente} ·{' '}
            <Money amount={item.total} />
          </>
        ) : undefined
      }
      actions={
        item &&
        supervisor &&
        !item.sin_acciones && (
          <>
            {item.estado === 'pending' && (
              <>
                <button type="button" class="principal" onClick={() => setDecision({ kind: 'aprobar', item })}>
                  Aprobar
                </button>
                <button type="button" onClick={() => setDecision({ kind: 'rechazar', item })}>
                  Rechazar
                </button>
              </>
            )}
            {item.estado === 'approved' && (
              <button type="button" onClick={() => setDecision({ kind: 'anular', item })}>
                Anular
              </button>
            )}
          </>
        )
      }
    >
      <BackLink href="/devoluciones">Devoluciones</BackLink>
      <Notice text={notice} />
      <ErrorNote error={loaded.error}>
        {loaded.error?.status === 404 && <> Revise el número; solo se ven las devoluciones de sus almacenes.</>}
      </ErrorNote>
      {loaded.loading && !item && <Loading what="la devolución" />}
      {item && (
        <>
          {item.sin_acciones && (
            <p class="aviso" role="note">
              {item.sin_acciones}
            </p>
          )}
          <dl class="resumen">
            <div>
              <dt>Factura</dt>
              <dd>
                <Link href={`/facturas/${encodeURIComponent(item.factura)}`}>{item.factura}</Link>
              </dd>
            </div>
            <div>
              <dt>Cliente</dt>
              <dd>
                {item.cliente} <span class="detalle">{item.clienteid}</span>
              </dd>
            </div>
            <div>
              <dt>Manifiesto</dt>
              <dd>
                <Link href={`/manifiestos/${item.manifiesto}`}>{item.manifiesto}</Link> · {item.almacen}
              </dd>
            </div>
            <div>
              <dt>Concepto</dt>
              <dd>
                {item.conceptoDescripcion} <span class="detalle">{item.concepto}</span>
              </dd>
            </div>
            <div>
              <dt>Fecha de la devolución</dt>
              <dd>{dateTime(item.fecha)}</dd>
            </div>
            <div>
              <dt>Total</dt>
              <dd>
                <Money amount={item.total} />
              </dd>
            </div>
          </dl>
          <ReturnLines lines={item.lineas} total={item.total} caption="Líneas devueltas" />
          <section aria-labelledby="camino-devolucion">
            <h2 id="camino-devolucion">Qué pasó con ella</h2>
            <Steps item={item} />
          </section>
          {supervisor && <History key={changes} tipo="devolucion" sujeto={id} />}
        </>
      )}
      {decision && (
        <DecisionDialog
          decision={decision}
          onDone={(text) => {
            setDecision(null)
            setNotice(text)
            setChanges(changes + 1)
            loaded.reload()
          }}
          onCancel={() => setDecision(null)}
        />
      )}
    </Page>
  )
}

/** Registered, approved (on the supplier's date), rejected or cancelled: by whom and when. */
function Steps({ item }: { item: ReturnListItem }) {
  return (
    <ol class="pasos">
      <li>
        Registrada por <strong>{item.registradaPor}</strong> el {dateTime(item.registradaEn)}.
      </li>
      {item.aprobadaPor && (
        <li>
          Aprobada por <strong>{item.aprobadaPor}</strong> el {date(item.fechaProcesado)}
          {item.horaProcesado ? ` a las ${item.horaProcesado.slice(0, 5)}` : ''} (fecha de proceso: la que usa el
          proveedor en su listado).
        </li>
      )}
      {item.estado === 'rejected' && (
        <li>
          Rechazada por <strong>{item.cerradaPor}</strong> el {dateTime(item.cerrada_en)}: {item.motivo}
        </li>
      )}
      {item.estado === 'cancelled' && (
        <li>
          Anulada por <strong>{item.cerradaPor}</strong> el {dateTime(item.cerrada_en)}: {item.motivo}
        </li>
      )}
      {item.estado === 'pending' && <li class="tenue">Espera la aprobación de un supervisor.</li>}
    </ol>
  )
}
