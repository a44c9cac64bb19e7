import assert from 'node:assert/strict'
import { test } from 'node:test'
import { all } from '../../src/db/database.ts'
import { API_KEY, withService, type TestService } from '../support/service.ts'
import { requestAs, seedConsoleReturns, type ConsoleWho } from '../support/console.ts'
import type { Answer } from '../support/batches.ts'
import { operator } from '../support/operator.ts'

/**
 * POST devoluciones/aprobar: a selection of pending returns approved in one transaction, each
 * audited as a single approval, or none. Seed (test/support/console.ts): 1 approved (OAC), 2
 * pending (OAS), 3 pending (OAC); plus 4, pending on F1 (OAC), registered here.
 */
async function seed(service: TestService): Promise<void> {
  await seedConsoleReturns(service)
  const fourth = await operator(service, 'POST', 'devoluciones', {
    factura: '001-001-01-00912001',
    concepto: 'DANADO',
    fecha: '2026-11-23',
    lineas: [{ numeroLinea: 1, unidades: 2 }],
  })
  assert.equal(fourth.status, 201)
}

function states(service: TestService): Record<string, string> {
  return Object.fromEntries(
    all(service.db, service.db.query.selectFrom('returns').select(['id', 'estado']).orderBy('id')).map((row) => [
      String(row.id),
      row.estado,
    ]),
  )
}

function approvals(service: TestService): Array<{ subject: string; actor: string }> {
  return all(
    service.db,
    service.db.query
      .selectFrom('audit_log')
      .select(['subject_id', 'actor'])
      .where('action', '=', 'devolucion.aprobada')
      .orderBy('id'),
  ).map((row) => ({ subject: row.subject_id, actor: row.actor }))
}

const UNCHANGED = { '1': 'approved', '2': 'pending', '3': 'pending', '4': 'pending' }
const none = (count: number) =>
  `Ninguna de las ${count} devoluciones se aprobó; quite esa de la selección y vuelva a intentarlo.`

const rows: Array<{
  name: string
  who: ConsoleWho
  body: unknown
  status: number
  message?: string
  devolucion?: string
  approved?: string[]
}> = [
  {
    name: 'an operator may not approve',
    who: 'op-oac',
    body: { ids: ['3'] },
    status: 403,
    message: 'Su rol (operador) no permite aprobar, rechazar o anular devoluciones; pídaselo a un supervisor.',
  },
  {
    name: 'an empty selection',
    who: 'clave',
    body: { ids: [] },
    status: 422,
    message: 'Cuerpo inválido: ids: debe tener al menos 1 elemento(s).',
  },
  { name: 'an id that is not a number', who: 'clave', body: { ids: ['3', 'x'] }, status: 422 },
  {
    name: 'a repeated id',
    who: 'clave',
    body: { ids: ['3', '4', '3'] },
    status: 422,
    message: `La devolución 3 aparece más de una vez en la selección. ${none(3)}`,
    devolucion: '3',
  },
  {
    name: 'an unknown id',
    who: 'clave',
    body: { ids: ['3', '99'] },
    status: 422,
    message: `No existe la devolución 99. ${none(2)}`,
    devolucion: '99',
  },
  {
    name: 'one already approved: the first that cannot is named',
    who: 'clave',
    body: { ids: ['3', '1', '4'] },
    status: 422,
    message: `La devolución 1 está aprobada; solo una devolución pendiente puede quedar aprobada. ${none(3)}`,
    devolucion: '1',
  },
  {
    name: 'a supervisor of OAC naming a return of OAS',
    who: 'sup-oac',
    body: { ids: ['3', '2'] },
    status: 422,
    message: `No existe la devolución 2. ${none(2)}`,
    devolucion: '2',
  },
  {
    name: 'a supervisor of OAC approves two of OAC',
    who: 'sup-oac',
    body: { ids: ['4', '3'] },
    status: 200,
    approved: ['4', '3'],
  },
  {
    name: 'the integration approves all pending',
    who: 'clave',
    body: { ids: ['2', '3', '4'] },
    status: 200,
    approved: ['2', '3', '4'],
  },
]

for (const row of rows) {
  test(`bulk approval: ${row.name} → ${row.status}`, () =>
    withService({}, async (service) => {
      await seed(service)
      const before = approvals(service)
      const { status, body } = await requestAs(service, row.who, 'POST', 'devoluciones/aprobar', row.body)
      assert.equal(status, row.status, JSON.stringify(body))
      if (row.message !== undefined)
        assert.deepEqual(body, {
          success: false,
          message: row.message,
          ...(row.devolucion ? { devolucion: row.devolucion } : {}),
        })
      if (row.approved === undefined) {
        assert.deepEqual(states(service), UNCHANGED, 'nothing written')
        assert.deepEqual(approvals(service), before)
        return
      }
      assert.deepEqual(
        (body as Answer).aprobadas.map(
          (entry: { id: string; estado: string; fechaProcesado: string; horaProcesado: string }) => [
            entry.id,
            entry.estado,
            entry.fechaProcesado,
            entry.horaProcesado,
          ],
        ),
        row.approved.map((id) => [id, 'approved', '2026-11-23', '09:00:00']),
      )
      assert.deepEqual(states(service), {
        ...UNCHANGED,
        ...Object.fromEntries(row.approved.map((id) => [id, 'approved'])),
      })
      const actor = row.who === 'clave' ? 'Ana Lucía Fiallos' : 'Nombre de sup-oac'
      assert.deepEqual(approvals(service), [...before, ...row.approved.map((subject) => ({ subject, actor }))])
    }))
}

test("bulk approval: the client's listing of today shows them at once (its cached page is forgotten)", () =>
  withService({}, async (service) => {
    await seed(service)
    const listing = async () => {
      const response = await service.fetch('/api/v1/devoluciones/listar', {
        headers: { ApiKey: API_KEY, Fecha: '23/11/2026' },
      })
      return ((await response.json()) as Array<{ devolucion: string }>).map((entry) => entry.devolucion)
    }
    assert.deepEqual(await listing(), [])
    assert.equal((await operator(service, 'POST', 'devoluciones/aprobar', { ids: ['3', '4'] })).status, 200)
    assert.deepEqual(await listing(), ['3', '4'])
  }))
