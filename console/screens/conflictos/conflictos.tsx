import { useState } from 'preact/hooks'
import { Link } from 'wouter-preact'
import { api } from '../../api/client.ts'
import type { ConflictView, ReissueView } from '../../api/types.ts'
import { count, date, dateTime, OTHER_WAREHOUSE_INVOICE, quantity } from '../../format.ts'
import { matchesSearch, searchTerms } from '../../../src/shared/search-terms.ts'
import { Empty, ErrorNote, Loading, Money, Notice, Page } from '../../ui/components.tsx'
import { ActionDialog } from '../../ui/dialog.tsx'
import { Field } from '../../ui/fields.tsx'
import { fieldLabel } from '../../ui/labels.ts'
import { useLoad } from '../../ui/data.ts'
import { fieldChanges, lineChanges, shown } from './diferencias.ts'

type Decision =
  | { kind: 'aceptar' | 'descartar'; conflict: ConflictView }
  | { kind: 'confirmar' | 'descartar-reemision'; reissue: ReissueView }

/**
 * Conflictos: invoices the supplier sent again with changes after returns existed, held for a
 * supervisor — the two versions side by side — and possible re-issued copies of invoices.
 */
export function ConflictsScreen() {
  const conflicts = useLoad(() => api.conflicts.list('pending'), [])
  const reissues = useLoad(() => api.reissues.list('pending'), [])
  const [decision, setDecision] = useState<Decision | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const [search, setSearch] = useState('')
  // The same matching as every search (src/shared/search-terms.ts), over the conflicts on screen.
  const terms = searchTerms(search)
  const shownConflicts = (conflicts.data ?? []).filter((conflict) =>
    matchesSearch([conflict.factura, conflict.cliente, conflict.clienteid, conflict.manifiesto], terms),
  )
  const done = (text: string) => () => {
    setDecision(null)
    setNotice(text)
    conflicts.reload()
    reissues.reload()
  }
  return (
    <Page
      title="Conflictos"
      subtitle="Versiones nuevas de facturas retenidas para revisión, y posibles facturas re-emitidas."
    >
      <Notice text={notice} />
      <ErrorNote error={conflicts.error} />
      {conflicts.loading && !conflicts.data && <Loading what="los conflictos" />}
      {conflicts.data && conflicts.data.length > 1 && (
        <form
          class="filtros compactos"
          role="search"
          aria-label="Buscar conflictos"
          noValidate
          onSubmit={(event) => event.preventDefault()}
        >
          <Field
            label="Buscar conflicto"
            hint="Factura, cliente (nombre o código) o manifiesto; sin tildes y en cualquier orden"
          >
            {(id, hint) => (
              <input
                id={id}
                type="search"
                maxLength={100}
                aria-describedby={hint}
                value={search}
                onInput={(event) => setSearch(event.currentTarget.value)}
              />
            )}
          </Field>
        </form>
      )}
      {conflicts.data && conflicts.data.length === 0 && (
        <Empty>
          No hay conflictos por decidir. Aparecen aquí cuando el proveedor reenvía una factura ya guardada con cambios
          en datos que no se actualizan solos (el cliente, el total o las líneas, por ejemplo): la factura se queda como
          estaba hasta que un supervisor decide.
        </Empty>
      )}
      {shownConflicts.length === 0 && (conflicts.data?.length ?? 0) > 0 && (
        <Empty>Ningún conflicto coincide con «{search.trim()}».</Empty>
      )}
      {shownConflicts.map((conflict) => (
        <Conflict key={conflict.id} conflict={conflict} onDecide={(kind) => setDecision({ kind, conflict })} />
      ))}
      <section aria-labelledby="reemisiones" id="reemisiones">
        <h2 id="reemisiones">Posibles re-emisiones</h2>
        <ErrorNote error={reissues.error} />
        {reissues.data && reissues.data.length === 0 && <Empty>No hay posibles re-emisiones por revisar.</Empty>}
        {reissues.data && reissues.data.length > 0 && (
          <table>
            <thead>
              <tr>
                <th scope="col">Factura nueva</th>
                <th scope="col">Igual a</th>
                <th scope="col">Cliente</th>
                <th scope="col" class="num">
                  Total
                </th>
                <th scope="col" class="num">
                  Días entre ambas
                </th>
                <th scope="col">Acciones</th>
              </tr>
            </thead>
            <tbody>
              {reissues.data.map((reissue) => (
                <tr key={reissue.id}>
                  <th scope="row">
                    <Link href={`/facturas/${encodeURIComponent(reissue.factura.factura)}`}>
                      {reissue.factura.factura}
                    </Link>
                    <span class="detalle">
                      {' '}
                      Manifiesto {reissue.factura.manifiesto} · {date(reissue.factura.fecha_factura)}
                    </span>
                  </th>
                  <td>
                    <Original original={reissue.identica_a} />
                  </td>
                  <td>{reissue.factura.cliente}</td>
                  <td class="num">
                    <Money amount={reissue.factura.total} />
                  </td>
                  <td class="num">{quantity(reissue.dias_diferencia)}</td>
                  <td class="acciones-fila">
                    <button
                      type="button"
                      aria-label={`Confirmar que ${reissue.factura.factura} es una copia`}
                      onClick={() => setDecision({ kind: 'confirmar', reissue })}
                    >
                      Es copia
                    </button>
                    <button
                      type="button"
                      aria-label={`Descartar: ${reissue.factura.factura} es un pedido legítimo`}
                      onClick={() => setDecision({ kind: 'descartar-reemision', reissue })}
                    >
                      Es pedido legítimo
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {decision?.kind === 'aceptar' && (
        <ActionDialog
          title={`Aceptar la versión nueva de ${decision.conflict.factura}`}
          message="La factura queda como la envió el proveedor la última vez. Las devoluciones registradas se conservan."
          confirmLabel="Aceptar versión nueva"
          reason={{ label: 'Nota', required: false }}
          onConfirm={(nota) => api.conflicts.accept(decision.conflict.id, nota || undefined)}
          onDone={done(`Conflicto de ${decision.conflict.factura} aceptado: la factura tiene la versión nueva.`)}
          onCancel={() => setDecision(null)}
        />
      )}
      {decision?.kind === 'descartar' && (
        <ActionDialog
          title={`Descartar la versión nueva de ${decision.conflict.factura}`}
          message="La factura se queda como estaba; la versión nueva se guarda solo en el historial."
          confirmLabel="Descartar versión nueva"
          danger
          reason={{ label: 'Nota', required: false }}
          onConfirm={(nota) => api.conflicts.discard(decision.conflict.id, nota || undefined)}
          onDone={done(`Conflicto de ${decision.conflict.factura} descartado: la factura se queda como estaba.`)}
          onCancel={() => setDecision(null)}
        />
      )}
      {decision?.kind === 'confirmar' && (
        <ActionDialog
          title={`Confirmar que ${decision.reissue.factura.factura} es una copia`}
          message={`La factura ${decision.reissue.factura.factura} se anula: sale de los totales de su manifiesto y no admite devoluciones. No se puede deshacer.`}
          confirmLabel="Confirmar re-emisión"
          danger
          reason={{ label: 'Nota', required: false }}
          onConfirm={(nota) => api.reissues.confirm(decision.reissue.id, nota || undefined)}
          onDone={done(`Factura ${decision.reissue.factura.factura} anulada como re-emisión.`)}
          onCancel={() => setDecision(null)}
        />
      )}
      {decision?.kind === 'descartar-reemision' && (
        <ActionDialog
          title={`${decision.reissue.factura.factura} es un pedido legítimo`}
          message="La factura sigue válida; la sospecha se descarta."
          confirmLabel="Descartar sospecha"
          reason={{ label: 'Nota', required: false }}
          onConfirm={(nota) => api.reissues.discard(decision.reissue.id, nota || undefined)}
          onDone={done(`Sospecha sobre ${decision.reissue.factura.factura} descartada.`)}
          onCancel={() => setDecision(null)}
        />
      )}
    </Page>
  )
}

/** The invoice a re-issue repeats, or — when it is of a warehouse the person does not have — only that it exists. */
function Original({ original }: { original: ReissueView['identica_a'] }) {
  if (original.factura === null) return <span class="tenue">{OTHER_WAREHOUSE_INVOICE}</span>
  return (
    <>
      <Link href={`/facturas/${encodeURIComponent(original.factura)}`}>{original.factura}</Link>
      <span class="detalle">
        {' '}
        Manifiesto {original.manifiesto} · {date(original.fecha_factura)}
      </span>
    </>
  )
}

function Conflict({
  conflict,
  onDecide,
}: {
  conflict: ConflictView
  onDecide: (kind: 'aceptar' | 'descartar') => void
}) {
  const detail = useLoad(() => api.conflicts.get(conflict.id), [conflict.id])
  const fields = fieldChanges(conflict)
  const lines = detail.data ? lineChanges(detail.data) : []
  const headingId = `conflicto-${conflict.id}`
  return (
    <article class="conflicto" aria-labelledby={headingId}>
      <header class="encabezado-pantalla">
        <div>
          <h2 id={headingId}>
            Factura <Link href={`/facturas/${encodeURIComponent(conflict.factura)}`}>{conflict.factura}</Link> ·{' '}
            {conflict.cliente}
          </h2>
          <p class="subtitulo">
            Cliente {conflict.clienteid} · manifiesto{' '}
            <Link href={`/manifiestos/${conflict.manifiesto}`}>{conflict.manifiesto}</Link> · {conflict.almacen} ·
            versión nueva recibida {dateTime(conflict.recibido_en)} · {count(fields.length, 'campo')}
            {detail.data ? ` y ${count(lines.length, 'línea')}` : ''} con cambios
          </p>
        </div>
        <div class="acciones">
          <button
            type="button"
            class="principal"
            aria-label={`Aceptar la versión nueva de ${conflict.factura}`}
            onClick={() => onDecide('aceptar')}
          >
            Aceptar versión nueva
          </button>
          <button
            type="button"
            aria-label={`Descartar la versión nueva de ${conflict.factura}`}
            onClick={() => onDecide('descartar')}
          >
            Descartar
          </button>
        </div>
      </header>
      {fields.length > 0 && (
        <table class="comparacion">
          <caption>Campos de la factura</caption>
          <thead>
            <tr>
              <th scope="col">Campo</th>
              <th scope="col">Versión guardada</th>
              <th scope="col">Versión recibida</th>
            </tr>
          </thead>
          <tbody>
            {fields.map((change) => (
              <tr key={change.campo}>
                <th scope="row">{fieldLabel(change.campo)}</th>
                <td class="antes">{shown(change.antes, change.campo)}</td>
                <td class="despues">{shown(change.despues, change.campo)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ErrorNote error={detail.error} />
      {lines.length > 0 && (
        <table class="comparacion">
          <caption>Líneas</caption>
          <thead>
            <tr>
              <th scope="col">Línea</th>
              <th scope="col">Producto</th>
              <th scope="col">Campo</th>
              <th scope="col">Versión guardada</th>
              <th scope="col">Versión recibida</th>
            </tr>
          </thead>
          <tbody>
            {lines.flatMap((line) =>
              line.tipo === 'modificada'
                ? line.cambios.map((change, index) => (
                    <tr key={`${line.numeroLinea}-${change.campo}`}>
                      {index === 0 && (
                        <th scope="row" rowSpan={line.cambios.length}>
                          {line.numeroLinea}
                        </th>
                      )}
                      {index === 0 && <td rowSpan={line.cambios.length}>{line.producto}</td>}
                      <td>{fieldLabel(change.campo)}</td>
                      <td class="antes">{shown(change.antes, change.campo)}</td>
                      <td class="despues">{shown(change.despues, change.campo)}</td>
                    </tr>
                  ))
                : [
                    <tr key={line.numeroLinea}>
                      <th scope="row">{line.numeroLinea}</th>
                      <td>{line.producto}</td>
                      <td colSpan={3} class={line.tipo === 'agregada' ? 'despues' : 'antes'}>
                        {line.tipo === 'agregada'
                          ? 'Línea nueva en la versión recibida'
                          : 'La versión recibida ya no trae esta línea'}
                      </td>
                    </tr>,
                  ],
            )}
          </tbody>
        </table>
      )}
    </article>
  )
}
