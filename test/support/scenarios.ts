import assert from 'node:assert/strict'
import { test } from 'node:test'
import { sessionOf } from './accounts.ts'
import { databaseDump } from './batches.ts'
import { API_KEY, OPERATOR_KEY, withService, type TestService, type TestServiceOptions } from './service.ts'
import { OPERATOR } from './operator.ts'

/**
 * Scenario tables (STYLE.md, "Tests"): each row is one request against a fresh service on a fresh
 * database — its name, how the service starts, what is stored first, the request, and the status,
 * body, headers and database state expected — and each row is its own `node:test` test.
 *
 *     testScenarios('reasons', [
 *       { name: 'unknown reason → 404', request: { method: 'PUT', path: 'conceptos/NADA', body: { activo: false } }, status: 404, body: refusal('No existe el concepto NADA.'), database: nothingWritten() },
 *       { name: 'create → 201', request: { method: 'POST', path: 'conceptos', body: DANADO }, status: 201, body: DANADO, database: holds('the reasons', reasons, [DANADO]) },
 *     ], { as: 'operator' })
 *
 * Order the rows: unauthenticated → invalid input → not found → conflict → success.
 */
export function testScenarios(title: string, rows: readonly Scenario[], shared: SharedScenario = {}): void {
  for (const row of rows) {
    test(`${title}: ${row.name}`, { timeout: shared.timeout ?? ROW_TIMEOUT_MS }, () => runScenario(row, shared))
  }
}

/** A row is a fresh service and a request: a minute is room enough on a loaded machine, and a stuck row fails by its name. */
const ROW_TIMEOUT_MS = 60_000

export interface Scenario {
  name: string
  /** How the fresh service starts (config, clock…), over the table's `shared.service`. */
  service?: TestServiceOptions
  /** What is stored before the request, after the table's `shared.setup`. */
  setup?: Setup
  /** The request, or a function that makes it (with `send`) when a row needs more than one. */
  request: ScenarioRequest | ((service: TestService) => Promise<Reply>)
  status: number
  /** The whole answer, compared with `assert.deepStrictEqual`; see `matchesExpected` for RegExp and `containing`. */
  body?: unknown
  /** Response headers: a value (or RegExp) each must have, null for one that must be absent. */
  headers?: Record<string, string | RegExp | null>
  /** What the database must hold afterwards, checked after the table's `shared.database`. */
  database?: DatabaseCheck | readonly DatabaseCheck[]
}

/** What every row of a table has in common. */
export interface SharedScenario {
  /** Who sends each request that does not say (default: nobody, no credentials). */
  as?: Caller
  service?: TestServiceOptions
  setup?: Setup
  database?: DatabaseCheck | readonly DatabaseCheck[]
  /** Each row's time limit, in ms (default a minute). */
  timeout?: number
}

export type Setup = (service: TestService) => unknown

/**
 * Who sends a request: `nobody` (no credentials), `client` (the ApiKey), `operator` (the
 * integration's OperatorKey and Operador header), or a person logged in by name (an account the
 * setup created, with the default password unless given) sending the console's cookie and Origin.
 */
export type Caller = 'nobody' | 'client' | 'operator' | { usuario: string; contrasena?: string }

export interface ScenarioRequest {
  method?: string
  /** From the root (`/api/v1/...`), or relative to `/api/v1/operador/` as the operator helpers take it. */
  path: string
  as?: Caller
  /** Sent over the caller's own; null leaves one of the caller's out. */
  headers?: Record<string, string | null>
  /** JSON-encoded, unless text or bytes (sent as they are). */
  body?: unknown
}

export interface Reply {
  status: number
  headers: Headers
  /** The JSON answer parsed; the text of any other answer; null for an empty one. */
  body: unknown
}

/**
 * A check of the database around the request: called after the setup and before the request (to
 * read what it needs beforehand), it returns the check to run on the reply afterwards.
 */
export type DatabaseCheck = (
  service: TestService,
) => Promise<(reply: Reply) => Promise<void> | void> | ((reply: Reply) => Promise<void> | void)

/** A read of what the service holds (a query through `service.db`, or a request). */
export type Read = (service: TestService) => unknown

/** The service's standard refusal body. */
export function refusal(message: string | RegExp): { success: false; message: string | RegExp } {
  return { success: false, message }
}

/** Reads the same after the request as before it. */
export function unchanged(what: string, read: Read): DatabaseCheck {
  return async (service) => {
    const before = await read(service)
    return async () => assert.deepStrictEqual(await read(service), before, `${what}: changed by the request`)
  }
}

/** Every table the same after the request as before it (`unchanged` over `databaseDump`). */
export function nothingWritten(): DatabaseCheck {
  return unchanged('the database', (service) => databaseDump(service.db))
}

/** Reads `expected` after the request (RegExp and `containing` as in a body). */
export function holds(what: string, read: Read, expected: unknown): DatabaseCheck {
  return (service) => async () => matchesExpected(await read(service), expected, what)
}

/** A count `added` higher after the request than before it. */
export function grows(what: string, count: (service: TestService) => number, added: number): DatabaseCheck {
  return (service) => {
    const before = count(service)
    return () => assert.equal(count(service) - before, added, `${what}: ${added} more expected`)
  }
}

/** Only these fields of an object answer are compared (each as in a body); the rest are left out. */
export function containing(fields: Record<string, unknown>): Containing {
  return new Containing(fields)
}

export class Containing {
  constructor(readonly fields: Record<string, unknown>) {}
}

/**
 * `actual` deep-equals `expected`, where a RegExp in `expected` matches a string and a
 * `containing(...)` an object having those fields. Fails with the usual diff of the two.
 */
export function matchesExpected(actual: unknown, expected: unknown, message?: string): void {
  const [shownActual, shownExpected] = align(actual, expected)
  assert.deepStrictEqual(shownActual, shownExpected, message)
}

/** Sends a scenario request as `as` (unless the request says who) through the service's checked fetch. */
export async function send(service: TestService, request: ScenarioRequest, as: Caller = 'nobody'): Promise<Reply> {
  const caller = request.as ?? as
  return sendWith(service, request, caller, await credentials(service, caller))
}

async function runScenario(row: Scenario, shared: SharedScenario): Promise<void> {
  await withService({ ...shared.service, ...row.service }, async (service) => {
    await shared.setup?.(service)
    await row.setup?.(service)
    // A person logs in before the database is first read: the login is not the request's doing.
    const { request } = row
    const caller = typeof request === 'function' ? 'nobody' : (request.as ?? shared.as ?? 'nobody')
    const sent = typeof request === 'function' ? {} : await credentials(service, caller)
    const afterwards = []
    for (const check of [...listOf(shared.database), ...listOf(row.database)]) afterwards.push(await check(service))
    const reply =
      typeof request === 'function' ? await request(service) : await sendWith(service, request, caller, sent)
    assert.equal(reply.status, row.status, `status ${reply.status}: ${JSON.stringify(reply.body)?.slice(0, 1_000)}`)
    if ('body' in row) matchesExpected(reply.body, row.body, 'the body')
    for (const [name, expected] of Object.entries(row.headers ?? {})) {
      const value = reply.headers.get(name)
      if (expected === null) assert.equal(value, null, `header ${name}`)
      else matchesExpected(value, expected, `header ${name}`)
    }
    for (const check of afterwards) await check(reply)
  })
}

async function sendWith(
  service: TestService,
  request: ScenarioRequest,
  caller: Caller,
  credentials: Record<string, string>,
): Promise<Reply> {
  const path = request.path.startsWith('/') ? request.path : `/api/v1/operador/${request.path}`
  const headers: Record<string, string> = { ...credentials }
  // The operator and console helpers send JSON's Content-Type on every request; others with a body.
  if (request.body !== undefined || caller === 'operator' || typeof caller === 'object')
    headers['Content-Type'] = 'application/json'
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    for (const key of Object.keys(headers)) if (key.toLowerCase() === name.toLowerCase()) delete headers[key]
    if (value !== null) headers[name] = value
  }
  const body =
    request.body === undefined
      ? undefined
      : typeof request.body === 'string' || request.body instanceof Uint8Array
        ? request.body
        : JSON.stringify(request.body)
  const response = await service.fetch(path, {
    method: request.method ?? 'GET',
    headers,
    ...(body === undefined ? {} : { body }),
  })
  const text = await response.text()
  const json = (response.headers.get('content-type') ?? '').startsWith('application/json')
  return {
    status: response.status,
    headers: response.headers,
    body: text === '' ? null : json ? (JSON.parse(text) as unknown) : text,
  }
}

async function credentials(service: TestService, caller: Caller): Promise<Record<string, string>> {
  if (caller === 'nobody') return {}
  if (caller === 'client') return { ApiKey: API_KEY }
  if (caller === 'operator') return { OperatorKey: OPERATOR_KEY, Operador: encodeURIComponent(OPERATOR) }
  return { Cookie: await sessionOf(service, caller.usuario, caller.contrasena), Origin: service.url }
}

function listOf(checks: DatabaseCheck | readonly DatabaseCheck[] | undefined): readonly DatabaseCheck[] {
  return checks === undefined ? [] : typeof checks === 'function' ? [checks] : checks
}

/**
 * The two sides as `deepStrictEqual` should compare them: a RegExp that matches its string is
 * replaced by that string, and the fields `containing` leaves out are left out of the answer, so a
 * failure's diff shows only what was expected.
 */
function align(actual: unknown, expected: unknown): [unknown, unknown] {
  if (expected instanceof RegExp)
    return typeof actual === 'string' && expected.test(actual) ? [actual, actual] : [actual, expected]
  if (expected instanceof Containing) {
    if (!isRecord(actual)) return [actual, expected.fields]
    const shown: Record<string, unknown> = {}
    const wanted: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(expected.fields)) {
      ;[shown[key], wanted[key]] = key in actual ? align(actual[key], value) : ['(absent)', value]
    }
    return [shown, wanted]
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const pairs = actual.map((item, index) =>
      index < expected.length ? align(item, expected[index]) : [item, undefined],
    )
    return [
      pairs.map(([shown]) => shown),
      [...pairs.map(([, wanted]) => wanted).slice(0, expected.length), ...expected.slice(actual.length)],
    ]
  }
  if (isRecord(expected) && isRecord(actual)) {
    const shown: Record<string, unknown> = { ...actual }
    const wanted: Record<string, unknown> = { ...expected }
    for (const key of Object.keys(expected))
      if (key in actual) [shown[key], wanted[key]] = align(actual[key], expected[key])
    return [shown, wanted]
  }
  return [actual, expected]
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    !(value instanceof RegExp) &&
    !(value instanceof Containing)
  )
}
