import assert from 'node:assert/strict'
import { test } from 'node:test'
import { asPerson, createAccount, sessionOf } from '../support/accounts.ts'
import { exampleBatch, postBatch, type Answer } from '../support/batches.ts'
import { seedConsoleReturns } from '../support/console.ts'
import { operator } from '../support/operator.ts'
import { OPERATOR_KEY, withService, type TestService } from '../support/service.ts'

/**
 * Every role × every endpoint the console added, with people of one warehouse on a manifest of
 * two (905112: F1 in OAC, F2 in OAS). Returns 2 (F2, OAS) and 3 (F1, OAC) are pending; conflicts
 * 1 (F1) and 2 (F2) are pending. A right the role lacks → 403; outside one's warehouses → 404 for
 * one thing (lists leave it out).
 */
type Who = 'op-oac' | 'sup-oac' | 'sup' | 'admin' | 'clave'
const WHO: Who[] = ['op-oac', 'sup-oac', 'sup', 'admin', 'clave']

async function seed(service: TestService): Promise<void> {
  await seedConsoleReturns(service)
  // The supplier resends a manifest only the day it arrived: back to the 22nd for the resend.
  service.clock.set('2026-11-22T20:00:00Z')
  assert.equal(
    (
      await postBatch(
        service,
        exampleBatch().map((entry) => ({ ...entry, Tel: '00000000' })),
      )
    ).status,
    200,
  )
  service.clock.set('2026-11-23T15:00:00Z')
  await createAccount(service, 'sup', 'supervisor', 'todos')
  await createAccount(service, 'admin', 'admin')
}

async function call(
  service: TestService,
  who: Who,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Answer }> {
  if (who === 'clave') return operator(service, method, path, body)
  return asPerson(service, await sessionOf(service, who), method, path, body)
}

const rows: Array<{ method: string; path: string; body?: unknown; expect: Record<Who, number> }> = [
  { method: 'GET', path: 'resumen', expect: { 'op-oac': 200, 'sup-oac': 200, sup: 200, admin: 200, clave: 200 } },
  {
    method: 'GET',
    path: 'manifiestos?pagina=1',
    expect: { 'op-oac': 200, 'sup-oac': 200, sup: 200, admin: 200, clave: 200 },
  },
  {
    method: 'GET',
    path: 'manifiestos/905112/facturas',
    expect: { 'op-oac': 200, 'sup-oac': 200, sup: 200, admin: 200, clave: 200 },
  },
  {
    method: 'GET',
    path: 'devoluciones?pagina=1',
    expect: { 'op-oac': 200, 'sup-oac': 200, sup: 200, admin: 200, clave: 200 },
  },
  {
    method: 'POST',
    path: 'devoluciones/aprobar',
    body: { ids: ['3'] },
    expect: { 'op-oac': 403, 'sup-oac': 200, sup: 200, admin: 200, clave: 200 },
  },
  {
    method: 'POST',
    path: 'devoluciones/aprobar',
    body: { ids: ['2'] },
    expect: { 'op-oac': 403, 'sup-oac': 422, sup: 200, admin: 200, clave: 200 },
  },
  {
    method: 'GET',
    path: 'devoluciones/exportar?formato=csv',
    expect: { 'op-oac': 200, 'sup-oac': 200, sup: 200, admin: 200, clave: 200 },
  },
  { method: 'GET', path: 'conflictos/1', expect: { 'op-oac': 403, 'sup-oac': 200, sup: 200, admin: 200, clave: 200 } },
  { method: 'GET', path: 'conflictos/2', expect: { 'op-oac': 403, 'sup-oac': 404, sup: 200, admin: 200, clave: 200 } },
  {
    method: 'GET',
    path: 'auditoria?tipo=manifiesto&sujeto=905112',
    expect: { 'op-oac': 403, 'sup-oac': 200, sup: 200, admin: 200, clave: 200 },
  },
]

for (const row of rows) {
  for (const who of WHO) {
    const expected = row.expect[who]
    test(`console roles: ${who} → ${row.method} ${row.path}${row.body ? ` ${JSON.stringify(row.body)}` : ''} → ${expected}`, () =>
      withService({}, async (service) => {
        await seed(service)
        const { status, body } = row.path.includes('exportar')
          ? await download(service, who, row.path)
          : await call(service, who, row.method, row.path, row.body)
        assert.equal(status, expected, JSON.stringify(body))
        if (status === 403) assert.match(body.message, /no permite/)
      }))
  }
}

/** A download answers bytes, not JSON: only its status matters here. */
async function download(service: TestService, who: Who, path: string): Promise<{ status: number; body: Answer }> {
  const headers: Record<string, string> =
    who === 'clave' ? { OperatorKey: OPERATOR_KEY } : { Cookie: await sessionOf(service, who) }
  const response = await service.fetch(`/api/v1/operador/${path}`, { headers })
  const text = await response.text()
  return {
    status: response.status,
    body: response.headers.get('content-type')?.startsWith('application/json') ? (JSON.parse(text) as Answer) : {},
  }
}
