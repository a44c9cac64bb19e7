import type { ComponentChildren } from 'preact'
import { useEffect, useId, useRef, useState } from 'preact/hooks'
import type { ApiError } from '../api/client.ts'
import { ErrorNote } from './components.tsx'
import { asApiError } from './data.ts'
import { Field } from './fields.tsx'
import { refreshPending } from './pending.ts'

export interface ActionDialogProps {
  title: string
  /** What will happen, said plainly. */
  message: ComponentChildren
  confirmLabel: string
  /** Ask for a written reason: `required` when the API needs it. */
  reason?: { label: string; required: boolean }
  danger?: boolean
  onConfirm: (reason: string) => Promise<unknown>
  onDone: () => void
  onCancel: () => void
}

/**
 * A modal confirmation (the browser's own <dialog>: focus stays inside, Escape cancels), with an
 * optional reason, progress while the service works, and the service's message on failure.
 */
export function ActionDialog({
  title,
  message,
  confirmLabel,
  reason,
  danger,
  onConfirm,
  onDone,
  onCancel,
}: ActionDialogProps) {
  const ref = useRef<HTMLDialogElement>(null)
  const [text, setText] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiError | null>(null)
  const titleId = useId()
  useEffect(() => {
    const dialog = ref.current
    if (dialog && !dialog.open) dialog.showModal()
  }, [])
  const submit = async (event: Event) => {
    event.preventDefault()
    if (reason?.required && text.trim() === '') {
      setError({ message: `El campo «${reason.label}» es obligatorio: escríbalo antes de confirmar.` } as ApiError)
      return
    }
    setBusy(true)
    setError(null)
    try {
      await onConfirm(text.trim())
      ref.current?.close()
      void refreshPending()
      onDone()
    } catch (failure) {
      setError(asApiError(failure))
      setBusy(false)
    }
  }
  return (
    <dialog
      ref={ref}
      class="dialogo"
      aria-labelledby={titleId}
      onCancel={(event) => (busy ? event.preventDefault() : onCancel())}
    >
      <form onSubmit={submit} noValidate>
        <h2 id={titleId}>{title}</h2>
        <div class="mensaje">{message}</div>
        {reason && (
          <Field label={reason.label + (reason.required ? '' : ' (opcional)')}>
            {(id) => (
              <textarea
                id={id}
                rows={3}
                maxLength={500}
                value={text}
                onInput={(event) => {
                  setText(event.currentTarget.value)
                  setError(null)
                }}
                aria-required={reason.required}
              />
            )}
          </Field>
        )}
        <ErrorNote error={error} />
        <div class="botones">
          <button
            type="button"
            onClick={() => {
              ref.current?.close()
              onCancel()
            }}
            disabled={busy}
          >
            Cancelar
          </button>
          <button type="submit" class={danger ? 'peligro' : 'principal'} disabled={busy} aria-busy={busy}>
            {busy ? 'Guardando…' : confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  )
}
