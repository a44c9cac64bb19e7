import assert from 'node:assert/strict'
import { test } from 'node:test'
import { all } from '../../src/db/database.ts'
import { OPERATOR, operator, registerReturn, seedReturns } from '../support/operator.ts'
import { withService, type TestService } from '../support/service.ts'

interface Scenario {
  name: string
  /** States to bring return 1 to before the request. */
  prepare: Array<'approve' | 'reject' | 'cancel'>
  path: string
  body?: unknown
  status: number
  message?: string
  estado?: string
}

const MOTIVO = { motivo: 'Cliente se equivocó' }
const steps = { approve: ['devoluciones/1/aprobar', undefined], reject: ['devoluciones/1/rechazar', MOTIVO], cancel: ['devoluciones/1/anular', MOTIVO] } as const

const scenarios: Scenario[] = [
  { name: 'approve an unknown return → 404', prepare: [], path: 'devoluciones/99/aprobar', status: 404, message: 'No existe la devolución 99.' },
  { name: 'a non-numeric id → 404', prepare: [], path: 'devoluciones/abc/aprobar', status: 404, message: 'No existe la devolución abc.' },
  { name: 'approve an approved return → 422', prepare: ['approve'], path: 'devoluciones/1/aprobar', status: 422, message: 'La devolución 1 está aprobada; solo una devolución pendiente puede quedar aprobada.' },
  { name: 'reject an approved return → 422', prepare: ['approve'], path: 'devoluciones/1/rechazar', body: MOTIVO, status: 422, message: 'La devolución 1 está aprobada; solo una devolución pendiente puede quedar rechazada.' },
  { name: 'cancel a pending return → 422', prepare: [], path: 'devoluciones/1/anular', body: MOTIVO, status: 422, message: 'La devolución 1 está pendiente; solo una devolución aprobada puede quedar anulada.' },
  { name: 'cancel a cancelled return → 422', prepare: ['approve', 'cancel'], path: 'devoluciones/1/anular', body: MOTIVO, status: 422, message: 'La devolución 1 está anulada; solo una devolución aprobada puede quedar anulada.' },
  { name: 'approve a rejected return → 422', prepare: ['reject'], path: 'devoluciones/1/aprobar', status: 422, message: 'La devolución 1 está rechazada; solo una devolución pendiente puede quedar aprobada.' },
  { name: 'reject without motivo → 422', prepare: [], path: 'devoluciones/1/rechazar', body: {}, status: 422, message: 'Cuerpo inválido: motivo: es obligatorio.' },
  { name: 'cancel with an empty motivo → 422', prepare: ['approve'], path: 'devoluciones/1/anular', body: { motivo: '' }, status: 422, message: 'Cuerpo inválido: motivo: no puede estar vacío.' },
  { name: 'approve a pending return → 200', prepare: [], path: 'devoluciones/1/aprobar', status: 200, estado: 'approved' },
  { name: 'reject a pending return → 200', prepare: [], path: 'devoluciones/1/rechazar', body: MOTIVO, status: 200, estado: 'rejected' },
  { name: 'cancel an approved return → 200', prepare: ['approve'], path: 'devoluciones/1/anular', body: MOTIVO, status: 200, estado: 'cancelled' },
]

async function prepared(service: TestService, prepare: Scenario['prepare']): Promise<void> {
  await seedReturns(service)
  assert.equal((await registerReturn(service, [{ numeroLinea: 1, unidades: 12 }])).status, 201)
  for (const step of prepare) {
    const [path, body] = steps[step]
    assert.equal((await operator(service, 'POST', path, body)).status, 200)
  }
}

for (const scenario of scenarios) {
  test(`return transitions: ${scenario.name}`, () =>
    withService({}, async (service) => {
      await prepared(service, scenario.prepare)
      const auditBefore = all(service.db, service.db.query.selectFrom('audit_log').select('id')).length
      const { status, body } = await operator(service, 'POST', scenario.path, scenario.body)
      assert.equal(status, scenario.status, JSON.stringify(body))
      if (scenario.message) assert.deepEqual(body as unknown, { success: false, message: scenario.message })
      if (scenario.estado) assert.equal(body.estado, scenario.estado)
      const audited = all(service.db, service.db.query.selectFrom('audit_log').select('id')).length - auditBefore
      assert.equal(audited, status === 200 ? 1 : 0, 'one audit row per change, none for a refusal')
    }))
}

test('return transitions: approval records who and when (Honduras); rejection and cancellation record who, when and why', () =>
  withService({}, async (service) => {
    await prepared(service, [])
    service.clock.set('2026-11-23T04:05:06.000Z')
    const approved = (await operator(service, 'POST', 'devoluciones/1/aprobar')).body
    assert.deepEqual([approved.fechaProcesado, approved.horaProcesado, approved.aprobadaPor], ['2026-11-22', '22:05:06', OPERATOR])
    const cancelled = (await operator(service, 'POST', 'devoluciones/1/anular', MOTIVO)).body
    assert.deepEqual([cancelled.estado, cancelled.cerradaPor, cancelled.motivo, cancelled.fechaProcesado], ['cancelled', OPERATOR, 'Cliente se equivocó', '2026-11-22'])
    const audit = all(service.db, service.db.query.selectFrom('audit_log').selectAll().where('action', '=', 'devolucion.anulada'))
    assert.equal(JSON.parse(audit[0]!.before!).estado, 'approved')
    assert.equal(JSON.parse(audit[0]!.after!).estado, 'cancelled')
  }))

test('return transitions: rejected and cancelled returns free their units', () =>
  withService({}, async (service) => {
    await prepared(service, ['reject'])
    assert.equal((await registerReturn(service, [{ numeroLinea: 1, unidades: 12 }], { aprobar: true })).status, 201)
    assert.equal((await registerReturn(service, [{ numeroLinea: 1, unidades: 1 }])).status, 422, 'all 12 units are held again')
    assert.equal((await operator(service, 'POST', 'devoluciones/2/anular', MOTIVO)).status, 200)
    assert.equal((await registerReturn(service, [{ numeroLinea: 1, unidades: 12 }])).status, 201)
  }))

test('returns list: by registration date and state', () =>
  withService({}, async (service) => {
    await seedReturns(service)
    await registerReturn(service, [{ numeroLinea: 1, unidades: 1 }])
    await registerReturn(service, [{ numeroLinea: 1, unidades: 1 }], { aprobar: true })
    service.clock.advance(24 * 60 * 60 * 1000)
    await registerReturn(service, [{ numeroLinea: 1, unidades: 1 }])
    const ids = async (query: string) => ((await operator(service, 'GET', `devoluciones${query}`)).body as Array<{ id: string }>).map((r) => r.id)
    assert.deepEqual(await ids(''), ['1', '2', '3'])
    assert.deepEqual(await ids('?fecha=2026-11-22'), ['1', '2'])
    assert.deepEqual(await ids('?fecha=2026-11-23&estado=pending'), ['3'])
    assert.deepEqual(await ids('?estado=approved'), ['2'])
    const bad = await operator(service, 'GET', 'devoluciones?fecha=22/11/2026')
    assert.deepEqual(bad, { status: 422, body: { success: false, message: 'El parámetro fecha debe ser una fecha real en formato YYYY-MM-DD (se recibió "22/11/2026").' } })
  }))
