import assert from 'node:assert/strict'
import { test } from 'node:test'
import { withService, type TestService } from '../support/service.ts'
import {
  acceptBatch,
  as,
  createPeople,
  deposit,
  depositBody,
  download,
  getReceipt,
  lineInvoice,
  PNG,
  putReceipt,
  returnOf,
  seedReason,
  type Who,
} from '../support/settlement.ts'

/**
 * Every role × every settlement endpoint × warehouse (issue 40): 905112 holds F-1 (OAC) with
 * deposit 1 and F-2 (OAS) with deposit 2, each with its receipt, and a pending return 1 on F-1.
 * Operators see the money summary only; supervisors register and edit deposits; cancelling and
 * adjusting are finance's and the admin's; finance never registers nor decides returns, nor
 * closes. Outside one's warehouses → 404 (or 422 for a part of the body); a right the role lacks → 403.
 */
const WHO: Tested[] = ['op-oac', 'sup-oac', 'fin-oac', 'fin-oas', 'admin', 'clave']

async function seed(service: TestService): Promise<void> {
  await acceptBatch(service, [lineInvoice('F-1', '905112', 'OAC', 100), lineInvoice('F-2', '905112', 'OAS', 50)])
  await seedReason(service)
  await createPeople(service)
  await deposit(service, '905112', depositBody(10, { almacen: 'OAC' }))
  await deposit(service, '905112', depositBody(5, { almacen: 'OAS' }))
  assert.equal((await putReceipt(service, 'clave', '1', PNG)).status, 200)
  assert.equal((await putReceipt(service, 'clave', '2', PNG)).status, 200)
  await returnOf(service, 'F-1', 1, 'pending')
}

type Tested = Exclude<Who, 'sup'>
type Expect = Record<Tested, number>
const readMoney: Expect = { 'op-oac': 403, 'sup-oac': 200, 'fin-oac': 200, 'fin-oas': 200, admin: 200, clave: 200 }
const oacDeposit: Expect = { 'op-oac': 403, 'sup-oac': 200, 'fin-oac': 200, 'fin-oas': 404, admin: 200, clave: 200 }

const rows: Array<{
  name: string
  call: (service: TestService, who: Who) => Promise<{ status: number }>
  expect: Expect
}> = [
  {
    name: 'GET manifiestos/905112 (the money summary)',
    call: (s, who) => as(s, who, 'GET', 'manifiestos/905112'),
    expect: { 'op-oac': 200, 'sup-oac': 200, 'fin-oac': 200, 'fin-oas': 200, admin: 200, clave: 200 },
  },
  {
    name: "GET resumen (Inicio's money)",
    call: (s, who) => as(s, who, 'GET', 'resumen'),
    expect: { 'op-oac': 200, 'sup-oac': 200, 'fin-oac': 200, 'fin-oas': 200, admin: 200, clave: 200 },
  },
  {
    name: 'GET manifiestos/905112/depositos',
    call: (s, who) => as(s, who, 'GET', 'manifiestos/905112/depositos'),
    expect: readMoney,
  },
  { name: 'GET depositos', call: (s, who) => as(s, who, 'GET', 'depositos'), expect: readMoney },
  {
    name: 'GET depositos/exportar',
    call: (s, who) => download(s, who, 'depositos/exportar?formato=csv'),
    expect: readMoney,
  },
  {
    name: 'GET manifiestos/905112/ajustes',
    call: (s, who) => as(s, who, 'GET', 'manifiestos/905112/ajustes'),
    expect: readMoney,
  },
  { name: 'GET depositos/1 (OAC)', call: (s, who) => as(s, who, 'GET', 'depositos/1'), expect: oacDeposit },
  {
    name: 'GET depositos/2 (OAS)',
    call: (s, who) => as(s, who, 'GET', 'depositos/2'),
    expect: { 'op-oac': 403, 'sup-oac': 404, 'fin-oac': 404, 'fin-oas': 200, admin: 200, clave: 200 },
  },
  { name: 'GET depositos/1/comprobante (OAC)', call: (s, who) => getReceipt(s, who, '1'), expect: oacDeposit },
  {
    name: 'POST manifiestos/905112/depositos (OAC part)',
    call: (s, who) => as(s, who, 'POST', 'manifiestos/905112/depositos', depositBody(1, { almacen: 'OAC' })),
    expect: { 'op-oac': 403, 'sup-oac': 201, 'fin-oac': 201, 'fin-oas': 422, admin: 201, clave: 201 },
  },
  {
    name: 'PUT depositos/1 (OAC)',
    call: (s, who) => as(s, who, 'PUT', 'depositos/1', { notas: 'Revisado con el banco' }),
    expect: oacDeposit,
  },
  { name: 'PUT depositos/1/comprobante (OAC)', call: (s, who) => putReceipt(s, who, '1', PNG), expect: oacDeposit },
  {
    name: 'POST depositos/1/anular (OAC)',
    call: (s, who) => as(s, who, 'POST', 'depositos/1/anular', { motivo: 'Registrado dos veces' }),
    expect: { 'op-oac': 403, 'sup-oac': 403, 'fin-oac': 200, 'fin-oas': 404, admin: 200, clave: 403 },
  },
  {
    name: 'POST manifiestos/905112/ajustes (OAC part)',
    call: (s, who) =>
      as(s, who, 'POST', 'manifiestos/905112/ajustes', { almacen: 'OAC', monto: 0.5, motivo: 'Redondeo del banco' }),
    expect: { 'op-oac': 403, 'sup-oac': 403, 'fin-oac': 201, 'fin-oas': 422, admin: 201, clave: 403 },
  },
  {
    name: 'POST devoluciones/1/aprobar: finance does not decide returns',
    call: (s, who) => as(s, who, 'POST', 'devoluciones/1/aprobar'),
    expect: { 'op-oac': 403, 'sup-oac': 200, 'fin-oac': 403, 'fin-oas': 403, admin: 200, clave: 200 },
  },
  {
    name: 'POST devoluciones: finance does not register returns',
    call: (s, who) =>
      as(s, who, 'POST', 'devoluciones', {
        factura: 'F-1',
        concepto: 'DANADO',
        fecha: '2026-11-22',
        lineas: [{ numeroLinea: 1, unidades: 1 }],
      }),
    expect: { 'op-oac': 201, 'sup-oac': 201, 'fin-oac': 403, 'fin-oas': 403, admin: 201, clave: 201 },
  },
  {
    name: 'POST manifiestos/905112/cerrar: finance does not close',
    call: (s, who) => as(s, who, 'POST', 'manifiestos/905112/cerrar'),
    expect: { 'op-oac': 403, 'sup-oac': 403, 'fin-oac': 403, 'fin-oas': 403, admin: 422, clave: 422 },
  },
  {
    name: 'GET auditoria: finance reads the history',
    call: (s, who) => as(s, who, 'GET', 'auditoria'),
    expect: { 'op-oac': 403, 'sup-oac': 200, 'fin-oac': 200, 'fin-oas': 200, admin: 200, clave: 200 },
  },
  {
    name: 'GET devoluciones',
    call: (s, who) => as(s, who, 'GET', 'devoluciones'),
    expect: { 'op-oac': 200, 'sup-oac': 200, 'fin-oac': 200, 'fin-oas': 200, admin: 200, clave: 200 },
  },
  {
    name: 'GET lotes: finance has no batches',
    call: (s, who) => as(s, who, 'GET', 'lotes'),
    expect: { 'op-oac': 403, 'sup-oac': 200, 'fin-oac': 403, 'fin-oas': 403, admin: 200, clave: 200 },
  },
]

for (const row of rows) {
  for (const who of WHO) {
    test(`settlement permissions: ${who} → ${row.name} → ${row.expect[who]}`, () =>
      withService({}, async (service) => {
        await seed(service)
        const answer = await row.call(service, who)
        assert.equal(answer.status, row.expect[who], JSON.stringify((answer as { body?: unknown }).body ?? ''))
      }))
  }
}

test('settlement permissions: an operator of OAC sees the OAC part of the money and no more', () =>
  withService({}, async (service) => {
    await seed(service)
    const detail = await as(service, 'op-oac', 'GET', 'manifiestos/905112')
    assert.deepEqual(
      detail.body.liquidacion.por_almacen.map((part: { almacen: string; depositado: number }) => [
        part.almacen,
        part.depositado,
      ]),
      [['OAC', 10]],
    )
    const list = await as(service, 'op-oac', 'GET', 'depositos')
    assert.equal(list.status, 403)
  }))
