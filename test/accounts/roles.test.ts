import assert from 'node:assert/strict'
import { test } from 'node:test'
import { exampleBatch, postBatch, type Answer } from '../support/batches.ts'
import { asPerson, createAccount, sessionOf } from '../support/accounts.ts'
import { operator, seedReturns } from '../support/operator.ts'
import { withService, type TestService } from '../support/service.ts'
import { CLOSE_UNSETTLED } from '../support/settlement.ts'

/**
 * Every role × every operator endpoint, with people of one warehouse on a manifest of two:
 * manifest 905112 holds F1 (…912001, OAC) and F2 (…912002, OAS). Pending returns 1 (on F1) and
 * 2 (on F2) and conflicts 1 (F1) and 2 (F2) exist. Outside one's warehouses → 404; a right the
 * role lacks → 403.
 */
const F1 = '001-001-01-00912001'
const F2 = '001-001-01-00912002'
type Who = 'op-oac' | 'sup-oac' | 'sup' | 'admin' | 'clave'
const WHO: Who[] = ['op-oac', 'sup-oac', 'sup', 'admin', 'clave']

async function seed(service: TestService): Promise<void> {
  await seedReturns(service)
  for (const factura of [F1, F2]) {
    const created = await operator(service, 'POST', 'devoluciones', {
      factura,
      concepto: 'DANADO',
      fecha: '2026-11-22',
      lineas: [{ numeroLinea: 1, unidades: 1 }],
    })
    assert.equal(created.status, 201)
  }
  const changed = exampleBatch().map((invoice) => ({ ...invoice, Tel: '00000000' }))
  assert.equal((await postBatch(service, changed)).status, 200)
  await createAccount(service, 'op-oac', 'operador', ['OAC'])
  await createAccount(service, 'sup-oac', 'supervisor', ['OAC'])
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

function firstBatchUuid(service: TestService): string {
  return String(service.db.sqlite.prepare('SELECT uuid FROM batches ORDER BY id LIMIT 1').pluck().get())
}

const back = { factura: F1, concepto: 'DANADO', fecha: '2026-11-22', lineas: [{ numeroLinea: 1, unidades: 1 }] }
const rows: Array<{
  method: string
  path: string
  body?: unknown
  prepare?: (service: TestService) => Promise<unknown>
  expect: Record<Who, number>
}> = [
  { method: 'GET', path: 'manifiestos', expect: { 'op-oac': 200, 'sup-oac': 200, sup: 200, admin: 200, clave: 200 } },
  {
    method: 'GET',
    path: 'manifiestos/905112',
    expect: { 'op-oac': 200, 'sup-oac': 200, sup: 200, admin: 200, clave: 200 },
  },
  {
    method: 'GET',
    path: `facturas/${F1}`,
    expect: { 'op-oac': 200, 'sup-oac': 200, sup: 200, admin: 200, clave: 200 },
  },
  {
    method: 'GET',
    path: `facturas/${F2}`,
    expect: { 'op-oac': 404, 'sup-oac': 404, sup: 200, admin: 200, clave: 200 },
  },
  { method: 'GET', path: 'devoluciones', expect: { 'op-oac': 200, 'sup-oac': 200, sup: 200, admin: 200, clave: 200 } },
  {
    method: 'GET',
    path: 'devoluciones/1',
    expect: { 'op-oac': 200, 'sup-oac': 200, sup: 200, admin: 200, clave: 200 },
  },
  {
    method: 'GET',
    path: 'devoluciones/2',
    expect: { 'op-oac': 404, 'sup-oac': 404, sup: 200, admin: 200, clave: 200 },
  },
  {
    method: 'POST',
    path: 'devoluciones',
    body: back,
    expect: { 'op-oac': 201, 'sup-oac': 201, sup: 201, admin: 201, clave: 201 },
  },
  {
    method: 'POST',
    path: 'devoluciones',
    body: { ...back, factura: F2 },
    expect: { 'op-oac': 422, 'sup-oac': 422, sup: 201, admin: 201, clave: 201 },
  },
  {
    method: 'POST',
    path: 'devoluciones',
    body: { ...back, aprobar: true },
    expect: { 'op-oac': 403, 'sup-oac': 201, sup: 201, admin: 201, clave: 201 },
  },
  {
    method: 'POST',
    path: 'devoluciones/1/aprobar',
    expect: { 'op-oac': 403, 'sup-oac': 200, sup: 200, admin: 200, clave: 200 },
  },
  {
    method: 'POST',
    path: 'devoluciones/2/aprobar',
    expect: { 'op-oac': 403, 'sup-oac': 404, sup: 200, admin: 200, clave: 200 },
  },
  {
    method: 'POST',
    path: 'devoluciones/1/rechazar',
    body: { motivo: 'No corresponde' },
    expect: { 'op-oac': 403, 'sup-oac': 200, sup: 200, admin: 200, clave: 200 },
  },
  {
    method: 'POST',
    path: 'devoluciones/1/anular',
    body: { motivo: 'Por error' },
    prepare: (service) => operator(service, 'POST', 'devoluciones/1/aprobar'),
    expect: { 'op-oac': 403, 'sup-oac': 200, sup: 200, admin: 200, clave: 200 },
  },
  {
    method: 'POST',
    path: 'manifiestos/905112/cerrar',
    expect: { 'op-oac': 403, 'sup-oac': 403, sup: 200, admin: 200, clave: 200 },
  },
  {
    method: 'POST',
    path: 'manifiestos/905112/reabrir',
    body: { motivo: 'Faltó una factura' },
    prepare: (service) => operator(service, 'POST', 'manifiestos/905112/cerrar'),
    expect: { 'op-oac': 403, 'sup-oac': 403, sup: 200, admin: 200, clave: 200 },
  },
  {
    method: 'POST',
    path: 'manifiestos/905112/plazo',
    body: { hasta: '2026-12-01', motivo: 'Inventario' },
    // 422: without returns.windowBusinessDays the manifest has no deadline to extend; the right and warehouses are checked first
    expect: { 'op-oac': 403, 'sup-oac': 403, sup: 422, admin: 422, clave: 422 },
  },
  { method: 'GET', path: 'reemisiones', expect: { 'op-oac': 200, 'sup-oac': 200, sup: 200, admin: 200, clave: 200 } },
  {
    method: 'POST',
    path: 'reemisiones/1/confirmar',
    expect: { 'op-oac': 403, 'sup-oac': 404, sup: 404, admin: 404, clave: 404 },
  },
  { method: 'GET', path: 'conflictos', expect: { 'op-oac': 403, 'sup-oac': 200, sup: 200, admin: 200, clave: 200 } },
  {
    method: 'POST',
    path: 'conflictos/1/descartar',
    expect: { 'op-oac': 403, 'sup-oac': 200, sup: 200, admin: 200, clave: 200 },
  },
  {
    method: 'POST',
    path: 'conflictos/2/aceptar',
    expect: { 'op-oac': 403, 'sup-oac': 404, sup: 200, admin: 200, clave: 200 },
  },
  { method: 'GET', path: 'conceptos', expect: { 'op-oac': 200, 'sup-oac': 200, sup: 200, admin: 200, clave: 200 } },
  {
    method: 'POST',
    path: 'conceptos',
    body: { codigo: 'ROTO', descripcion: 'Empaque roto' },
    expect: { 'op-oac': 403, 'sup-oac': 201, sup: 201, admin: 201, clave: 201 },
  },
  {
    method: 'PUT',
    path: 'conceptos/DANADO',
    body: { activo: false },
    expect: { 'op-oac': 403, 'sup-oac': 200, sup: 200, admin: 200, clave: 200 },
  },
  { method: 'GET', path: 'lotes', expect: { 'op-oac': 403, 'sup-oac': 200, sup: 200, admin: 200, clave: 200 } },
  // A batch has no warehouse (one batch carries every warehouse's invoices): every supervisor reads every batch.
  { method: 'GET', path: 'lotes/{lote}', expect: { 'op-oac': 403, 'sup-oac': 200, sup: 200, admin: 200, clave: 200 } },
  {
    method: 'GET',
    path: 'lotes/{lote}/payload',
    expect: { 'op-oac': 403, 'sup-oac': 200, sup: 200, admin: 200, clave: 200 },
  },
  { method: 'GET', path: 'auditoria', expect: { 'op-oac': 403, 'sup-oac': 200, sup: 200, admin: 200, clave: 200 } },
  { method: 'GET', path: 'usuarios', expect: { 'op-oac': 403, 'sup-oac': 403, sup: 403, admin: 200, clave: 403 } },
  {
    method: 'POST',
    path: 'usuarios',
    body: { usuario: 'nuevo', nombre: 'Nuevo', rol: 'operador', almacenes: ['OAO'], contrasena: 'una-clave-larga' },
    expect: { 'op-oac': 403, 'sup-oac': 403, sup: 403, admin: 201, clave: 403 },
  },
  {
    method: 'PUT',
    path: 'usuarios/op-oac',
    body: { nombre: 'Operadora de OAC' },
    expect: { 'op-oac': 403, 'sup-oac': 403, sup: 403, admin: 200, clave: 403 },
  },
  {
    method: 'POST',
    path: 'usuarios/op-oac/contrasena',
    body: { contrasena: 'otra-clave-larga' },
    expect: { 'op-oac': 403, 'sup-oac': 403, sup: 403, admin: 200, clave: 403 },
  },
]

for (const row of rows) {
  for (const who of WHO) {
    const expected = row.expect[who]
    test(`roles: ${who} → ${row.method} ${row.path}${row.body && (row.body as { factura?: string; aprobar?: boolean }).factura ? ` (${(row.body as { factura: string }).factura === F2 ? 'OAS' : 'OAC'}${(row.body as { aprobar?: boolean }).aprobar ? ', aprobada' : ''})` : ''} → ${expected}`, () =>
      // Rights are the subject: a manifest closes here without its settlement (test/settlement/ holds that rule).
      withService({ config: CLOSE_UNSETTLED }, async (service) => {
        await seed(service)
        await row.prepare?.(service)
        const path = row.path.replace('{lote}', () => firstBatchUuid(service))
        const { status, body } = await call(service, who, row.method, path, row.body)
        assert.equal(status, expected, JSON.stringify(body))
        if (status === 403) assert.match(body.message, /no permite|almacén\(es\) que usted no tiene/)
      }))
  }
}

test('roles: a user of OAC sees manifest 905112 with only its OAC invoice, its totals and its returns', () =>
  withService({}, async (service) => {
    await seed(service)
    const cookie = await sessionOf(service, 'op-oac')
    const list = await asPerson(service, cookie, 'GET', 'manifiestos')
    assert.deepEqual(
      [list.body[0].total_facturas, list.body[0].total_importe, list.body[0].devoluciones.cantidad],
      [1, 2300.18, 1],
    )
    const detail = await asPerson(service, cookie, 'GET', 'manifiestos/905112')
    assert.deepEqual(
      detail.body.facturas.map((invoice: { factura: string }) => invoice.factura),
      [F1],
    )
    const returns = await asPerson(service, cookie, 'GET', 'devoluciones')
    assert.deepEqual(
      returns.body.map((entry: { factura: string }) => entry.factura),
      [F1],
    )
    const all = await operator(service, 'GET', 'manifiestos')
    assert.equal(all.body[0].total_facturas, 2, 'the integration sees both warehouses')
  }))

test('roles: a supervisor of OAC reads the audit entries of OAC things and reasons, not those of OAS', () =>
  withService({}, async (service) => {
    await seed(service)
    const entries = await asPerson(service, await sessionOf(service, 'sup-oac'), 'GET', 'auditoria')
    const subjects = new Set<string>(
      entries.body.map((entry: { tipo: string; sujeto: string }) => `${entry.tipo}:${entry.sujeto}`),
    )
    assert.ok(subjects.has('devolucion:1') && subjects.has('concepto:DANADO'))
    assert.ok(!subjects.has('devolucion:2'), 'the OAS return stays out')
    assert.ok(![...subjects].some((subject) => subject.startsWith('usuario:')), 'account entries are for admins')
  }))

test('roles: a user of no warehouse of a manifest gets 404 for it, never 403', () =>
  withService({}, async (service) => {
    await seed(service)
    await createAccount(service, 'op-oao', 'operador', ['OAO'])
    const cookie = await sessionOf(service, 'op-oao')
    assert.deepEqual(await asPerson(service, cookie, 'GET', 'manifiestos/905112'), {
      status: 404,
      body: { success: false, message: 'El manifiesto 905112 no existe.' },
    })
    assert.deepEqual((await asPerson(service, cookie, 'GET', 'manifiestos')).body, [])
  }))
