import type { H3Event } from 'h3'
import Type from 'typebox'
import { Compile } from 'typebox/compile'
import { DomainError, invalidInput } from '../core/errors.ts'
import { parseJsonText } from '../core/json-text.ts'
import { findMalformedText, invalidUtf8Offset } from '../core/unicode.ts'
import { announcedBodyBytes, formatMB, readBody } from './body.ts'
import { headerText } from './headers.ts'
import type { RouteValidators } from './route-table.ts'
import { decodeInput } from './validation.ts'
import { OperatorName } from '../schemas/vocabulary.ts'

/** JSON bodies of every route but the batch intake (which takes server.maxBodyMB). */
export const JSON_BODY_MAX_BYTES = 1024 * 1024

/**
 * The declared headers of a request (`Fecha`), read as the sender meant them (raw UTF-8 too);
 * a blank header counts as absent. Keys are names as declared, looked up case-insensitively.
 */
export function declaredHeaders(event: H3Event, names: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = Object.create(null)
  for (const name of names) {
    const value = headerText(event.node.req.headers[name.toLowerCase()])
    if (value !== undefined && value.trim() !== '') headers[name] = value.trim()
  }
  return headers
}

const OperatorOnChange = Compile(Type.Object({ Operador: OperatorName }))
const OperatorOnRead = Compile(Type.Object({ Operador: Type.Optional(OperatorName) }))

/** The person behind an integration's operator request: required on changes, optional on reads. */
export function operatorNameOf(event: H3Event, changes: boolean): string {
  const headers = declaredHeaders(event, ['Operador'])
  const decoded = decodeInput(changes ? OperatorOnChange : OperatorOnRead, 'headers', headers) as { Operador?: string }
  return decoded.Operador ?? ''
}

/**
 * Reads, parses and checks a JSON body: UTF-8, JSON, no lone surrogates, then the route's schema.
 * No body at all reads as `{}` (`cerrar` needs none; a required field is then named).
 */
export async function readJsonBody(
  event: H3Event,
  validators: RouteValidators,
  limits: { maxBytes: number; timeoutMs: number },
): Promise<unknown> {
  const raw = await readBody(event, limits)
  const badByte = invalidUtf8Offset(raw)
  if (badByte !== -1)
    throw invalidInput(
      `El cuerpo de la solicitud no es texto UTF-8 válido (byte ${badByte}): envíelo codificado en UTF-8.`,
    )
  let body: unknown
  try {
    body = raw.length === 0 ? {} : parseJsonText(raw.toString('utf8'))
  } catch {
    throw invalidInput('El cuerpo de la solicitud debe ser JSON válido.')
  }
  const malformed = findMalformedText(body)
  if (malformed !== null)
    throw invalidInput(
      `Cuerpo inválido: ${malformed}: el texto tiene caracteres Unicode inválidos (un sustituto suelto).`,
    )
  return decodeInput(validators.body!, 'body', body)
}

/** A declared body over the limit is refused before it is read; the connection is then closed. */
export function rejectOversizedBody(event: H3Event, maxBodyBytes: number): void {
  const declared = announcedBodyBytes(event) ?? 0
  if (declared > maxBodyBytes) {
    throw new DomainError(
      'PAYLOAD_TOO_LARGE',
      `El cuerpo de la solicitud (${formatMB(declared)}) excede el máximo permitido de ${formatMB(maxBodyBytes)}.`,
      {},
      { Connection: 'close' },
    )
  }
}
