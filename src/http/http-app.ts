import {
  createApp,
  eventHandler,
  send,
  setResponseHeader,
  setResponseHeaders,
  setResponseStatus,
  type App,
  type H3Event,
} from 'h3'
import type { Logger } from 'pino'
import type { Clock } from '../clock.ts'
import { DomainError, invalidInput } from '../errors.ts'
import { parseJsonText } from '../json-text.ts'
import { findMalformedText, invalidUtf8Offset } from '../unicode.ts'
import { formatMB, readBody } from './body.ts'
import { hasKeyInQuery, keyInQueryError, requireKey } from './auth.ts'
import { toErrorResponse } from './error-response.ts'
import { operatorNameOf } from './headers.ts'
import { parseQuery } from './query.ts'
import { RateLimiter, rateGroupOf, type RateGroup } from './rate-limit.ts'
import { createRedactor, type Redactor } from './redaction.ts'
import type { Reply, Route } from './route.ts'
import { RouteTable, type RouteValidators } from './route-table.ts'
import { describeProblems } from './validation.ts'

/** JSON bodies of every route but the batch intake (which takes server.maxBodyMB). */
export const JSON_BODY_MAX_BYTES = 1024 * 1024

export interface HttpAppOptions {
  routes: readonly Route[]
  clock: Clock
  log: Logger
  rateLimits: Record<RateGroup, number>
  trustProxy: boolean
  /** server.maxBodyMB: the batch intake's limit; every other body is limited to 1 MB. */
  maxBodyBytes: number
  bodyTimeoutMs: number
  keys: { client: readonly string[]; operator: readonly string[] }
  /** Why the database file can no longer take writes (deleted or replaced under the service), or null. */
  databaseFileProblem: () => string | null
  /** Called for every genuine internal failure (after it is logged), to alert the team. */
  onInternalError?: (error: unknown, context: Record<string, unknown>) => void
}

interface Pipeline extends HttpAppOptions {
  redact: Redactor
}

/**
 * The request pipeline, in the order of contract §3/§3a: log line on completion, rate limit
 * (per IP and group), routing (404/405), body size (413), key in the URL (401), key (503/401),
 * path and query validation (404/422), handler. Errors of every stage leave through one mapper.
 */
export function createHttpApp(settings: HttpAppOptions): App {
  const options: Pipeline = { ...settings, redact: createRedactor([...settings.keys.client, ...settings.keys.operator]) }
  const limiter = new RateLimiter(options.rateLimits, options.clock)
  const table = new RouteTable(options.routes)

  // Errors of the pipeline are answered by it directly; this only catches what h3 itself throws.
  const app = createApp({ onError: (error, event) => sendError(event, error, options) })

  app.use(
    eventHandler(async (event) => {
      try {
        return await handle(event)
      } catch (error) {
        return sendError(event, error, options)
      }
    }),
  )
  return app

  async function handle(event: H3Event): Promise<void> {
    const { pathname, search } = splitUrl(event.node.req.url ?? '/')
    const clientIp = clientIpOf(event, options.trustProxy)
    event.context.clientIp = clientIp
    logOnCompletion(event, options.redact(pathname), options.log)

    const decision = limiter.hit(rateGroupOf(pathname), clientIp)
    setResponseHeaders(event, {
      'RateLimit-Limit': String(decision.limit),
      'RateLimit-Remaining': String(decision.remaining),
      'RateLimit-Reset': String(decision.resetSeconds),
    })
    if (!decision.allowed) {
      throw new DomainError(
        'RATE_LIMITED',
        `Demasiadas solicitudes: el límite es ${decision.limit} por minuto. Intente de nuevo en ${decision.resetSeconds} segundos.`,
        {},
        { 'Retry-After': String(decision.resetSeconds) },
      )
    }

    const { route, params, validators } = table.match(event.method, pathname)
    const maxBodyBytes = route.body?.raw ? options.maxBodyBytes : Math.min(JSON_BODY_MAX_BYTES, options.maxBodyBytes)
    rejectOversizedBody(event, maxBodyBytes)
    // Leniently parsed: a key in the URL is refused (401) before the query is judged (422).
    if (hasKeyInQuery(new URLSearchParams(search))) throw keyInQueryError()
    const keyFingerprint =
      route.access === 'public' ? '' : requireKey(route.access, event.node.req.headers, options.keys[route.access])
    event.context.keyFingerprint = keyFingerprint
    if (event.method !== 'GET') requireWritableDatabase(event, options)

    if (validators.params && !validators.params.Check(params)) {
      throw new DomainError('NOT_FOUND', route.paramsNotFound?.(params) ?? `No existe el recurso ${pathname}.`)
    }
    const query = parseQuery(search)
    if (validators.query && !validators.query.Check(query)) {
      throw new DomainError('INVALID_INPUT', `Parámetros de consulta inválidos: ${describeProblems(validators.query, query).join('; ')}.`)
    }
    const changes = event.method === 'POST' || event.method === 'PUT'
    const operator = route.access === 'operator' ? operatorNameOf(event.node.req.headers['operador'], changes) : ''
    const body = validators.body ? await readJsonBody(event, validators, { maxBytes: maxBodyBytes, timeoutMs: options.bodyTimeoutMs }) : undefined

    const reply = await route.handle({ event, params, query, body, operator, clientIp, keyFingerprint })
    return sendReply(event, reply)
  }
}

/**
 * A write to a database file that was deleted or replaced under the service would be acknowledged
 * and then lost: refused (503) like ping, logged and alerted (contract §9).
 */
function requireWritableDatabase(event: H3Event, options: Pipeline): void {
  const problem = options.databaseFileProblem()
  if (problem === null) return
  const failure = new Error(`Base de datos inutilizable: ${problem}`)
  failure.name = 'DatabaseFileGone'
  const path = options.redact(splitUrl(event.node.req.url ?? '/').pathname)
  options.log.error({ err: failure, method: event.method, path }, 'base de datos inutilizable: escritura rechazada')
  options.onInternalError?.(failure, { method: event.method, path })
  throw new DomainError(
    'UNAVAILABLE',
    `No se guardó nada: ${problem}. El servicio no acepta cambios hasta que el administrador restaure la base de datos y lo reinicie.`,
  )
}

async function readJsonBody(event: H3Event, validators: RouteValidators, limits: { maxBytes: number; timeoutMs: number }): Promise<unknown> {
  const raw = await readBody(event, limits)
  const badByte = invalidUtf8Offset(raw)
  if (badByte !== -1) throw invalidInput(`El cuerpo de la solicitud no es texto UTF-8 válido (byte ${badByte}): envíelo codificado en UTF-8.`)
  let body: unknown
  try {
    // No body at all reads as {}: `cerrar` needs none, and a required field is then named.
    body = raw.length === 0 ? {} : parseJsonText(raw.toString('utf8'))
  } catch {
    throw new DomainError('INVALID_INPUT', 'El cuerpo de la solicitud debe ser JSON válido.')
  }
  const malformed = findMalformedText(body)
  if (malformed !== null) throw invalidInput(`Cuerpo inválido: ${malformed}: el texto tiene caracteres Unicode inválidos (un sustituto suelto).`)
  if (!validators.body!.Check(body)) {
    throw new DomainError('INVALID_INPUT', `Cuerpo inválido: ${describeProblems(validators.body!, body).join('; ')}.`)
  }
  return body
}

function sendReply(event: H3Event, reply: Reply): Promise<void> {
  setResponseStatus(event, reply.status)
  if (reply.headers) setResponseHeaders(event, reply.headers)
  if ('bytes' in reply) {
    setResponseHeader(event, 'Content-Type', reply.contentType)
    return send(event, reply.bytes)
  }
  setResponseHeader(event, 'Content-Type', 'application/json; charset=utf-8')
  return send(event, 'json' in reply ? reply.json : JSON.stringify(reply.body))
}

function sendError(event: H3Event, error: unknown, options: Pipeline): Promise<void> | void {
  const response = toErrorResponse(error)
  if (response.internal) {
    // An internal DomainError carries the real failure as its cause (with the stack to log).
    const failure = error instanceof DomainError && error.cause !== undefined ? error.cause : error
    const path = options.redact(splitUrl(event.node.req.url ?? '/').pathname)
    options.log.error({ err: failure, method: event.method, path, batch_uuid: event.context.batchUuid }, 'error interno')
    options.onInternalError?.(failure, { method: event.method, path, batch_uuid: event.context.batchUuid })
  }
  if (event.node.res.headersSent || event.node.res.writableEnded) return
  const body = { ...response.body, message: options.redact(String(response.body.message)) }
  return sendReply(event, { status: response.status, body, headers: response.headers })
}

/** A declared body over the limit is refused before it is read; the connection is then closed. */
function rejectOversizedBody(event: H3Event, maxBodyBytes: number): void {
  const declared = Number(event.node.req.headers['content-length'] ?? 0)
  if (declared > maxBodyBytes) {
    throw new DomainError(
      'PAYLOAD_TOO_LARGE',
      `El cuerpo de la solicitud (${formatMB(declared)}) excede el máximo permitido de ${formatMB(maxBodyBytes)}.`,
      {},
      { Connection: 'close' },
    )
  }
}

/**
 * One JSON line per request when its answer is complete (or the connection dropped). Only the
 * path is logged, never the query string or headers: they could hold a key.
 */
function logOnCompletion(event: H3Event, pathname: string, log: Logger): void {
  const started = performance.now()
  const response = event.node.res
  response.once('close', () => {
    const line: Record<string, unknown> = {
      ip: event.context.clientIp,
      method: event.method,
      path: pathname,
      status: response.statusCode,
      ms: Math.round((performance.now() - started) * 10) / 10,
    }
    if (event.context.keyFingerprint) line.key = event.context.keyFingerprint
    if (event.context.batchUuid) line.batch_uuid = event.context.batchUuid
    if (!response.writableFinished) line.aborted = true
    log.info(line, 'request')
  })
}

/** With `trustProxy`, the client is the left-most address of X-Forwarded-For. */
function clientIpOf(event: H3Event, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = event.node.req.headers['x-forwarded-for']
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim()
    if (first) return normalizeIp(first)
  }
  return normalizeIp(event.node.req.socket.remoteAddress ?? 'desconocida')
}

function normalizeIp(ip: string): string {
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip
}

function splitUrl(url: string): { pathname: string; search: string } {
  const mark = url.indexOf('?')
  return mark === -1 ? { pathname: url, search: '' } : { pathname: url.slice(0, mark), search: url.slice(mark + 1) }
}
