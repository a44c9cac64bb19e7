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
import type { Clock } from '../core/clock.ts'
import { consoleAnswer } from '../console-assets/console.handler.ts'
import type { ConsoleFiles } from '../console-assets/console-files.ts'
import { DatabaseFileGoneError, DomainError } from '../core/errors.ts'
import { announcedBodyBytes, readBody } from './body.ts'
import { requireRight } from '../access/actor.ts'
import { hasKeyInQuery, keyInQueryError } from './authentication.ts'
import { authenticate, type Authentication } from './authentication.ts'
import { browserOriginOf, clientAddressOf } from './client-address.ts'
import { requireBodyEncoding } from './content-encoding.ts'
import { toErrorResponse } from './error-response.ts'
import { parseQuery } from './query.ts'
import { RateLimiter, type RateGroup } from './rate-limit.ts'
import { createRedactor, type Redactor } from './redaction.ts'
import { requestIdOf, requestScope } from '../logging/request-scope.ts'
import { declaredHeaders, JSON_BODY_MAX_BYTES, readJsonBody, rejectOversizedBody } from './request-input.ts'
import type { Reply, Route } from './route.ts'
import { RouteTable } from './route-table.ts'
import { decodeInput, decodeParams } from './validation.ts'

export interface HttpAppOptions {
  routes: readonly Route[]
  clock: Clock
  log: Logger
  rateLimits: Record<RateGroup, number>
  /** server.trustProxy: how many proxies stand in front, whose X-Forwarded-* headers are believed. */
  trustProxy: number
  /** server.maxBodyMB: the batch intake's limit; every other body is limited to 1 MB. */
  maxBodyBytes: number
  bodyTimeoutMs: number
  authentication: Authentication
  /** Why the database file can no longer take writes (deleted or replaced under the service), or null. */
  databaseFileProblem: () => string | null
  /** Called for every genuine internal failure (after it is logged), to alert the team. */
  onInternalError?: (error: unknown, context: Record<string, unknown>) => void
  /** The built operator console, served at /consola/ (absent: those paths answer like any unknown path). */
  consoleFiles?: ConsoleFiles
}

interface Pipeline extends HttpAppOptions {
  redact: Redactor
}

/**
 * The request pipeline, in the order of contract §3/§3a: log line on completion, rate limit
 * (per IP and group), routing (404/405), body size and coding (413/415), key in the URL (401), key (503/401),
 * path and query validation (404/422), handler. Errors of every stage leave through one mapper.
 */
export function createHttpApp(settings: HttpAppOptions): App {
  const { keys } = settings.authentication
  const options: Pipeline = { ...settings, redact: createRedactor([...keys.client, ...keys.operator]) }
  const limiter = new RateLimiter(options.rateLimits, options.clock)
  const table = new RouteTable(options.routes)

  // Errors of the pipeline are answered by it directly; this only catches what h3 itself throws.
  const app = createApp({ onError: (error, event) => sendError(event, error, options) })

  app.use(
    eventHandler((event) => {
      // Every log line of the request carries its id, and the answer echoes it.
      const requestId = requestIdOf(event.node.req.headers['x-request-id'])
      event.context.requestId = requestId
      setResponseHeader(event, 'X-Request-Id', requestId)
      return requestScope.run({ requestId }, async () => {
        try {
          return await handle(event)
        } catch (error) {
          return sendError(event, error, options)
        }
      })
    }),
  )
  return app

  async function handle(event: H3Event): Promise<void> {
    const { pathname, search } = splitUrl(event.node.req.url ?? '/')
    const safePath = options.redact(pathname)
    const forwarded = { headers: event.node.req.headers, socketAddress: event.node.req.socket.remoteAddress }
    const clientIp = clientAddressOf(forwarded, options.trustProxy)
    event.context.clientIp = clientIp
    logOnCompletion(event, safePath, options.log)

    // The console's files come from memory and open nothing: no rate limit, no key.
    const page = options.consoleFiles ? consoleAnswer(options.consoleFiles, event.method, pathname) : null
    if (page !== null) {
      setResponseStatus(event, page.status)
      setResponseHeaders(event, page.headers)
      return send(event, page.body)
    }

    const lookup = table.lookup(event.method, pathname, safePath)
    const decision = limiter.hit(lookup.group, clientIp)
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
    if ('refusal' in lookup) throw lookup.refusal

    const { route, params: rawParams, validators } = lookup.match
    const maxBodyBytes = route.body?.file
      ? route.body.file.maxBytes
      : route.body?.raw
        ? options.maxBodyBytes
        : Math.min(JSON_BODY_MAX_BYTES, options.maxBodyBytes)
    rejectOversizedBody(event, maxBodyBytes)
    // Only the batch intake (raw bodies, not files) takes gzip; a body in any other coding is a 415 here.
    const encoding = route.body
      ? requireBodyEncoding(
          event.node.req.headers['content-encoding'],
          route.body.raw === true && route.body.file === undefined,
        )
      : 'identity'
    // Leniently parsed: a key in the URL is refused (401) before the query is judged (422).
    if (hasKeyInQuery(new URLSearchParams(search))) throw keyInQueryError()
    const { actor, keyFingerprint, sessionToken } = authenticate(event, route, options.authentication)
    event.context.keyFingerprint = keyFingerprint
    event.context.usuario = actor?.usuario ?? undefined
    if (route.right !== undefined && actor !== null) requireRight(actor, route.right)
    if (event.method !== 'GET') requireWritableDatabase(options)

    const params = validators.params
      ? decodeParams(
          validators.params,
          rawParams,
          route.paramsNotFound?.(rawParams) ?? `No existe el recurso ${safePath}.`,
        )
      : rawParams
    const rawQuery = parseQuery(search)
    const query = validators.query ? decodeInput(validators.query, 'query', rawQuery) : rawQuery
    const headerNames = route.headers ? Object.keys((route.headers as { properties?: object }).properties ?? {}) : []
    const headers = validators.headers
      ? decodeInput(validators.headers, 'headers', declaredHeaders(event, headerNames))
      : {}
    const limits = { maxBytes: maxBodyBytes, timeoutMs: options.bodyTimeoutMs, gzip: encoding === 'gzip' }
    const body = validators.body ? await readJsonBody(event, validators, limits) : undefined

    const logContext: { batchUuid?: string } = {}
    event.context.logContext = logContext
    const reply = await route.handle({
      params,
      query,
      headers,
      body,
      actor,
      sessionToken,
      clientIp,
      secure: browserOriginOf(forwarded, options.trustProxy, options.authentication.https).secure,
      keyFingerprint,
      readBody: (inspect, allocate) =>
        readBody(event, { ...limits, ...(inspect ? { inspect } : {}), ...(allocate ? { allocate } : {}) }),
      bodyBytes: limits.gzip ? null : announcedBodyBytes(event),
      logContext,
    })
    return sendReply(event, reply)
  }
}

/**
 * A write to a database file that was deleted or replaced under the service would be acknowledged
 * and then lost: refused (503) like ping, logged and alerted (contract §9). Checked again before
 * each transaction commits (src/db/database.ts).
 */
function requireWritableDatabase(options: Pipeline): void {
  const problem = options.databaseFileProblem()
  if (problem !== null) throw new DatabaseFileGoneError(problem)
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
  if (error instanceof DatabaseFileGoneError) {
    const path = options.redact(splitUrl(event.node.req.url ?? '/').pathname)
    options.log.error({ err: error, method: event.method, path }, 'base de datos inutilizable: escritura rechazada')
    options.onInternalError?.(error, { method: event.method, path })
  }
  const response = toErrorResponse(error)
  if (response.internal) {
    // An internal DomainError carries the real failure as its cause (with the stack to log).
    const failure = error instanceof DomainError && error.cause !== undefined ? error.cause : error
    const path = options.redact(splitUrl(event.node.req.url ?? '/').pathname)
    const batchUuid = batchUuidOf(event)
    options.log.error({ err: failure, method: event.method, path, batch_uuid: batchUuid }, 'error interno')
    options.onInternalError?.(failure, { method: event.method, path, batch_uuid: batchUuid })
  }
  if (event.node.res.headersSent || event.node.res.writableEnded) return
  const body = { ...response.body, message: options.redact(String(response.body.message)) }
  return sendReply(event, { status: response.status, body, headers: response.headers })
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
      // The answer's 'close' event runs outside the request's scope: its id is named here.
      request_id: event.context.requestId,
      ip: event.context.clientIp,
      method: event.method,
      path: pathname,
      status: response.statusCode,
      ms: Math.round((performance.now() - started) * 10) / 10,
    }
    if (event.context.keyFingerprint) line.key = event.context.keyFingerprint
    if (event.context.usuario) line.usuario = event.context.usuario
    const batchUuid = batchUuidOf(event)
    if (batchUuid) line.batch_uuid = batchUuid
    if (!response.writableFinished) line.aborted = true
    log.info(line, 'request')
  })
}

function batchUuidOf(event: H3Event): string | undefined {
  return (event.context.logContext as { batchUuid?: string } | undefined)?.batchUuid
}

function splitUrl(url: string): { pathname: string; search: string } {
  const mark = url.indexOf('?')
  return mark === -1 ? { pathname: url, search: '' } : { pathname: url.slice(0, mark), search: url.slice(mark + 1) }
}
