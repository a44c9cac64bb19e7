import assert from 'node:assert/strict'
import { test } from 'node:test'
import { all } from '../../src/db/database.ts'
import { databaseState, exampleBatch, postBatch } from '../support/batches.ts'
import { FACTURA, OPERATOR, operator, registerReturn, seedReturns } from '../support/operator.ts'
import { containing, holds, nothingWritten, refusal, testScenarios, unchanged } from '../support/scenarios.ts'
import { withService, type ConfigOverrides, type TestService } from '../support/service.ts'

/**
 * The returns window (issue 16, contract §11) on the injected clock. 2026-09-29 is a Tuesday,
 * 2026-10-03 a Saturday, 2026-11-22 (the default clock's day) a Sunday.
 */
const SEVEN = { returns: { windowBusinessDays: 7 } }
const deadlineOf = (service: TestService, numero = '905112') =>
  service.db.sqlite.prepare('SELECT returns_deadline FROM manifests WHERE numero = ?').pluck().get(numero) as
    string | null

const creations: Array<{
  name: string
  config?: ConfigOverrides
  now: string
  fecha: string
  plazo: string | null
  dias: number | null
}> = [
  {
    name: 'window off (the default): no deadline',
    now: '2026-09-29T16:00:00Z',
    fecha: '2026-09-29',
    plazo: null,
    dias: null,
  },
  {
    name: 'Tuesday 29 September, 7 business days → Tuesday 6 October 23:59:59',
    config: SEVEN,
    now: '2026-09-29T16:00:00Z',
    fecha: '2026-09-29',
    plazo: '2026-10-06 23:59:59',
    dias: 7,
  },
  {
    name: 'the same with Saturday 3 October a holiday → Wednesday 7 October',
    config: { returns: { windowBusinessDays: 7, holidays: ['2026-10-03'] } },
    now: '2026-09-29T16:00:00Z',
    fecha: '2026-09-29',
    plazo: '2026-10-07 23:59:59',
    dias: 7,
  },
  {
    name: 'a Sunday arrival: day 1 is Monday, the next Monday is day 7',
    config: SEVEN,
    now: '2026-11-22T16:00:00Z',
    fecha: '2026-11-22',
    plazo: '2026-11-30 23:59:59',
    dias: 7,
  },
  {
    name: 'a Friday 23:30 arrival in Honduras (Saturday in UTC) counts Friday as day 1',
    config: SEVEN,
    now: '2026-11-28T05:30:00Z',
    fecha: '2026-11-27',
    plazo: '2026-12-04 23:59:59',
    dias: 7,
  },
]

for (const row of creations) {
  test(`returns window: a manifest's deadline is set when it is created — ${row.name}`, () =>
    withService({ now: row.now, config: row.config ?? {} }, async (service) => {
      assert.equal((await postBatch(service, exampleBatch(row.fecha))).status, 200)
      assert.equal(deadlineOf(service), row.plazo?.slice(0, 10) ?? null)
      const listed = (await operator(service, 'GET', 'manifiestos')).body as Array<Record<string, unknown>>
      const detail = (await operator(service, 'GET', 'manifiestos/905112')).body
      for (const view of [listed[0]!, detail])
        assert.deepEqual([view.plazo_devoluciones, view.dias_habiles_restantes], [row.plazo, row.dias])
      const invoice = (await operator(service, 'GET', `facturas/${FACTURA}`)).body
      assert.deepEqual([invoice.plazo_devoluciones, invoice.admite_devoluciones], [row.plazo, true])
    }))
}

const daysLeft: Array<{ now: string; dias: number; admite: boolean }> = [
  { now: '2026-09-30T16:00:00Z', dias: 6, admite: true },
  { now: '2026-10-04T16:00:00Z', dias: 2, admite: true }, // a Sunday: Monday and Tuesday are left
  { now: '2026-10-07T05:59:59Z', dias: 1, admite: true }, // the last second of Tuesday 6 October
  { now: '2026-10-07T06:00:00Z', dias: 0, admite: false }, // Wednesday 00:00
  { now: '2026-11-30T16:00:00Z', dias: 0, admite: false },
]

for (const row of daysLeft) {
  test(`returns window: business days left at ${row.now} → ${row.dias}`, () =>
    withService({ now: '2026-09-29T16:00:00Z', config: SEVEN }, async (service) => {
      await postBatch(service, exampleBatch('2026-09-29'))
      service.clock.set(row.now)
      assert.equal((await operator(service, 'GET', 'manifiestos/905112')).body.dias_habiles_restantes, row.dias)
      assert.equal((await operator(service, 'GET', `facturas/${FACTURA}`)).body.admite_devoluciones, row.admite)
    }))
}

const CLOSED_MESSAGE =
  'El plazo de devoluciones del manifiesto 905112 venció el 30/11/2026 a las 23:59:59: no admite devoluciones nuevas. Un supervisor puede ampliarlo.'

/** The example returns' batch and reasons; then `change`, and the clock set to `now`. */
const seededAt =
  (now: string, change?: (service: TestService) => void) =>
  async (service: TestService): Promise<void> => {
    await seedReturns(service)
    change?.(service)
    service.clock.set(now)
  }
const registration = {
  method: 'POST',
  path: 'devoluciones',
  body: {
    factura: FACTURA,
    concepto: 'DANADO',
    fecha: '2026-11-22T09:30:00',
    lineas: [{ numeroLinea: 1, unidades: 1 }],
  },
}
const returnsCount = (service: TestService) => ({
  ...databaseState(service.db),
  returns: service.db.sqlite.prepare('SELECT count(*) FROM returns').pluck().get(),
})
const closed = {
  status: 422,
  body: refusal(CLOSED_MESSAGE),
  database: [unchanged('the counts', returnsCount), nothingWritten()],
}
const registered = { status: 201, body: containing({ id: '1', factura: FACTURA, estado: 'pending' }) }

testScenarios(
  'returns window: registering a return —',
  [
    {
      name: 'midnight after the last day → 422 naming the deadline, nothing written',
      service: { config: SEVEN },
      setup: seededAt('2026-12-01T06:00:00Z'),
      request: registration,
      ...closed,
    },
    {
      name: 'a week later → 422',
      service: { config: SEVEN },
      setup: seededAt('2026-12-08T16:00:00Z'),
      request: registration,
      ...closed,
    },
    {
      name: 'the last second of the last day (Monday 30 November 23:59:59) → 201',
      service: { config: SEVEN },
      setup: seededAt('2026-12-01T05:59:59Z'),
      request: registration,
      ...registered,
    },
    {
      name: 'the window off: a month later → 201',
      setup: seededAt('2026-12-22T16:00:00Z'),
      request: registration,
      ...registered,
    },
    {
      name: 'a manifest from before the switch (no deadline) with the window on: a month later → 201',
      service: { config: SEVEN },
      setup: seededAt('2026-12-22T16:00:00Z', (service) =>
        service.db.sqlite.exec('UPDATE manifests SET returns_deadline = NULL'),
      ),
      request: registration,
      ...registered,
    },
  ],
  { as: 'operator' },
)

test('returns window: after the deadline, returns registered before it are still approved, rejected and cancelled', () =>
  withService({ config: SEVEN }, async (service) => {
    await seedReturns(service)
    assert.equal((await registerReturn(service, [{ numeroLinea: 1, unidades: 1 }])).status, 201)
    assert.equal((await registerReturn(service, [{ numeroLinea: 1, unidades: 1 }])).status, 201)
    assert.equal((await registerReturn(service, [{ numeroLinea: 1, unidades: 1 }], { aprobar: true })).status, 201)
    service.clock.set('2026-12-03T16:00:00Z')
    const approved = await operator(service, 'POST', 'devoluciones/1/aprobar')
    const rejected = await operator(service, 'POST', 'devoluciones/2/rechazar', { motivo: 'No corresponde' })
    const cancelled = await operator(service, 'POST', 'devoluciones/3/anular', { motivo: 'Registrada por error' })
    assert.deepEqual(
      [approved, rejected, cancelled].map((answer) => [answer.status, answer.body.estado]),
      [
        [200, 'approved'],
        [200, 'rejected'],
        [200, 'cancelled'],
      ],
    )
    assert.equal(approved.body.fechaProcesado, '2026-12-03')
  }))

const PLAZO = 'manifiestos/905112/plazo'

const at = (now: string) => (service: TestService) => service.clock.set(now)
const extend = (hasta: string | undefined, motivo: string | undefined, path = PLAZO) => ({
  method: 'POST',
  path,
  body: { hasta, motivo },
})
const deadlineState = (service: TestService) => ({ ...databaseState(service.db), deadline: deadlineOf(service) })
const refusedExtension = (status: number, message: string) => ({
  status,
  body: refusal(message),
  database: [unchanged('the deadline and counts', deadlineState), nothingWritten()],
})

/** Extended from Monday 30 November to `hasta`: answered, shown, stored and audited with the motivo. */
function extended(hasta: string, motivo: string) {
  const shown = `${hasta} 23:59:59`
  return {
    status: 200,
    body: containing({ plazo_devoluciones: shown }),
    database: [
      holds('the stored deadline', (service) => deadlineOf(service), hasta),
      holds(
        'the manifest shown',
        async (service) => (await operator(service, 'GET', 'manifiestos/905112')).body.plazo_devoluciones,
        shown,
      ),
      holds(
        'the audit',
        (service) =>
          all(
            service.db,
            service.db.query.selectFrom('audit_log').selectAll().where('action', '=', 'manifiesto.plazo_ampliado'),
          ).map((entry) => [
            entry.actor,
            entry.subject_type,
            entry.subject_id,
            JSON.parse(entry.detail!),
            JSON.parse(entry.before!).plazo_devoluciones,
            JSON.parse(entry.after!).plazo_devoluciones,
          ]),
        [
          [
            OPERATOR,
            'manifiesto',
            '905112',
            { motivo, plazo_anterior: '2026-11-30', plazo_nuevo: hasta },
            '2026-11-30 23:59:59',
            shown,
          ],
        ],
      ),
    ],
  }
}

testScenarios(
  'returns window: extending the deadline —',
  [
    {
      name: 'without motivo → 422',
      request: extend('2026-12-05', undefined),
      ...refusedExtension(422, 'Cuerpo inválido: motivo: es obligatorio.'),
    },
    {
      name: 'an impossible date → 422',
      request: extend('2026-11-31', 'Ruta larga'),
      ...refusedExtension(422, 'Cuerpo inválido: hasta: debe ser una fecha real en formato YYYY-MM-DD.'),
    },
    {
      name: 'an unknown manifest → 404',
      request: extend('2026-12-05', 'x', 'manifiestos/999/plazo'),
      ...refusedExtension(404, 'El manifiesto 999 no existe.'),
    },
    {
      name: 'a manifest without deadline (window off) → 422',
      service: { config: {} },
      request: extend('2026-12-05', 'Ruta larga'),
      ...refusedExtension(
        422,
        'El manifiesto 905112 no tiene plazo de devoluciones (las admite sin límite de días): no hay plazo que ampliar.',
      ),
    },
    {
      name: 'the current last day again → 422',
      request: extend('2026-11-30', 'Ruta larga'),
      ...refusedExtension(
        422,
        'hasta: 2026-11-30 no es posterior al plazo actual (2026-11-30); para ampliarlo indique un día después.',
      ),
    },
    {
      name: 'an earlier day → 422',
      request: extend('2026-11-25', 'Ruta larga'),
      ...refusedExtension(
        422,
        'hasta: 2026-11-25 no es posterior al plazo actual (2026-11-30); para ampliarlo indique un día después.',
      ),
    },
    {
      name: 'a day that already passed → 422',
      setup: at('2026-12-10T16:00:00Z'),
      request: extend('2026-12-09', 'Ruta larga'),
      ...refusedExtension(422, 'hasta: 2026-12-09 ya pasó; el plazo nuevo debe terminar hoy (2026-12-10) o después.'),
    },
    {
      name: 'a Sunday → 422',
      request: extend('2026-12-06', 'Ruta larga'),
      ...refusedExtension(
        422,
        'hasta: 2026-12-06 no es día hábil (es domingo); el plazo termina en un día hábil, de lunes a sábado.',
      ),
    },
    {
      name: 'a holiday → 422',
      service: { config: { returns: { windowBusinessDays: 7, holidays: ['2026-12-08'] } } },
      request: extend('2026-12-08', 'Ruta larga'),
      ...refusedExtension(
        422,
        'hasta: 2026-12-08 no es día hábil (es feriado); el plazo termina en un día hábil, de lunes a sábado.',
      ),
    },
    {
      name: 'more than 90 days from today → 422',
      request: extend('2027-02-22', 'Ruta larga'),
      ...refusedExtension(422, 'hasta: 2027-02-22 está a más de 90 días de hoy (2026-11-22); revise la fecha.'),
    },
    {
      name: 'one day later → 200',
      request: extend('2026-12-01', 'Ruta larga'),
      ...extended('2026-12-01', 'Ruta larga'),
    },
    {
      name: 'exactly 90 days from today → 200',
      request: extend('2027-02-20', 'Ruta larga'),
      ...extended('2027-02-20', 'Ruta larga'),
    },
    {
      name: 'after the window closed, reopening it from today → 200',
      setup: at('2026-12-10T16:00:00Z'),
      request: extend('2026-12-10', 'Reclamo tardío autorizado'),
      ...extended('2026-12-10', 'Reclamo tardío autorizado'),
    },
    {
      name: 'a closed manifest may be extended too → 200',
      setup: (service) => service.db.sqlite.exec("UPDATE manifests SET estado = 'closed'"),
      request: extend('2026-12-02', 'Se reabrirá'),
      ...extended('2026-12-02', 'Se reabrirá'),
    },
  ],
  { service: { config: SEVEN }, setup: (service) => postBatch(service, exampleBatch()), as: 'operator' },
)

test('returns window: an extended window takes returns again after the old deadline, until its new one', () =>
  withService({ config: SEVEN }, async (service) => {
    await seedReturns(service)
    service.clock.set('2026-12-02T16:00:00Z')
    assert.equal((await registerReturn(service, [{ numeroLinea: 1, unidades: 1 }])).status, 422)
    const extended = await operator(service, 'POST', PLAZO, { hasta: '2026-12-03', motivo: 'La ruta volvió tarde' })
    assert.deepEqual(
      [extended.status, extended.body.plazo_devoluciones, extended.body.dias_habiles_restantes],
      [200, '2026-12-03 23:59:59', 2],
    )
    assert.equal((await registerReturn(service, [{ numeroLinea: 1, unidades: 1 }])).status, 201)
    service.clock.set('2026-12-04T06:00:00Z')
    const late = await registerReturn(service, [{ numeroLinea: 1, unidades: 1 }])
    assert.deepEqual(late.body, {
      success: false,
      message:
        'El plazo de devoluciones del manifiesto 905112 venció el 03/12/2026 a las 23:59:59: no admite devoluciones nuevas. Un supervisor puede ampliarlo.',
    })
  }))
