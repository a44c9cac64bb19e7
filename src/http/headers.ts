import { invalidInput } from '../errors.ts'

/**
 * A header's text as the sender meant it. Node reads header bytes as Latin-1; a client that sent
 * raw UTF-8 (`Operador: Ana Lucía`) is decoded as UTF-8 when the bytes are valid UTF-8.
 */
export function headerText(raw: string | string[] | undefined): string | undefined {
  const value = Array.isArray(raw) ? raw[0] : raw
  if (value === undefined || !/[\u0080-\u00ff]/.test(value)) return value
  const bytes = Buffer.from(value, 'latin1')
  const utf8 = bytes.toString('utf8')
  return Buffer.from(utf8, 'utf8').equals(bytes) ? utf8 : value
}

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/

/**
 * The person behind an operator change: the `Operador` header, percent-encoded when not ASCII
 * (raw UTF-8 is understood too). Blank, control characters and bad encodings are refused (422).
 * @returns the name, or '' on a read without the header.
 */
export function operatorNameOf(raw: string | string[] | undefined, required: boolean): string {
  const value = headerText(raw)?.trim() ?? ''
  if (value === '') {
    if (!required) return ''
    throw invalidInput('Falta el encabezado Operador: el nombre de la persona que hace el cambio (codificado con %XX si no es ASCII).')
  }
  let name: string
  try {
    name = decodeURIComponent(value).trim()
  } catch {
    throw invalidInput('El encabezado Operador tiene una codificación %XX inválida.')
  }
  if (name === '') throw invalidInput('El encabezado Operador está en blanco: escriba el nombre de la persona que hace el cambio.')
  if (CONTROL.test(name)) throw invalidInput('El encabezado Operador tiene caracteres de control: escriba solo el nombre de la persona.')
  if (name.length > 120) throw invalidInput('El encabezado Operador admite como máximo 120 caracteres.')
  return name
}
