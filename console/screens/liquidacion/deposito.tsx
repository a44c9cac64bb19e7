import { useEffect, useId, useRef, useState } from 'preact/hooks'
import { api, type ApiError } from '../../api/client.ts'
import type { DepositChange, DepositView, SettlementPartView, SettlementRules } from '../../api/types.ts'
import { money, moneyField, parseMoney } from '../../format.ts'
import { serverToday } from '../../session.ts'
import { ErrorNote } from '../../ui/components.tsx'
import { DateField, Field } from '../../ui/fields.tsx'
import { asApiError } from '../../ui/data.ts'
import { prepareReceipt, type ReadyReceipt } from './foto.ts'

export interface DepositDialogProps {
  numero: string
  part: SettlementPartView
  rules: SettlementRules
  /** The deposit being changed; absent to register a new one. */
  editing?: DepositView
  onDone: (message: string) => void
  onCancel: () => void
}

/**
 * «Registrar depósito» (or change one): amount pre-filled with what is missing of the part, bank,
 * the slip's date and number, notes, a justification when it deposits more than is missing, and
 * the slip's photo from the tablet's camera or a file — made small here before it is sent. Every
 * message is the console's own or the service's, in Spanish (no browser bubbles).
 */
export function DepositDialog({ numero, part, rules, editing, onDone, onCancel }: DepositDialogProps) {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  // Lo que falta sin este depósito: lo que el monto puede cubrir sin sobrepago.
  const missing = Math.round((part.diferencia + (editing?.monto ?? 0)) * 100) / 100
  const [monto, setMonto] = useState(editing ? moneyField(editing.monto) : missing > 0 ? moneyField(missing) : '')
  const [fecha, setFecha] = useState(editing?.fecha ?? serverToday.value)
  const [banco, setBanco] = useState(editing?.banco ?? '')
  const [referencia, setReferencia] = useState(editing?.referencia ?? '')
  const [notas, setNotas] = useState(editing?.notas ?? '')
  const [justificacion, setJustificacion] = useState(editing?.justificacion ?? '')
  const [photo, setPhoto] = useState<ReadyReceipt | null>(null)
  const [preparing, setPreparing] = useState(false)
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<ApiError | null>(null)
  const [saved, setSaved] = useState<DepositView | null>(null)
  useEffect(() => {
    if (ref.current && !ref.current.open) ref.current.showModal()
  }, [])
  const amount = parseMoney(monto)
  const over =
    amount !== null && Math.round((amount - missing) * 100) > 0 ? Math.round((amount - missing) * 100) / 100 : 0
  const say = (message: string) => setProblem({ message } as ApiError)

  const choose = async (file: File | undefined) => {
    if (!file) return
    setPreparing(true)
    setProblem(null)
    try {
      const ready = await prepareReceipt(file)
      if (ready.file.size > rules.comprobante_max_mb * 1024 * 1024)
        throw new Error(
          `${ready.description}: pasa el máximo de ${rules.comprobante_max_mb} MB. Elija un PDF más liviano o tome la foto de nuevo.`,
        )
      setPhoto(ready)
    } catch (failure) {
      setPhoto(null)
      say(failure instanceof Error ? failure.message : String(failure))
    } finally {
      setPreparing(false)
    }
  }

  const submit = async (event: Event) => {
    event.preventDefault()
    if (amount === null || amount <= 0)
      return say('Escriba el monto en lempiras, mayor que 0, con a lo sumo dos decimales (por ejemplo 1,234.50).')
    if (fecha === '') return say('Escriba la fecha de la boleta, por ejemplo 22/11/2026.')
    if (banco === '') return say('Elija el banco de la boleta.')
    if (referencia.trim() === '') return say('Escriba el número de la boleta (la referencia del banco).')
    if (over > 0 && justificacion.trim().length < 15)
      return say(
        `El depósito deja ${money(over)} de más: escriba por qué en «Justificación» (al menos 15 caracteres), o corrija el monto.`,
      )
    setBusy(true)
    setProblem(null)
    try {
      // A deposit saved whose photo failed is not registered twice: only the photo is sent again.
      const deposit =
        saved ??
        (editing
          ? await api.settlement.change(
              editing.id,
              changesOf(editing, { monto: amount, fecha, banco, referencia, notas, justificacion, over }),
            )
          : await api.settlement.register(numero, {
              almacen: part.almacen,
              monto: amount,
              fecha,
              banco,
              referencia: referencia.trim(),
              ...(notas.trim() ? { notas: notas.trim() } : {}),
              ...(over > 0 ? { justificacion: justificacion.trim() } : {}),
            }))
      setSaved(deposit)
      if (photo !== null) {
        try {
          await api.settlement.uploadReceipt(deposit.id, photo.file, photo.name)
        } catch (failure) {
          setBusy(false)
          return setProblem({
            message: `El depósito ${deposit.id} quedó ${editing ? 'guardado' : 'registrado'}, pero la foto no se guardó: ${asApiError(failure).message} Vuelva a intentarlo o cierre y súbala después.`,
          } as ApiError)
        }
      }
      ref.current?.close()
      onDone(
        `Depósito ${deposit.id} ${editing ? 'guardado' : 'registrado'}: ${money(deposit.monto)} de ${deposit.banco} (almacén ${deposit.almacen}).`,
      )
    } catch (failure) {
      setProblem(asApiError(failure))
      setBusy(false)
    }
  }

  const close = () => {
    ref.current?.close()
    if (saved !== null) onDone(`Depósito ${saved.id} ${editing ? 'guardado' : 'registrado'}, sin foto.`)
    else onCancel()
  }

  return (
    <dialog
      ref={ref}
      class="dialogo ancho"
      aria-labelledby={titleId}
      onCancel={(event) => (busy ? event.preventDefault() : close())}
    >
      <form onSubmit={submit} noValidate>
        <h2 id={titleId}>{editing ? `Cambiar el depósito ${editing.id}` : 'Registrar depósito'}</h2>
        <p class="mensaje">
          Manifiesto {numero}, almacén {part.almacen}.{' '}
          {missing > 0
            ? `Falta depositar ${money(missing)}.`
            : missing < 0
              ? `Ya hay ${money(-missing)} de más.`
              : 'No falta nada por depositar.'}
        </p>
        <div class="rejilla">
          <Field label="Monto (L)" hint={over > 0 ? `Deja ${money(over)} de más` : 'Lo que dice la boleta'}>
            {(id, hint) => (
              <input
                id={id}
                inputMode="decimal"
                autoComplete="off"
                aria-describedby={hint}
                value={monto}
                onInput={(event) => setMonto(event.currentTarget.value)}
                disabled={saved !== null}
              />
            )}
          </Field>
          <DateField label="Fecha de la boleta" value={fecha} onChange={setFecha} max={serverToday.value} />
          <Field label="Banco">
            {(id) => (
              <select
                id={id}
                value={banco}
                onChange={(event) => setBanco(event.currentTarget.value)}
                disabled={saved !== null}
              >
                <option value="">Elija el banco</option>
                {rules.bancos.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Número de boleta">
            {(id) => (
              <input
                id={id}
                maxLength={100}
                autoComplete="off"
                value={referencia}
                onInput={(event) => setReferencia(event.currentTarget.value)}
                disabled={saved !== null}
              />
            )}
          </Field>
        </div>
        {(over > 0 || (editing?.justificacion ?? '') !== '') && (
          <Field label="Justificación" hint="Por qué se deposita de más (15 a 1,000 caracteres); queda en la auditoría">
            {(id, hint) => (
              <textarea
                id={id}
                rows={2}
                maxLength={1000}
                aria-describedby={hint}
                value={justificacion}
                onInput={(event) => setJustificacion(event.currentTarget.value)}
                disabled={saved !== null}
              />
            )}
          </Field>
        )}
        <Field label="Notas (opcional)">
          {(id) => (
            <textarea
              id={id}
              rows={2}
              maxLength={1000}
              value={notas}
              onInput={(event) => setNotas(event.currentTarget.value)}
              disabled={saved !== null}
            />
          )}
        </Field>
        <fieldset class="foto">
          <legend>Foto de la boleta {editing?.comprobante ? '(reemplaza la que tiene)' : '(opcional)'}</legend>
          <input
            id={`${titleId}-camara`}
            class="oculto"
            type="file"
            accept="image/*"
            capture="environment"
            onChange={(event) => void choose(event.currentTarget.files?.[0])}
          />
          <label for={`${titleId}-camara`} class="boton">
            Tomar foto
          </label>
          <input
            id={`${titleId}-archivo`}
            class="oculto"
            type="file"
            accept="image/jpeg,image/png,image/webp,application/pdf"
            onChange={(event) => void choose(event.currentTarget.files?.[0])}
          />
          <label for={`${titleId}-archivo`} class="boton">
            Elegir archivo
          </label>
          <span class="detalle" role="status">
            {preparing
              ? 'Preparando la foto…'
              : photo
                ? `Lista: ${photo.description}`
                : `Una foto se achica sola antes de enviarla; un PDF, de hasta ${rules.comprobante_max_mb} MB.`}
          </span>
        </fieldset>
        <ErrorNote error={problem} />
        <div class="botones">
          <button type="button" onClick={close} disabled={busy}>
            {saved ? 'Cerrar sin foto' : 'Cancelar'}
          </button>
          <button type="submit" class="principal" disabled={busy || preparing} aria-busy={busy}>
            {busy ? 'Guardando…' : saved ? 'Subir la foto' : editing ? 'Guardar cambios' : 'Registrar depósito'}
          </button>
        </div>
      </form>
    </dialog>
  )
}

/** Only what changed: the service audits a change with its before and after. */
function changesOf(
  deposit: DepositView,
  form: {
    monto: number
    fecha: string
    banco: string
    referencia: string
    notas: string
    justificacion: string
    over: number
  },
): DepositChange {
  const changes: DepositChange = {}
  if (Math.round(form.monto * 100) !== Math.round(deposit.monto * 100)) changes.monto = form.monto
  if (form.fecha !== deposit.fecha) changes.fecha = form.fecha
  if (form.banco !== deposit.banco) changes.banco = form.banco
  if (form.referencia.trim() !== deposit.referencia) changes.referencia = form.referencia.trim()
  if ((form.notas.trim() || null) !== deposit.notas) changes.notas = form.notas.trim() || null
  const justification = form.justificacion.trim() || null
  if (justification !== deposit.justificacion) changes.justificacion = justification
  // Nothing typed changed (only a new photo): send what it is, which changes nothing.
  return Object.keys(changes).length === 0 ? { monto: deposit.monto } : changes
}
