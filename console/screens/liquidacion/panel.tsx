import { useState } from 'preact/hooks'
import { api } from '../../api/client.ts'
import type { ManifestDetail } from '../../api/types.ts'
import { money } from '../../format.ts'
import { canSeeDeposits } from '../../session.ts'
import { ErrorNote, Loading } from '../../ui/components.tsx'
import { ActionDialog } from '../../ui/dialog.tsx'
import { useLoad } from '../../ui/data.ts'
import { DepositDialog } from './deposito.tsx'
import type { Dialog, Loaded } from './panel-estado.ts'
import { Part } from './parte.tsx'
import { tone } from './saldo.ts'

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
