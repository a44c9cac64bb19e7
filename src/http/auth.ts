import { createHash, timingSafeEqual } from 'node:crypto'
import { DomainError } from '../core/errors.ts'

/**
 * Who may call a route: anyone (`public`); the client system with its ApiKey (`client`); the
 * warehouse — a person with a session cookie or an integration with the OperatorKey
 * (`operator`); only a person with a session (`person`: their own session and password).
 */
export type Access = 'public' | 'client' | 'operator' | 'person'

/** Header and wording of each protected side: the client's ApiKey, the warehouse's OperatorKey. */
const SIDES = {
  client: { header: 'apikey', name: 'ApiKey' },
  operator: { header: 'operatorkey', name: 'OperatorKey' },
} as const

/**
 * Checks the key header of a protected request against the configured keys (several while a key
 * is being rotated). Every configured key is compared, in constant time, whatever matches first.
 * @returns the fingerprint of the key used, for the logs and the batch record.
 * @throws DomainError NOT_CONFIGURED (503) when the server has no key, UNAUTHORIZED (401) otherwise.
 */
export function requireKey(
  side: 'client' | 'operator',
  headers: Record<string, string | string[] | undefined>,
  configuredKeys: readonly string[],
): string {
  const { header, name } = SIDES[side]
  if (configuredKeys.length === 0) {
    throw new DomainError(
      'NOT_CONFIGURED',
      `El servidor no está configurado para recibir solicitudes de la API (${name} no configurada).`,
    )
  }
  const received = headers[header]
  const presented = Array.isArray(received) ? received[0] : received
  if (presented === undefined || presented === '') {
    throw new DomainError('UNAUTHORIZED', `${name} requerido: envíe la clave en el encabezado ${name}.`)
  }
  const digest = sha256(presented)
  let matched = false
  for (const key of configuredKeys) {
    matched = timingSafeEqual(digest, sha256(key)) || matched
  }
  if (!matched) throw new DomainError('UNAUTHORIZED', `${name} inválido.`)
  return keyFingerprint(presented)
}

/** Names of query parameters that would carry a key in the URL (refused: URLs end up in logs). */
export function hasKeyInQuery(search: URLSearchParams): boolean {
  for (const name of search.keys()) {
    if (/^(api|operator)[-_]?key$/i.test(name)) return true
  }
  return false
}

export function keyInQueryError(): DomainError {
  return new DomainError(
    'UNAUTHORIZED',
    'La clave no debe enviarse en la URL: envíela en el encabezado ApiKey (u OperatorKey).',
  )
}

/** A short, non-reversible name for a key, safe to log. */
export function keyFingerprint(key: string): string {
  return sha256(key).toString('hex').slice(0, 12)
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest()
}
