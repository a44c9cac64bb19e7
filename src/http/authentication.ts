import { createHash, timingSafeEqual } from 'node:crypto'
import { DomainError } from '../core/errors.ts'
import type { H3Event } from 'h3'
import { parseCookies } from 'h3'
import type { Actor } from '../access/actor.ts'
import { browserOriginOf } from './client-address.ts'
import { operatorNameOf } from './request-input.ts'
import type { Route } from './route.ts'

/**
 * Who is calling: the keys of the client system and of integrations (constant-time, every
 * configured key compared), a key put in the URL, and a person's session cookie with its
 * same-origin check.
 */

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

export const SESSION_COOKIE = 'manifiesto_sesion'

/** The person behind a session token, or null when the token is no (longer a) valid session. */
export type SessionResolver = (token: string) => Actor | null

export interface Authentication {
  keys: { client: readonly string[]; operator: readonly string[] }
  sessions: SessionResolver
  /** server.trustProxy: how many proxies stand in front, whose X-Forwarded-* headers are believed. */
  trustProxy: number
  /** The service itself listens with TLS (server.https). */
  https: boolean
}

export interface Credentials {
  actor: Actor | null
  /** Fingerprint of the key used (client and integration requests), '' otherwise. */
  keyFingerprint: string
  /** The session token when a person's cookie authenticated the request. */
  sessionToken: string | null
}

const ANONYMOUS: Credentials = { actor: null, keyFingerprint: '', sessionToken: null }

/**
 * Who is calling. Client routes take only the ApiKey (a cookie never opens them). Operator routes
 * take the OperatorKey — an integration acting as a supervisor of every warehouse, named by its
 * `Operador` header — or else a person's session cookie. A cookie request that changes something
 * must come from the service's own origin (CSRF).
 * @throws DomainError UNAUTHORIZED, NOT_CONFIGURED, FORBIDDEN (cross-site), INVALID_INPUT (Operador).
 */
export function authenticate(event: H3Event, route: Route, auth: Authentication): Credentials {
  if (route.access === 'public') return ANONYMOUS
  const headers = event.node.req.headers
  if (route.access === 'client')
    return { ...ANONYMOUS, keyFingerprint: requireKey('client', headers, auth.keys.client) }
  const changes = event.method !== 'GET'
  if (route.access === 'operator' && headers.operatorkey !== undefined && headers.operatorkey !== '') {
    const keyFingerprint = requireKey('operator', headers, auth.keys.operator)
    const nombre = operatorNameOf(event, changes)
    return {
      actor: { kind: 'integracion', nombre, usuario: null, rol: 'supervisor', almacenes: null },
      keyFingerprint,
      sessionToken: null,
    }
  }
  const token = parseCookies(event)[SESSION_COOKIE]
  if (token === undefined || token === '') {
    throw new DomainError(
      'UNAUTHORIZED',
      route.access === 'person'
        ? 'Inicie sesión: esta operación es de una persona con su usuario.'
        : 'Inicie sesión en la consola, o (una integración) envíe la clave en el encabezado OperatorKey.',
    )
  }
  const actor = auth.sessions(token)
  if (actor === null)
    throw new DomainError(
      'UNAUTHORIZED',
      'Su sesión terminó (por inactividad, por tiempo o por un cambio de contraseña): inicie sesión de nuevo.',
    )
  if (changes) requireSameOrigin(event, auth)
  return { actor, keyFingerprint: '', sessionToken: token }
}

/**
 * A change authenticated by cookie must come from a page of this service: its `Origin` is this
 * service's own origin, or the browser says `Sec-Fetch-Site: same-origin`. Otherwise another site
 * could make a logged-in browser act (CSRF).
 * @throws DomainError FORBIDDEN
 */
export function requireSameOrigin(event: H3Event, auth: Pick<Authentication, 'trustProxy' | 'https'>): void {
  const headers = event.node.req.headers
  if (headers['sec-fetch-site'] === 'same-origin') return
  const origin = headers.origin
  if (origin !== undefined && origin === ownOrigin(event, auth)) return
  throw new DomainError(
    'FORBIDDEN',
    'Solicitud rechazada: un cambio con sesión debe hacerse desde la consola de este servicio (origen distinto o ausente).',
  )
}

/**
 * `http(s)://host[:port]` of this request, as the browser that loaded the console sees it: read
 * from the same headers, by the same rule, as the session cookie's `Secure` (`browserOriginOf`).
 */
function ownOrigin(event: H3Event, auth: Pick<Authentication, 'trustProxy' | 'https'>): string {
  const request = { headers: event.node.req.headers, socketAddress: event.node.req.socket.remoteAddress }
  const { secure, host } = browserOriginOf(request, auth.trustProxy, auth.https)
  return `${secure ? 'https' : 'http'}://${host}`
}

/**
 * The `Set-Cookie` value that carries a session token (or, with null, ends it in the browser);
 * `Secure` when the browser reached the service over HTTPS (directly or through trusted proxies).
 */
export function sessionCookie(token: string | null, secure: boolean): string {
  const attributes = `HttpOnly; SameSite=Strict; Path=/${secure ? '; Secure' : ''}`
  return token === null ? `${SESSION_COOKIE}=; ${attributes}; Max-Age=0` : `${SESSION_COOKIE}=${token}; ${attributes}`
}
