import type { JSX } from 'preact'
import { useEffect, useId, useState } from 'preact/hooks'
import { date, parseDayMonthYear } from '../format.ts'

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
