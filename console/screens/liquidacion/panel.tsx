import { useState } from 'preact/hooks'
import { api } from '../../api/client.ts'
import type {
  AdjustmentView,
  DepositView,
  ManifestDetail,
  SettlementPartView,
  SettlementRules,
} from '../../api/types.ts'
import { date, dateTime, money } from '../../format.ts'
import { canAdjust, canCancelDeposits, canRegisterDeposits, canSeeDeposits } from '../../session.ts'
import { ErrorNote, Loading, StateTag } from '../../ui/components.tsx'
import { ActionDialog } from '../../ui/dialog.tsx'
import { useLoad } from '../../ui/data.ts'
import { DepositDialog } from './deposito.tsx'

interface Loaded {
  rules: SettlementRules
  deposits: DepositView[]
  adjustments: AdjustmentView[]
}

type Dialog =
  | { kind: 'registrar'; part: SettlementPartView }
  | { kind: 'editar'; part: SettlementPartView; deposit: DepositView }
  | { kind: 'anular'; deposit: DepositView }
  | { kind: 'ajustar'; part: SettlementPartView }

/**
 * «Liquidación» of a manifest (issue 40), one block per warehouse part the person sees:
 * facturado − devuelto = a depositar − depositado − ajustes = diferencia (green at 0, red when
 * short, amber when over), its deposits with their photos and its cent adjustments, and the
 * actions the person's role allows while the manifest is open. Operators see the figures only.
 * Folded, it is one line — the manifest's figures and what keeps it from closing — so the
 * invoices stay in sight (15 or more rows at 1366×768); `expanded` is kept in the address.
 */
export function SettlementPanel({
  manifest,
  changes,
  expanded,
  onExpand,
  onChanged,
}: {
  manifest: ManifestDetail
  changes: number
  expanded: boolean
  onExpand: (expanded: boolean) => void
  onChanged: (message: string) => void
}) {
  const money_ = canSeeDeposits.value
  const loaded = useLoad<Loaded>(async () => {
    const rules = await api.settlement.rules()
    if (!money_) return { rules, deposits: [], adjustments: [] }
    const [deposits, adjustments] = await Promise.all([
      api.settlement.deposits(manifest.numero),
      api.settlement.adjustments(manifest.numero),
    ])
    return { rules, deposits, adjustments }
  }, [manifest.numero, changes, money_])
  const [dialog, setDialog] = useState<Dialog | null>(null)
  const open = manifest.estado === 'imported'
  const { liquidacion } = manifest
  const done = (message: string) => {
    setDialog(null)
    onChanged(message)
  }
  return (
    <section aria-labelledby="liquidacion" class={`liquidacion${expanded ? ' abierta' : ''}`}>
      <div class="liquidacion-encabezado">
        <h2 id="liquidacion">
          <button
            type="button"
            class="plegar"
            aria-expanded={expanded}
            aria-controls="liquidacion-partes"
            onClick={() => onExpand(!expanded)}
          >
            <span aria-hidden="true">{expanded ? '▾' : '▸'}</span> Liquidación
          </button>
        </h2>
        <p class="total-liquidacion">
          A depositar <strong>{money(liquidacion.a_depositar)}</strong> · depositado{' '}
          <strong>{money(liquidacion.depositado)}</strong> · ajustes <strong>{money(liquidacion.ajustes)}</strong> ·
          diferencia <strong class={tone(liquidacion.diferencia)}>{money(liquidacion.diferencia)}</strong>
          {!expanded && liquidacion.por_almacen.length > 1 && ` · ${liquidacion.por_almacen.length} almacenes`}
        </p>
      </div>
      {open && liquidacion.falta && (
        <p id="por-que-no-cierra" class={liquidacion.lista_para_cerrar ? 'aviso' : 'aviso error'}>
          {liquidacion.lista_para_cerrar
            ? 'Se puede cerrar, aunque no está liquidado: '
            : 'Todavía no se puede cerrar: '}
          {liquidacion.falta.charAt(0).toLowerCase() + liquidacion.falta.slice(1)}
        </p>
      )}
      {expanded && (
        <div id="liquidacion-partes">
          <ErrorNote error={loaded.error} />
          {loaded.loading && !loaded.data && <Loading what="los depósitos" />}
          {liquidacion.por_almacen.map((part) => (
            <Part
              key={part.almacen}
              numero={manifest.numero}
              part={part}
              open={open}
              loaded={loaded.data}
              onAction={setDialog}
            />
          ))}
        </div>
      )}
      {dialog?.kind === 'registrar' && loaded.data && (
        <DepositDialog
          numero={manifest.numero}
          part={dialog.part}
          rules={loaded.data.rules}
          onDone={done}
          onCancel={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'editar' && loaded.data && (
        <DepositDialog
          numero={manifest.numero}
          part={dialog.part}
          rules={loaded.data.rules}
          editing={dialog.deposit}
          onDone={done}
          onCancel={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'anular' && (
        <ActionDialog
          title={`Anular el depósito ${dialog.deposit.id}`}
          message={
            <p>
              El depósito de {money(dialog.deposit.monto)} ({dialog.deposit.banco}, boleta {dialog.deposit.referencia})
              dejará de contar en la liquidación. Queda guardado, con el motivo, y su boleta puede registrarse de nuevo.
            </p>
          }
          confirmLabel="Anular depósito"
          danger
          reason={{ label: 'Motivo', required: true }}
          onConfirm={(motivo) => api.settlement.cancel(dialog.deposit.id, motivo)}
          onDone={() => done(`Depósito ${dialog.deposit.id} anulado.`)}
          onCancel={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'ajustar' && (
        <ActionDialog
          title={`Ajustar centavos del almacén ${dialog.part.almacen}`}
          message={
            <p>
              {dialog.part.diferencia > 0
                ? `Faltan ${money(dialog.part.diferencia)} que ningún depósito va a cubrir`
                : `Sobran ${money(-dialog.part.diferencia)}`}
              : el ajuste de {money(dialog.part.diferencia)} deja la diferencia en L 0.00. Un ajuste no se cambia ni se
              borra; si se equivoca, se corrige con el ajuste contrario.
            </p>
          }
          confirmLabel="Ajustar centavos"
          reason={{ label: 'Motivo', required: true }}
          onConfirm={(motivo) =>
            api.settlement.adjust(manifest.numero, {
              almacen: dialog.part.almacen,
              monto: dialog.part.diferencia,
              motivo,
            })
          }
          onDone={() =>
            done(`Ajuste de ${money(dialog.part.diferencia)} registrado en el almacén ${dialog.part.almacen}.`)
          }
          onCancel={() => setDialog(null)}
        />
      )}
    </section>
  )
}

function Part({
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

function Deposits({
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

function Adjustments({ adjustments }: { adjustments: AdjustmentView[] }) {
  return (
    <table class="compacta">
      <caption>Ajustes de centavos</caption>
      <thead>
        <tr>
          <th scope="col">Cuándo</th>
          <th scope="col" class="num">
            Monto
          </th>
          <th scope="col">Motivo</th>
          <th scope="col">Quién</th>
        </tr>
      </thead>
      <tbody>
        {adjustments.map((adjustment) => (
          <tr key={adjustment.id}>
            <td>{dateTime(adjustment.registrado_en)}</td>
            <td class="num">{money(adjustment.monto)}</td>
            <td>{adjustment.motivo}</td>
            <td>{adjustment.registrado_por}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** The color of a diferencia: 0 green, short red, over amber (justified or not: the tag says which). */
export function tone(diferencia: number): string {
  return diferencia === 0 ? 'saldo-cero' : diferencia > 0 ? 'saldo-falta' : 'saldo-sobra'
}
