import Type from 'typebox'
import { dayMonthYearOf, isoDateOf } from '../core/calendar.ts'

/**
 * The input vocabulary every route speaks, defined once: dates that must be real calendar dates,
 * ids, page numbers, and free Spanish text (a motivo, a nota). Each piece says in `errorMessage`
 * what it expects, so every refusal names the parameter and the rule the same way.
 */

/** `YYYY-MM-DD`, a real date (2026-02-30 is refused, never read as March 2nd). */
export const LocalDate = (description: string) =>
  Type.Refine(
    Type.String({ description, errorMessage: 'una fecha real en formato YYYY-MM-DD' }),
    (text) => isoDateOf(text) !== null,
  )

/** `dd/MM/yyyy`, a real date, decoded to `YYYY-MM-DD` (the client's listing date). */
export const DayMonthYear = (description: string) =>
  Type.Decode(
    Type.Refine(
      Type.String({ description, errorMessage: 'una fecha real en formato dd/MM/yyyy, por ejemplo 22/11/2026' }),
      (text) => dayMonthYearOf(text) !== null,
    ),
    (text) => dayMonthYearOf(text)!.toString(),
  )

/** A numeric id in a path (`devoluciones/{id}`): digits, no leading zero. */
export const NumericId = (description: string) => Type.String({ pattern: '^[1-9][0-9]{0,15}$', description })

/** `pagina`: an integer ≥ 1, decoded to a number (absent means 1). */
export const Page = (description: string) =>
  Type.Decode(
    Type.String({ pattern: '^[1-9][0-9]{0,8}$', description, errorMessage: 'un entero mayor o igual a 1' }),
    (text) => Number(text),
  )

const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/

/**
 * Free text a person writes (a motivo, a nota): not blank, no control characters but line
 * breaks and tabs, at most `max` characters.
 */
export const SpanishText = (max: number, description?: string) =>
  Type.Refine(
    Type.String({ minLength: 1, maxLength: max, ...(description ? { description } : {}) }),
    (text) => text.trim() !== '' && !CONTROL.test(text),
    () => 'no puede estar en blanco ni tener caracteres de control',
  )

/**
 * The `Operador` header of an integration's change: the person's name, percent-encoded when not
 * ASCII (raw UTF-8 is understood too: the pipeline reads header bytes as UTF-8 when they are).
 * Decoded to the name.
 */
export const OperatorName = Type.Decode(
  Type.Refine(
    Type.String({
      description: 'Nombre de la persona que hace el cambio, codificado con %XX si no es ASCII',
      errorMessage: { required: 'el nombre de la persona que hace el cambio (codificado con %XX si no es ASCII)' },
    }),
    (text) => operatorNameProblem(text) === null,
    (text) => operatorNameProblem(text) ?? '',
  ),
  (text) => decodeURIComponent(text).trim(),
)

function operatorNameProblem(text: string): string | null {
  let name: string
  try {
    name = decodeURIComponent(text).trim()
  } catch {
    return 'tiene una codificación %XX inválida'
  }
  if (name === '') return 'está en blanco: escriba el nombre de la persona que hace el cambio'
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name))
    return 'tiene caracteres de control: escriba solo el nombre de la persona'
  if (name.length > 120) return 'admite como máximo 120 caracteres'
  return null
}

/**
 * A local moment as an operator writes it: `YYYY-MM-DDTHH:mm:ss`, or `YYYY-MM-DD` meaning its
 * midnight; a real date and time. Decoded to the full `YYYY-MM-DDTHH:mm:ss`.
 */
export const LocalDateTime = (description: string) =>
  Type.Decode(
    Type.Refine(
      Type.String({ description, errorMessage: 'una fecha real, YYYY-MM-DD, o fecha y hora YYYY-MM-DDTHH:mm:ss' }),
      (text) => localDateTimeOf(text) !== null,
    ),
    (text) => localDateTimeOf(text)!,
  )

function localDateTimeOf(text: string): string | null {
  const match = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}):(\d{2}):(\d{2}))?$/.exec(text)
  if (match === null || isoDateOf(match[1]!) === null) return null
  const [hours, minutes, seconds] = [match[2] ?? '00', match[3] ?? '00', match[4] ?? '00']
  if (Number(hours) > 23 || Number(minutes) > 59 || Number(seconds) > 59) return null
  return `${match[1]}T${hours}:${minutes}:${seconds}`
}

/**
 * `buscar`: what a person types in a list's search box, 1–100 characters without control
 * characters, decoded to the text without surrounding blanks.
 */
export const SearchText = (description: string) =>
  Type.Decode(
    Type.Refine(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description,
        errorMessage: 'un texto de 1 a 100 caracteres, no en blanco y sin caracteres de control',
      }),
      (text) => text.trim() !== '' && !CONTROL.test(text),
      () => 'no puede estar en blanco ni tener caracteres de control',
    ),
    (text) => text.trim(),
  )

/** `almacen`: a warehouse code as the invoices carry it (`OAC`). */
export const WarehouseCode = (description: string) =>
  Type.String({
    pattern: '^[A-Za-z0-9_.-]{1,40}$',
    description,
    errorMessage: 'un código de almacén (letras, dígitos, ., _ o -)',
  })
