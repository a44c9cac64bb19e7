import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { test } from 'node:test'
import fc from 'fast-check'
import type { TSchema } from 'typebox'
import type { Database } from '../../src/db/database.ts'
import type { Route } from '../../src/http/route.ts'
import { createAccount, sessionOf } from '../support/accounts.ts'
import { exampleBatch, postBatch } from '../support/batches.ts'
import { FACTURA, registerReturn, seedReturns } from '../support/operator.ts'
import { API_KEY, OPERATOR_KEY, startTestService, type TestService } from '../support/service.ts'

/**
 * Issue 11: every route of the route table, fed bad input of every kind — wrong types, impossible
 * dates, huge and negative numbers, unicode oddities, prototype keys, repeated query parameters,
 * oversized strings, broken JSON and broken UTF-8. Never a 500; every refusal is the documented
 * error shape in Spanish (the harness also checks each answer against its route's schema); a
 * refused request changes nothing in the database.
 */
const RUNS_PER_ROUTE = Number(process.env.RUNS ?? 200)

const oddText = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '2026-02-30',
    '2026-13-01',
    '31/02/2026',
    '22/11/2026',
    '0',
    '-1',
    '1.5',
    '1e400',
    '9999999999999999999',
    'null',
    'true',
    '[]',
    '{}',
    '__proto__',
    'constructor',
    '..',
    '%',
    '%E0%A4%A',
    'ñandú',
    '😀',
    '\u202e',
    '\u0000',
    'a\tb',
    "'; DROP TABLE invoices; --",
  ),
  fc.string({ maxLength: 12 }),
  fc.string({ minLength: 3000, maxLength: 5000 }),
)
const lone = fc.constantFrom('\ud800', 'x\udfff')
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  oddText,
  lone,
  fc.constantFrom(null, true, false, 0, -1, 1.5, -0, 1e308, -1e308, 2 ** 53 + 1, 1e12 + 1, [], {}, [1, 2], {
    __proto__: { polluted: 1 },
  }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.jsonValue({ maxDepth: 3 }),
)

function propertyNames(schema: TSchema | undefined): string[] {
  const properties = (schema as { properties?: Record<string, unknown> } | undefined)?.properties
  return properties ? Object.keys(properties) : []
}

interface BadRequest {
  path: string
  search: string
  headers: Record<string, string>
  body?: string | Buffer
}

/** Session cookies of an admin, and of a person whose session DELETE /api/v1/sesion may end. */
interface People {
  admin: string
  leaving: string
}

/**
 * How a route is entered: the client's key, the operator key, or — for the routes of people
 * (their session, the users API) — an admin's session cookie from the service's own origin.
 */
function credentials(route: Route, people: People, operador: string | undefined): Record<string, string> {
  if (route.access === 'client') return { ApiKey: API_KEY }
  if (route.access === 'person' || route.path.startsWith('/api/v1/operador/usuarios')) {
    return { Cookie: route.method === 'DELETE' ? people.leaving : people.admin, Origin: service.url }
  }
  if (route.access === 'operator') return { OperatorKey: OPERATOR_KEY, Operador: operador ?? 'Propiedad' }
  return {}
}

function badRequests(route: Route, people: People): fc.Arbitrary<BadRequest> {
  const segments = route.path.split('/')
  const params = segments.filter((segment) => segment.startsWith(':'))
  const queryNames = [...propertyNames(route.query), 'x', '__proto__']
  const bodyNames = [...propertyNames(route.body?.schema), 'extra', '__proto__', 'constructor']
  const pathArb = fc
    .tuple(
      ...params.map(() =>
        fc.oneof(
          oddText.filter((text) => text !== ''),
          fc.constantFrom('1', '905112', FACTURA, 'DANADO'),
        ),
      ),
    )
    .map((values) => {
      let i = 0
      return segments
        .map((segment) => (segment.startsWith(':') ? encodeURIComponent(String(values[i++])) : segment))
        .join('/')
    })
  const searchArb = fc
    .array(fc.tuple(fc.constantFrom(...queryNames), oddText), { maxLength: 4 })
    .chain((pairs) => fc.tuple(fc.constant(pairs), fc.boolean()))
    .map(([pairs, repeat]) => {
      const all = repeat && pairs.length > 0 ? [...pairs, pairs[0]!] : pairs
      return all.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&')
    })
  const headersArb = fc
    .record({
      fecha: fc.option(oddText, { nil: undefined }),
      operador: fc.option(
        oddText.map((text) => encodeURIComponent(text)),
        { nil: undefined },
      ),
    })
    .map(({ fecha, operador }) => {
      const headers: Record<string, string> = {
        'Content-Type': 'application/json',
        ...credentials(route, people, operador),
      }
      if (fecha !== undefined && /^[\x20-\x7e]*$/.test(fecha)) headers.Fecha = fecha
      return headers
    })
  const bodyArb: fc.Arbitrary<string | Buffer | undefined> =
    route.method === 'GET'
      ? fc.constant(undefined)
      : fc.oneof(
          fc
            .dictionary(fc.constantFrom(...bodyNames), oddValue, { maxKeys: 5 })
            .map((object) => JSON.stringify(object)),
          fc
            .array(
              fc.dictionary(
                fc.constantFrom('Nfactura', 'NumeroManifiesto', 'Total', 'LineasFactura', 'FechaFactura'),
                oddValue,
                { maxKeys: 5 },
              ),
              { maxLength: 3 },
            )
            .map((list) => JSON.stringify(list)),
          oddValue.map((value) => JSON.stringify(value) ?? 'null'),
          fc.constantFrom('{"a":', '[', 'no es json', '', '{"__proto__":{"polluted":1}}'),
          fc.constantFrom(Buffer.from('{"motivo":"PULPER\xcdA"}', 'latin1'), Buffer.from([0x7b, 0xff, 0xfe, 0x7d])),
        )
  return fc.record({ path: pathArb, search: searchArb, headers: headersArb, body: bodyArb })
}

/**
 * Every row of every table, hashed: a refused request must leave it as it was. A refused login is
 * the one refusal that writes, by design: the failure is audited and counted toward the lockout.
 */
function fingerprint(db: Database, route?: Route): string {
  const unchangedByDesign =
    route?.path === '/api/v1/sesion' && route.method === 'POST' ? ['audit_log', 'login_lockouts'] : []
  const tables = (
    db.sqlite
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .pluck()
      .all() as string[]
  ).filter((table) => !unchangedByDesign.includes(table))
  // The search index's shadow tables without rowid (its terms, its configuration) are read in key order.
  const withoutRowid = new Set(
    db.sqlite.prepare('SELECT name FROM pragma_table_list WHERE wr = 1').pluck().all() as string[],
  )
  const hash = createHash('sha256')
  for (const table of tables) {
    const rows = db.sqlite
      .prepare(`SELECT * FROM "${table}"${withoutRowid.has(table) ? '' : ' ORDER BY rowid'}`)
      .raw()
      .all()
    hash.update(
      JSON.stringify(rows, (_key, value: unknown) => (Buffer.isBuffer(value) ? value.toString('base64') : value)),
    )
  }
  return hash.digest('hex')
}

const ENGLISH = /\b(must|should|expected|property|properties|required|invalid|cannot|the|not found|error)\b/i

/** Manifest 905112 (with a returns deadline) and its invoices, a return, and in 905113 two possible re-issues of them. */
async function seeded(): Promise<TestService> {
  const service = await startTestService({
    config: {
      rateLimits: {
        insertPerMinute: 1_000_000,
        validatePerMinute: 1_000_000,
        returnsPerMinute: 1_000_000,
        generalPerMinute: 1_000_000,
        operatorPerMinute: 1_000_000,
        loginPerMinute: 1_000_000,
      },
      returns: { windowBusinessDays: 7 },
    },
  })
  await seedReturns(service)
  await registerReturn(service, [{ numeroLinea: 1, unidades: 1 }])
  await postBatch(
    service,
    exampleBatch().map((invoice) => ({ ...invoice, Nfactura: `${String(invoice.Nfactura)}-2`, Total: 1 })),
  )
  await postBatch(
    service,
    exampleBatch().map((invoice) => ({
      ...invoice,
      Nfactura: `${String(invoice.Nfactura)}-R`,
      NumeroManifiesto: '905113',
    })),
  )
  return service
}

const service = await seeded()
test.after(() => service.close())
await createAccount(service, 'jefa', 'admin')
await createAccount(service, 'de-salida', 'operador')
const people: People = { admin: await sessionOf(service, 'jefa'), leaving: await sessionOf(service, 'de-salida') }

for (const route of service.routes.filter(
  (candidate) => process.env.ONLY_ROUTE === undefined || candidate.path.includes(process.env.ONLY_ROUTE),
)) {
  test(`http surface: ${route.method} ${route.path} — bad input never gives a 500, refusals are Spanish and write nothing`, async () => {
    await fc.assert(
      fc.asyncProperty(badRequests(route, people), async (request) => {
        const before = fingerprint(service.db, route)
        const url = `${request.path}${request.search === '' ? '' : `?${request.search}`}`
        if (process.env.DEBUG_SURFACE)
          console.error(
            '>>',
            route.method,
            url.slice(0, 200),
            JSON.stringify(request.headers).slice(0, 200),
            String(request.body).slice(0, 80),
          )
        const response = await service.fetch(url, {
          method: route.method,
          headers: request.headers,
          ...(request.body === undefined ? {} : { body: request.body }),
        })
        const text = await response.text()
        assert.notEqual(response.status, 500, `${route.method} ${url} → 500: ${text.slice(0, 300)}`)
        if (response.status >= 400) {
          const body = JSON.parse(text) as { success?: unknown; message?: unknown }
          assert.equal(body.success, false)
          assert.equal(typeof body.message, 'string')
          assert.ok((body.message as string).length > 0)
          assert.doesNotMatch(body.message as string, ENGLISH, `not Spanish: ${String(body.message)}`)
          assert.equal(
            fingerprint(service.db, route),
            before,
            `${route.method} ${url} → ${response.status} changed the database`,
          )
        }
        assert.equal(({} as Record<string, unknown>).polluted, undefined)
      }),
      // No shrinking: the first counterexample is reported as found (shrinking oversized strings takes minutes).
      { numRuns: RUNS_PER_ROUTE, seed: 11, endOnFailure: true },
    )
  })
}
