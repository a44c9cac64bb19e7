import type { ComponentChildren, JSX } from 'preact'
import { useEffect, useId, useRef, useState } from 'preact/hooks'
import { Link, useLocation, useSearch } from 'wouter-preact'
import { downloadFile, type ApiError } from '../api/client.ts'
import { date, money, parseDayMonthYear, quantity } from '../format.ts'
import { refreshPending } from './pending.ts'
import { asApiError } from './data.ts'

/** A screen: its title (also the window's), actions beside it, its content. */
export function Page({
  title,
  subtitle,
  actions,
  children,
}: {
  title: string
  subtitle?: ComponentChildren
  actions?: ComponentChildren
  children: ComponentChildren
}) {
  useEffect(() => {
    document.title = `${title} · Manifiesto`
  }, [title])
  return (
    <section class="pantalla" aria-labelledby="titulo-pantalla">
      <header class="encabezado-pantalla">
        <div>
          <h1 id="titulo-pantalla">{title}</h1>
          {subtitle && <p class="subtitulo">{subtitle}</p>}
        </div>
        {actions && <div class="acciones">{actions}</div>}
      </header>
      {children}
    </section>
  )
}

export function ErrorNote({ error, children }: { error: ApiError | null; children?: ComponentChildren }) {
  if (error === null) return null
  return (
    <p class="aviso error" role="alert">
      {error.message}
      {children}
    </p>
  )
}

export function Loading({ what = 'datos' }: { what?: string }) {
  return (
    <p class="cargando" role="status">
      Cargando {what}…
    </p>
  )
}

/** What an empty list says: why it is empty and what to do. */
export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="vacio">{children}</p>
}

export function Money({ amount }: { amount: number }) {
  return <span class="num">{money(amount)}</span>
}

/**
 * Previous / next page. Long lists show it above and below (`where`): each has its own name, so a
 * screen reader tells the two apart.
 */
export function Pager({
  page,
  pages,
  onPage,
  label = 'Páginas',
  where,
}: {
  page: number
  pages: number
  onPage: (page: number) => void
  label?: string
  where?: 'arriba' | 'abajo'
}) {
  if (pages <= 1) return null
  return (
    <nav
      class={where === 'arriba' ? 'paginador arriba' : 'paginador'}
      aria-label={where ? `${label} (${where})` : label}
    >
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        ← Anterior
      </button>
      <span aria-live={where === 'arriba' ? undefined : 'polite'}>
        Página {quantity(page)} de {quantity(pages)}
      </span>
      <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Siguiente →
      </button>
    </nav>
  )
}

export interface TabItem {
  label: string
  href: string
  current: boolean
}

/** Tabs that are links: each tab is a view with its own address. */
export function Tabs({ items, label }: { items: TabItem[]; label: string }) {
  return (
    <nav class="pestanas" aria-label={label}>
      {items.map((item) => (
        <Link key={item.href} href={item.href} aria-current={item.current ? 'page' : undefined}>
          {item.label}
        </Link>
      ))}
    </nav>
  )
}

export function StateTag({ state, label }: { state: string; label: string }) {
  return <span class={`estado estado-${state}`}>{label}</span>
}

/** A labelled field; the label is the control's accessible name. */
export function Field({
  label,
  hint,
  children,
  wide,
}: {
  label: string
  hint?: string
  children: (id: string, describedBy: string | undefined) => JSX.Element
  wide?: boolean
}) {
  const id = useId()
  const hintId = hint ? `${id}-ayuda` : undefined
  return (
    <div class={wide ? 'campo ancho' : 'campo'}>
      <label for={id}>{label}</label>
      {children(id, hintId)}
      {hint && (
        <small id={hintId} class="ayuda">
          {hint}
        </small>
      )}
    </div>
  )
}

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

/**
 * A short-lived message after an action ("Devolución 12 aprobada."), read aloud by screen readers.
 * It belongs to where the action was done: once the person moves on (another screen, filter or
 * page: the address changes), it is gone.
 */
export function Notice({ text }: { text: string | null }) {
  const [location] = useLocation()
  const search = useSearch()
  const here = `${location}?${search}`
  const [shownAt, setShownAt] = useState<{ text: string; at: string } | null>(null)
  useEffect(() => {
    setShownAt(text === null ? null : { text, at: here })
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text])
  const visible = text !== null && (shownAt === null || shownAt.text !== text || shownAt.at === here)
  return (
    <p class={visible ? 'aviso exito' : 'oculto'} role="status">
      {visible ? text : ''}
    </p>
  )
}

/**
 * A column header that sorts its list: a button that cycles largest first → smallest first (the
 * list's order in the address as `orden`: `-total`, `total`), `aria-sort` saying the order now.
 */
export function SortHeader({
  label,
  field,
  order,
  onOrder,
  numeric,
  defaultOrder,
}: {
  label: string
  field: string
  order: string
  onOrder: (order: string) => void
  numeric?: boolean
  defaultOrder: string
}) {
  const current = order === field ? 'ascending' : order === `-${field}` ? 'descending' : 'none'
  const next = current === 'descending' ? field : current === 'ascending' ? defaultOrder : `-${field}`
  return (
    <th scope="col" class={numeric ? 'num' : undefined} aria-sort={current}>
      <button
        type="button"
        class="ordenar"
        onClick={() => onOrder(next)}
        title={
          current === 'descending'
            ? 'Ordenar de menor a mayor'
            : current === 'ascending'
              ? 'Quitar el orden'
              : 'Ordenar de mayor a menor'
        }
      >
        {label}
        <span aria-hidden="true">{current === 'descending' ? ' ▼' : current === 'ascending' ? ' ▲' : ' ⇅'}</span>
      </button>
    </th>
  )
}

export function BackLink({ href, children }: { href: string; children: ComponentChildren }) {
  return (
    <p class="volver">
      <Link href={href}>← {children}</Link>
    </p>
  )
}

/**
 * A date as the warehouse writes it (`22/11/2026`), whatever the browser's language: the value
 * given and taken is `YYYY-MM-DD`; a complete valid date is taken as it is typed, an empty field
 * clears it, anything else is marked and explained.
 */
export function DateField({
  label,
  value,
  onChange,
  hint,
  min,
  max,
}: {
  label: string
  value: string
  onChange: (iso: string) => void
  hint?: string
  min?: string
  max?: string
}) {
  const [text, setText] = useState(value ? date(value) : '')
  useEffect(() => {
    if (parseDayMonthYear(text) !== value && !(value === '' && text.trim() === '')) setText(value ? date(value) : '')
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value])
  const iso = parseDayMonthYear(text)
  const outside = iso !== null && ((min !== undefined && iso < min) || (max !== undefined && iso > max))
  const problem =
    text.trim() !== '' && iso === null && text.trim().length >= 8
      ? 'Escriba la fecha como 22/11/2026.'
      : outside
        ? `La fecha debe estar entre ${date(min ?? '')} y ${date(max ?? '')}.`
        : null
  return (
    <Field label={label} hint={problem ?? hint ?? 'Por ejemplo 22/11/2026'}>
      {(id, hintId) => (
        <input
          id={id}
          class="fecha"
          inputMode="numeric"
          placeholder="dd/mm/aaaa"
          autoComplete="off"
          aria-describedby={hintId}
          aria-invalid={problem !== null}
          value={text}
          onInput={(event) => {
            const next = event.currentTarget.value
            setText(next)
            const parsed = parseDayMonthYear(next)
            if (next.trim() === '') onChange('')
            else if (parsed !== null) onChange(parsed)
          }}
        />
      )}
    </Field>
  )
}

/**
 * A button that downloads a file the service makes, showing progress while it is prepared and
 * the service's message if it refuses (too many rows, a bad filter).
 */
export function DownloadButton({
  href,
  label,
  onError,
}: {
  href: string
  label: string
  onError: (error: ApiError | null) => void
}) {
  const [busy, setBusy] = useState(false)
  const start = async () => {
    setBusy(true)
    onError(null)
    try {
      const file = await downloadFile(href)
      const url = URL.createObjectURL(file.blob)
      const link = document.createElement('a')
      link.href = url
      link.download = file.name
      document.body.append(link)
      link.click()
      link.remove()
      setTimeout(() => URL.revokeObjectURL(url), 60_000)
    } catch (failure) {
      onError(asApiError(failure))
    } finally {
      setBusy(false)
    }
  }
  return (
    <button type="button" onClick={() => void start()} disabled={busy} aria-busy={busy}>
      {busy ? 'Preparando…' : label}
    </button>
  )
}
