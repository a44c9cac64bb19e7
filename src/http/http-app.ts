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
import { DomainError } from '../errors.ts'
import { formatMB, readBody } from './body.ts'
import { hasKeyInQuery, keyInQueryError, requireKey } from './auth.ts'
import { toErrorResponse } from './error-response.ts'
import { RateLimiter, rateGroupOf, type RateGroup } from './rate-limit.ts'
import type { Reply, Route } from './route.ts'
import { RouteTable, type RouteValidators } from './route-table.ts'
import { describeProblems } from './validation.ts'

export interface HttpAppOptions {
  routes: readonly Route[]
  clock: Clock
  log: Logger
  rateLimits: Record<RateGroup, number>
  trustProxy: boolean
  maxBodyBytes: number
  keys: { client: readonly string[]; operator: readonly string[] }
  /** Called for every genuine internal failure (after it is logged), to alert the team. */
  onInternalError?: (error: unknown, context: Record<string, unknown>) => void
}

/**
 * The request pipeline, in the order of contract §3/§3a: log line on completion, rate limit
 * (per IP and group), routing (404/405), body size (413), key in the URL (401), key (503/401),
 * path and query validation (404/422), handler. Errors of every stage leave through one mapper.
 */
export function createHttpApp(options: HttpAppOptions): App {
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
    logOnCompletion(event, pathname, options.log)

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
    rejectOversizedBody(event, options.maxBodyBytes)
    if (hasKeyInQuery(search)) throw keyInQueryError()
    const keyFingerprint =
      route.access === 'public' ? '' : requireKey(route.access, event.node.req.headers, options.keys[route.access])
    event.context.keyFingerprint = keyFingerprint

    if (validators.params && !validators.params.Check(params)) {
      throw new DomainError('NOT_FOUND', route.paramsNotFound?.(params) ?? `No existe el recurso ${pathname}.`)
    }
    const query = Object.fromEntries(search)
    if (validators.query && !validators.query.Check(query)) {
      throw new DomainError('INVALID_INPUT', `Parámetros de consulta inválidos: ${describeProblems(validators.query, query).join('; ')}.`)
    }
    const operator = route.access === 'operator' ? requireOperatorName(event) : ''
    const body = validators.body ? await readJsonBody(event, validators, options.maxBodyBytes) : undefined

    const reply = await route.handle({ event, params, query, body, operator, clientIp, keyFingerprint })
    return sendReply(event, reply)
  }
}

/** The person behind an operator change: `Operador` header, percent-encoded when not ASCII. */
function requireOperatorName(event: H3Event): string {
  const raw = event.node.req.headers['operador']
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim() ?? ''
  const changes = event.method === 'POST' || event.method === 'PUT'
  if (value === '') {
    if (!changes) return ''
    throw new DomainError('INVALID_INPUT', 'Falta el encabezado Operador: el nombre de la persona que hace el cambio (codificado con %XX si no es ASCII).')
  }
  let name: string
  try {
    name = decodeURIComponent(value)
  } catch {
    throw new DomainError('INVALID_INPUT', 'El encabezado Operador tiene una codificación %XX inválida.')
  }
  if (name.length > 120) throw new DomainError('INVALID_INPUT', 'El encabezado Operador admite como máximo 120 caracteres.')
  return name
}

async function readJsonBody(event: H3Event, validators: RouteValidators, maxBodyBytes: number): Promise<unknown> {
  const raw = await readBody(event, maxBodyBytes)
  let body: unknown
  try {
    // No body at all reads as {}: `cerrar` needs none, and a required field is then named.
    body = raw.length === 0 ? {} : JSON.parse(raw.toString('utf8').replace(/^\uFEFF/, ''))
  } catch {
    throw new DomainError('INVALID_INPUT', 'El cuerpo de la solicitud debe ser JSON válido.')
  }
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

function sendError(event: H3Event, error: unknown, options: HttpAppOptions): Promise<void> | void {
  const response = toErrorResponse(error)
  if (response.internal) {
    // An internal DomainError carries the real failure as its cause (with the stack to log).
    const failure = error instanceof DomainError && error.cause !== undefined ? error.cause : error
    const path = splitUrl(event.node.req.url ?? '/').pathname
    options.log.error({ err: failure, method: event.method, path, batch_uuid: event.context.batchUuid }, 'error interno')
    options.onInternalError?.(failure, { method: event.method, path, batch_uuid: event.context.batchUuid })
  }
  if (event.node.res.headersSent) return
  return sendReply(event, { status: response.status, body: response.body, headers: response.headers })
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

function splitUrl(url: string): { pathname: string; search: URLSearchParams } {
  const mark = url.indexOf('?')
  if (mark === -1) return { pathname: url, search: new URLSearchParams() }
  return { pathname: url.slice(0, mark), search: new URLSearchParams(url.slice(mark + 1)) }
}
