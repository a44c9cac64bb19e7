import { Fragment, type ComponentChildren } from 'preact'
import { useState } from 'preact/hooks'
import { Link } from 'wouter-preact'
import { api } from '../../api/client.ts'
import type { ReturnView } from '../../api/types.ts'
import { date, dateTime, quantity, RETURN_STATES } from '../../format.ts'
import { ReturnLines } from './lineas.tsx'
import { useNarrow } from '../../ui/screen.ts'
import { isSupervisor } from '../../session.ts'
import { Empty, Money, Notice, StateTag } from '../../ui/components.tsx'
import { ActionDialog } from '../../ui/dialog.tsx'
import { SortHeader } from '../../ui/lists.tsx'

export type Decision = { kind: 'aprobar' | 'rechazar' | 'anular'; item: ReturnView }

/** The rows every list of returns has: which, whose, how much, in what state; a supervisor decides from here. */
export function ReturnsTable<Row extends ReturnView = ReturnView>({
  returns,
  onChanged,
  empty,
  selection,
  extraColumns,
  showInvoice = true,
  sorting,
  totals,
}: {
  returns: Row[]
  onChanged: () => void
  empty: ComponentChildren
  /** Pending rows get a checkbox (bulk approval). */
  selection?: {
    selected: ReadonlySet<string>
    toggle: (id: string) => void
    toggleAll: (ids: string[], on: boolean) => void
  }
  extraColumns?: { header: string; cell: (item: Row) => ComponentChildren }[]
  /** False on an invoice's own page, where the invoice column would repeat its title. */
  showInvoice?: boolean
  /** Fecha and Total sort the list (its order in the address). */
  sorting?: { order: string; onOrder: (order: string) => void }
  /** The totals row: what all the filtered returns add up to (every page). */
  totals?: { count: number; amount: number }
}) {
  const [decision, setDecision] = useState<Decision | null>(null)
  const [opened, setOpened] = useState<ReadonlySet<string>>(new Set())
  const narrow = useNarrow()
  const [notice, setNotice] = useState<string | null>(null)
  const supervisor = isSupervisor.value
  if (returns.length === 0) {
    return (
      <>
        <Notice text={notice} />
        <Empty>{empty}</Empty>
      </>
    )
  }
  const selectable = returns.filter((item) => item.estado === 'pending' && !item.sin_acciones).map((item) => item.id)
  const allSelected =
    selection !== undefined && selectable.length > 0 && selectable.every((id) => selection.selected.has(id))
  return (
    <>
      <Notice text={notice} />
      <table class="devoluciones">
        <thead>
          <tr>
            {selection && (
              <th scope="col" class="seleccion">
                <input
                  type="checkbox"
                  aria-label="Seleccionar todas las pendientes de esta página"
                  checked={allSelected}
                  disabled={selectable.length === 0}
                  onChange={(event) => selection.toggleAll(selectable, event.currentTarget.checked)}
                />
              </th>
            )}
            <th scope="col">Devolución</th>
            {showInvoice && <th scope="col">Factura</th>}
            {extraColumns?.map((column) => (
              <th key={column.header} scope="col">
                {column.header}
              </th>
            ))}
            {!narrow && <th scope="col">Concepto</th>}
            {sorting ? (
              <SortHeader
                label="Fecha"
                field="fecha"
                order={sorting.order}
                onOrder={sorting.onOrder}
                defaultOrder="reciente"
              />
            ) : (
              <th scope="col">Fecha</th>
            )}
            <th scope="col">Estado</th>
            {sorting ? (
              <SortHeader
                label="Total"
                field="total"
                numeric
                order={sorting.order}
                onOrder={sorting.onOrder}
                defaultOrder="reciente"
              />
            ) : (
              <th scope="col" class="num">
                Total
              </th>
            )}
            {!narrow && <th scope="col">Registrada por</th>}
            {supervisor && <th scope="col">Acciones</th>}
          </tr>
        </thead>
        <tbody>
          {returns.map((item) => {
            const open = opened.has(item.id)
            const toggle = () =>
              setOpened((previous) => {
                const next = new Set(previous)
                if (next.has(item.id)) next.delete(item.id)
                else next.add(item.id)
                return next
              })
            const columns =
              (selection ? 1 : 0) +
              1 +
              (showInvoice ? 1 : 0) +
              (extraColumns?.length ?? 0) +
              (narrow ? 3 : 5) +
              (supervisor ? 1 : 0)
            return (
              <Fragment key={item.id}>
                <tr class={open ? 'abierta' : undefined}>
                  {selection && (
                    <td class="seleccion">
                      {item.estado === 'pending' && !item.sin_acciones && (
                        <input
                          type="checkbox"
                          aria-label={`Seleccionar la devolución ${item.id}`}
                          checked={selection.selected.has(item.id)}
                          onChange={() => selection.toggle(item.id)}
                        />
                      )}
                    </td>
                  )}
                  <th scope="row">
                    <Link href={`/devoluciones/${item.id}`}>{item.id}</Link>
                    <button
                      type="button"
                      class="enlace ver-lineas"
                      aria-expanded={open}
                      aria-label={`Líneas de la devolución ${item.id}`}
                      onClick={toggle}
                    >
                      {open ? '▾' : '▸'} {item.lineas.length === 1 ? '1 línea' : `${item.lineas.length} líneas`}
                    </button>
                  </th>
                  {showInvoice && (
                    <td>
                      <Link href={`/facturas/${encodeURIComponent(item.factura)}`}>{item.factura}</Link>
                      <span class="detalle"> Manifiesto {item.manifiesto}</span>
                    </td>
                  )}
                  {extraColumns?.map((column) => (
                    <td key={column.header}>{column.cell(item)}</td>
                  ))}
                  {!narrow && <td>{item.conceptoDescripcion}</td>}
                  <td class="fecha">
                    {date(item.fecha)}
                    {narrow && <span class="detalle debajo">{item.conceptoDescripcion}</span>}
                  </td>
                  <td>
                    <StateTag state={item.estado} label={RETURN_STATES[item.estado]} />
                    {item.motivo && <span class="detalle"> {item.motivo}</span>}
                    {item.estado === 'approved' && item.fechaProcesado && (
                      <span class="detalle">
                        {' '}
                        {dateTime(`${item.fechaProcesado.slice(0, 10)} ${item.horaProcesado ?? ''}`)}
                      </span>
                    )}
                    {narrow && <span class="detalle debajo">por {item.registradaPor}</span>}
                  </td>
                  <td class="num">
                    <Money amount={item.total} />
                  </td>
                  {!narrow && (
                    <td>
                      {item.registradaPor}
                      <span class="detalle"> {dateTime(item.registradaEn)}</span>
                    </td>
                  )}
                  {supervisor && (
                    <td class="acciones-fila">
                      {item.sin_acciones && <span class="detalle">{item.sin_acciones}</span>}
                      {item.estado === 'pending' && !item.sin_acciones && (
                        <>
                          <button
                            type="button"
                            aria-label={`Aprobar la devolución ${item.id}`}
                            onClick={() => setDecision({ kind: 'aprobar', item })}
                          >
                            Aprobar
                          </button>
                          <button
                            type="button"
                            aria-label={`Rechazar la devolución ${item.id}`}
                            onClick={() => setDecision({ kind: 'rechazar', item })}
                          >
                            Rechazar
                          </button>
                        </>
                      )}
                      {item.estado === 'approved' && !item.sin_acciones && (
                        <button
                          type="button"
                          aria-label={`Anular la devolución ${item.id}`}
                          onClick={() => setDecision({ kind: 'anular', item })}
                        >
                          Anular
                        </button>
                      )}
                    </td>
                  )}
                </tr>
                {open && (
                  <tr class="lineas-en-fila">
                    <td colSpan={columns}>
                      <ReturnLines
                        lines={item.lineas}
                        total={item.total}
                        caption={`Líneas de la devolución ${item.id} · registrada por ${item.registradaPor} el ${dateTime(item.registradaEn)}`}
                      />
                    </td>
                  </tr>
                )}
              </Fragment>
            )
          })}
        </tbody>
        {totals && (
          <tfoot>
            <tr>
              <th
                scope="row"
                colSpan={
                  (selection ? 1 : 0) + 1 + (showInvoice ? 1 : 0) + (extraColumns?.length ?? 0) + (narrow ? 2 : 3)
                }
                class="num"
              >
                Total de lo filtrado ({totals.count === 1 ? '1 devolución' : `${quantity(totals.count)} devoluciones`})
              </th>
              <td class="num">
                <Money amount={totals.amount} />
              </td>
              {(narrow ? 0 : 1) + (supervisor ? 1 : 0) > 0 && <td colSpan={(narrow ? 0 : 1) + (supervisor ? 1 : 0)} />}
            </tr>
          </tfoot>
        )}
      </table>
      {decision && (
        <DecisionDialog
          decision={decision}
          onDone={(text) => {
            setDecision(null)
            setNotice(text)
            onChanged()
          }}
          onCancel={() => setDecision(null)}
        />
      )}
    </>
  )
}

export function DecisionDialog({
  decision,
  onDone,
  onCancel,
}: {
  decision: Decision
  onDone: (text: string) => void
  onCancel: () => void
}) {
  const { kind, item } = decision
  const amount = <Money amount={item.total} />
  if (kind === 'aprobar') {
    return (
      <ActionDialog
        title={`Aprobar la devolución ${item.id}`}
        message={
          <p>
            La devolución de la factura {item.factura} por {amount} pasará al listado que consulta el proveedor.
          </p>
        }
        confirmLabel="Aprobar"
        onConfirm={() => api.returns.approve(item.id)}
        onDone={() => onDone(`Devolución ${item.id} aprobada.`)}
        onCancel={onCancel}
      />
    )
  }
  if (kind === 'rechazar') {
    return (
      <ActionDialog
        title={`Rechazar la devolución ${item.id}`}
        message={
          <p>
            La devolución de la factura {item.factura} por {amount} no se enviará al proveedor y sus unidades quedan
            libres. No se puede deshacer.
          </p>
        }
        confirmLabel="Rechazar"
        danger
        reason={{ label: 'Motivo del rechazo', required: true }}
        onConfirm={(motivo) => api.returns.reject(item.id, motivo)}
        onDone={() => onDone(`Devolución ${item.id} rechazada.`)}
        onCancel={onCancel}
      />
    )
  }
  return (
    <ActionDialog
      title={`Anular la devolución ${item.id}`}
      message={
        <p>
          La devolución aprobada de la factura {item.factura} por {amount} saldrá del listado del proveedor y sus
          unidades quedan libres. No se puede deshacer.
        </p>
      }
      confirmLabel="Anular"
      danger
      reason={{ label: 'Motivo de la anulación', required: true }}
      onConfirm={(motivo) => api.returns.cancel(item.id, motivo)}
      onDone={() => onDone(`Devolución ${item.id} anulada.`)}
      onCancel={onCancel}
    />
  )
}
