import type { SettlementPartView } from '../../api/types.ts'
import { money } from '../../format.ts'
import { canAdjust, canRegisterDeposits, canSeeDeposits } from '../../session.ts'
import { StateTag } from '../../ui/components.tsx'
import type { Dialog, Loaded } from './panel-estado.ts'
import { Adjustments } from './parte-ajustes.tsx'
import { Deposits } from './parte-depositos.tsx'
import { tone } from './saldo.ts'

export function Part({
  numero,
  part,
  open,
  loaded,
  onAction,
}: {
  numero: string
  part: SettlementPartView
  open: boolean
  loaded: Loaded | undefined
  onAction: (dialog: Dialog) => void
}) {
  const headingId = `parte-${numero}-${part.almacen}`
  const deposits = loaded?.deposits.filter((deposit) => deposit.almacen === part.almacen) ?? []
  const adjustments = loaded?.adjustments.filter((adjustment) => adjustment.almacen === part.almacen) ?? []
  const adjustable =
    loaded !== undefined &&
    canAdjust.value &&
    open &&
    part.diferencia !== 0 &&
    Math.abs(part.diferencia) <= loaded.rules.ajuste_maximo
  const pending =
    part.devoluciones_pendientes > 0
      ? `${part.devoluciones_pendientes === 1 ? '1 devolución pendiente' : `${part.devoluciones_pendientes} devoluciones pendientes`}`
      : null
  const state = part.liquidada
    ? part.diferencia < 0
      ? 'Liquidado, sobrepago justificado'
      : 'Liquidado'
    : [
        part.diferencia > 0
          ? `Falta ${money(part.diferencia)}`
          : part.diferencia < 0
            ? `Sobran ${money(-part.diferencia)} sin justificar`
            : null,
        pending,
      ]
        .filter(Boolean)
        .join(' · ')
  return (
    <section aria-labelledby={headingId} class={`parte ${tone(part.diferencia)}`}>
      <div class="parte-encabezado">
        <div class="parte-nombre">
          <h3 id={headingId}>Almacén {part.almacen}</h3>
          <StateTag
            state={
              part.liquidada ? 'liquidada' : part.diferencia > 0 ? 'falta' : part.diferencia < 0 ? 'sobra' : 'pending'
            }
            label={state}
          />
        </div>
        <dl class="formula" aria-label={`Cuentas del almacén ${part.almacen}`}>
          <Term label="Facturado" amount={part.facturado} />
          <Sign text="−" />
          <Term label="Devuelto" amount={part.devuelto} />
          <Sign text="=" />
          <Term label="A depositar" amount={part.a_depositar} />
          <Sign text="−" />
          <Term label="Depositado" amount={part.depositado} />
          <Sign text="−" />
          <Term label="Ajustes" amount={part.ajustes} />
          <Sign text="=" />
          <Term label="Diferencia" amount={part.diferencia} strong />
        </dl>
        <span class="acciones">
          {open && canRegisterDeposits.value && loaded && (
            <button
              type="button"
              class={part.diferencia > 0 ? 'principal' : undefined}
              onClick={() => onAction({ kind: 'registrar', part })}
            >
              Registrar depósito
            </button>
          )}
          {adjustable && (
            <button type="button" onClick={() => onAction({ kind: 'ajustar', part })}>
              Ajustar centavos
            </button>
          )}
        </span>
      </div>
      {part.falta && part.diferencia < 0 && <p class="falta aviso-suave">{part.falta}</p>}
      {loaded && canSeeDeposits.value && <Deposits part={part} deposits={deposits} open={open} onAction={onAction} />}
      {adjustments.length > 0 && <Adjustments adjustments={adjustments} />}
    </section>
  )
}

function Term({ label, amount, strong }: { label: string; amount: number; strong?: boolean }) {
  return (
    <div class={strong ? 'termino resultado' : 'termino'}>
      <dt>{label}</dt>
      <dd class="num">{money(amount)}</dd>
    </div>
  )
}

function Sign({ text }: { text: string }) {
  return (
    <span class="signo" aria-hidden="true">
      {text}
    </span>
  )
}
