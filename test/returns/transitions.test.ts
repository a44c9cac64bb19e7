import assert from 'node:assert/strict'
import { test } from 'node:test'
import { all } from '../../src/db/database.ts'
import { OPERATOR, operator, registerReturn, seedReturns } from '../support/operator.ts'
import { containing, grows, nothingWritten, refusal, testScenarios } from '../support/scenarios.ts'
import { withService, type TestService } from '../support/service.ts'

type Step = 'approve' | 'reject' | 'cancel'

const MOTIVO = { motivo: 'Cliente se equivocó' }
const steps = {
  approve: ['devoluciones/1/aprobar', undefined],
  reject: ['devoluciones/1/rechazar', MOTIVO],
  cancel: ['devoluciones/1/anular', MOTIVO],
} as const

/** The example batch and reasons, return 1 (12 units of line 1) registered, then brought through `prepare`. */
const prepared =
  (...prepare: Step[]) =>
  async (service: TestService): Promise<void> => {
    await seedReturns(service)
    assert.equal((await registerReturn(service, [{ numeroLinea: 1, unidades: 12 }])).status, 201)
    for (const step of prepare) {
      const [path, body] = steps[step]
      assert.equal((await operator(service, 'POST', path, body)).status, 200)
    }
  }

const post = (path: string, body?: unknown) => ({ method: 'POST', path, body })
/** One audit row per change. */
const audited = grows(
  'audit rows',
  (service) => all(service.db, service.db.query.selectFrom('audit_log').select('id')).length,
  1,
)

testScenarios(
  'return transitions',
  [
    {
      name: 'reject without motivo → 422',
      setup: prepared(),
      request: post('devoluciones/1/rechazar', {}),
      status: 422,
      body: refusal('Cuerpo inválido: motivo: es obligatorio.'),
      database: nothingWritten(),
    },
    {
      name: 'cancel with an empty motivo → 422',
      setup: prepared('approve'),
      request: post('devoluciones/1/anular', { motivo: '' }),
      status: 422,
      body: refusal('Cuerpo inválido: motivo: no puede estar vacío.'),
      database: nothingWritten(),
    },
    {
      name: 'approve an unknown return → 404',
      setup: prepared(),
      request: post('devoluciones/99/aprobar'),
      status: 404,
      body: refusal('No existe la devolución 99.'),
      database: nothingWritten(),
    },
    {
      name: 'a non-numeric id → 404',
      setup: prepared(),
      request: post('devoluciones/abc/aprobar'),
      status: 404,
      body: refusal('No existe la devolución abc.'),
      database: nothingWritten(),
    },
    {
      name: 'approve an approved return → 422',
      setup: prepared('approve'),
      request: post('devoluciones/1/aprobar'),
      status: 422,
      body: refusal('La devolución 1 está aprobada; solo una devolución pendiente puede quedar aprobada.'),
      database: nothingWritten(),
    },
    {
      name: 'reject an approved return → 422',
      setup: prepared('approve'),
      request: post('devoluciones/1/rechazar', MOTIVO),
      status: 422,
      body: refusal('La devolución 1 está aprobada; solo una devolución pendiente puede quedar rechazada.'),
      database: nothingWritten(),
    },
    {
      name: 'cancel a pending return → 422',
      setup: prepared(),
      request: post('devoluciones/1/anular', MOTIVO),
      status: 422,
      body: refusal('La devolución 1 está pendiente; solo una devolución aprobada puede quedar anulada.'),
      database: nothingWritten(),
    },
    {
      name: 'cancel a cancelled return → 422',
      setup: prepared('approve', 'cancel'),
      request: post('devoluciones/1/anular', MOTIVO),
      status: 422,
      body: refusal('La devolución 1 está anulada; solo una devolución aprobada puede quedar anulada.'),
      database: nothingWritten(),
    },
    {
      name: 'approve a rejected return → 422',
      setup: prepared('reject'),
      request: post('devoluciones/1/aprobar'),
      status: 422,
      body: refusal('La devolución 1 está rechazada; solo una devolución pendiente puede quedar aprobada.'),
      database: nothingWritten(),
    },
    {
      name: 'approve a pending return → 200',
      setup: prepared(),
      request: post('devoluciones/1/aprobar'),
      status: 200,
      body: containing({ id: '1', estado: 'approved' }),
      database: audited,
    },
    {
      name: 'reject a pending return → 200',
      setup: prepared(),
      request: post('devoluciones/1/rechazar', MOTIVO),
      status: 200,
      body: containing({ id: '1', estado: 'rejected', motivo: MOTIVO.motivo }),
      database: audited,
    },
    {
      name: 'cancel an approved return → 200',
      setup: prepared('approve'),
      request: post('devoluciones/1/anular', MOTIVO),
      status: 200,
      body: containing({ id: '1', estado: 'cancelled', motivo: MOTIVO.motivo }),
      database: audited,
    },
  ],
  { as: 'operator' },
)

test('return transitions: approval records who and when (Honduras); rejection and cancellation record who, when and why', () =>
  withService({}, async (service) => {
    await prepared()(service)
    service.clock.set('2026-11-23T04:05:06.000Z')
    const approved = (await operator(service, 'POST', 'devoluciones/1/aprobar')).body
    assert.deepEqual(
      [approved.fechaProcesado, approved.horaProcesado, approved.aprobadaPor],
      ['2026-11-22', '22:05:06', OPERATOR],
    )
    const cancelled = (await operator(service, 'POST', 'devoluciones/1/anular', MOTIVO)).body
    assert.deepEqual(
      [cancelled.estado, cancelled.cerradaPor, cancelled.motivo, cancelled.fechaProcesado],
      ['cancelled', OPERATOR, 'Cliente se equivocó', '2026-11-22'],
    )
    const audit = all(
      service.db,
      service.db.query.selectFrom('audit_log').selectAll().where('action', '=', 'devolucion.anulada'),
    )
    assert.equal(JSON.parse(audit[0]!.before!).estado, 'approved')
    assert.equal(JSON.parse(audit[0]!.after!).estado, 'cancelled')
  }))

test('return transitions: rejected and cancelled returns free their units', () =>
  withService({}, async (service) => {
    await prepared('reject')(service)
    assert.equal((await registerReturn(service, [{ numeroLinea: 1, unidades: 12 }], { aprobar: true })).status, 201)
    assert.equal(
      (await registerReturn(service, [{ numeroLinea: 1, unidades: 1 }])).status,
      422,
      'all 12 units are held again',
    )
    assert.equal((await operator(service, 'POST', 'devoluciones/2/anular', MOTIVO)).status, 200)
    assert.equal((await registerReturn(service, [{ numeroLinea: 1, unidades: 12 }])).status, 201)
  }))

/** Returns 1 (pending) and 2 (approved) registered the 22nd, 3 (pending) the 23rd. */
async function threeDays(service: TestService): Promise<void> {
  await seedReturns(service)
  await registerReturn(service, [{ numeroLinea: 1, unidades: 1 }])
  await registerReturn(service, [{ numeroLinea: 1, unidades: 1 }], { aprobar: true })
  service.clock.advance(24 * 60 * 60 * 1000)
  await registerReturn(service, [{ numeroLinea: 1, unidades: 1 }])
}

const ids = (...list: string[]) => list.map((id) => containing({ id }))

testScenarios(
  'returns list',
  [
    {
      name: 'a date in another format → 422',
      request: { path: 'devoluciones?fecha=22/11/2026' },
      status: 422,
      body: refusal('El parámetro fecha debe ser una fecha real en formato YYYY-MM-DD (se recibió "22/11/2026").'),
    },
    { name: 'every return', request: { path: 'devoluciones' }, status: 200, body: ids('1', '2', '3') },
    {
      name: 'by registration date',
      request: { path: 'devoluciones?fecha=2026-11-22' },
      status: 200,
      body: ids('1', '2'),
    },
    {
      name: 'by registration date and state',
      request: { path: 'devoluciones?fecha=2026-11-23&estado=pending' },
      status: 200,
      body: ids('3'),
    },
    { name: 'by state', request: { path: 'devoluciones?estado=approved' }, status: 200, body: ids('2') },
  ],
  { setup: threeDays, as: 'operator' },
)
