import { api } from '../../api/client.ts'
import type { DepositView, SettlementPartView } from '../../api/types.ts'
import { date, dateTime, money } from '../../format.ts'
import { canCancelDeposits, canRegisterDeposits } from '../../session.ts'
import { StateTag } from '../../ui/components.tsx'
import type { Dialog } from './panel-estado.ts'

export function Deposits({
  part,
  deposits,
  open,
  onAction,
}: {
  part: SettlementPartView
  deposits: DepositView[]
  open: boolean
  onAction: (dialog: Dialog) => void
}) {
  if (deposits.length === 0) return <p class="tenue">Sin depósitos todavía.</p>
  return (
    <table class="compacta depositos">
      <caption class="oculto">Depósitos del almacén {part.almacen}</caption>
      <thead>
        <tr>
          <th scope="col">Depósito</th>
          <th scope="col">Fecha</th>
          <th scope="col">Banco</th>
          <th scope="col">Boleta</th>
          <th scope="col" class="num">
            Monto
          </th>
          <th scope="col">Foto</th>
          <th scope="col">Registró</th>
          <th scope="col">
            <span class="oculto">Acciones</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {deposits.map((deposit) => {
          const active = deposit.estado === 'active'
          return (
            <tr key={deposit.id} class={active ? undefined : 'anulada'}>
              <th scope="row">{deposit.id}</th>
              <td>{date(deposit.fecha)}</td>
              <td>{deposit.banco}</td>
              <td>
                {deposit.referencia}
                {deposit.justificacion && <span class="detalle">Justificación: {deposit.justificacion}</span>}
                {deposit.notas && <span class="detalle">{deposit.notas}</span>}
              </td>
              <td class="num">{money(deposit.monto)}</td>
              <td>
                <Receipt deposit={deposit} />
              </td>
              <td>
                {deposit.registrado_por}
                <span class="detalle">{dateTime(deposit.registrado_en)}</span>
              </td>
              <td class="acciones-fila">
                {!active && <StateTag state="cancelled" label={`Anulado: ${deposit.motivo_anulacion ?? ''}`} />}
                {active && open && canRegisterDeposits.value && (
                  <button
                    type="button"
                    onClick={() => onAction({ kind: 'editar', part, deposit })}
                    aria-label={`Cambiar el depósito ${deposit.id}`}
                  >
                    Cambiar
                  </button>
                )}
                {active && open && canCancelDeposits.value && (
                  <button
                    type="button"
                    onClick={() => onAction({ kind: 'anular', deposit })}
                    aria-label={`Anular el depósito ${deposit.id}`}
                  >
                    Anular
                  </button>
                )}
              </td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}

/** The slip's photo as a small picture that opens whole, a PDF link, or why there is none. */
function Receipt({ deposit }: { deposit: DepositView }) {
  const receipt = deposit.comprobante
  if (receipt === null) return <span class="tenue">Sin foto</span>
  if (!receipt.disponible) return <span class="tenue">Eliminada el {date(receipt.eliminado_en)} (retención)</span>
  const url = api.settlement.receiptUrl(deposit.id)
  if (receipt.tipo === 'application/pdf') return <a href={url}>PDF de la boleta {deposit.referencia}</a>
  return (
    <a href={url} target="_blank" rel="noopener">
      <img class="miniatura" src={url} alt={`Foto de la boleta ${deposit.referencia}`} loading="lazy" />
    </a>
  )
}
