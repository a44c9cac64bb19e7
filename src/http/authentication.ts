import type { H3Event } from 'h3'
import { parseCookies } from 'h3'
import type { Actor } from '../access/actor.ts'
import { DomainError } from '../core/errors.ts'
import { requireKey } from './auth.ts'
import { browserOriginOf } from './client-address.ts'
import { operatorNameOf } from './request-input.ts'
import type { Route } from './route.ts'

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
  if (route.access === 'client') return { ...ANONYMOUS, keyFingerprint: requireKey('client', headers, auth.keys.client) }
  const changes = event.method !== 'GET'
  if (route.access === 'operator' && headers.operatorkey !== undefined && headers.operatorkey !== '') {
    const keyFingerprint = requireKey('operator', headers, auth.keys.operator)
    const nombre = operatorNameOf(event, changes)
    return { actor: { kind: 'integracion', nombre, usuario: null, rol: 'supervisor', almacenes: null }, keyFingerprint, sessionToken: null }
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
  if (actor === null) throw new DomainError('UNAUTHORIZED', 'Su sesión terminó (por inactividad, por tiempo o por un cambio de contraseña): inicie sesión de nuevo.')
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
  throw new DomainError('FORBIDDEN', 'Solicitud rechazada: un cambio con sesión debe hacerse desde la consola de este servicio (origen distinto o ausente).')
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
