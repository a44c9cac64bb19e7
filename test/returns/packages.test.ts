import assert from 'node:assert/strict'
import { test } from 'node:test'
import { EXAMPLE_BATCH, invoice, postBatch } from '../support/batches.ts'
import { FACTURA, operator, registerReturn, seedReturns } from '../support/operator.ts'
import { nothingWritten, refusal, testScenarios, unchanged } from '../support/scenarios.ts'
import { withService, type TestService } from '../support/service.ts'

/**
 * Contract v2's listing (issue 19): by the invoice's issue date, and a manifest's approved returns
 * only as its complete package, from the first instant after its window closed; then frozen.
 * The example manifest 905112 arrives on Sunday 22 November 2026 (10:00 in Honduras); its 7
 * business days end on Monday the 30th at 23:59:59, so it is published on Tuesday 1 December.
 */
const V2 = { clientContract: 'v2' as const, rateLimits: { returnsPerMinute: 1000, operatorPerMinute: 1000 } }
const LAST_SECOND = '2026-12-01T05:59:59Z' // 30/11/2026 23:59:59 in Honduras
const PUBLISHED = '2026-12-01T06:00:00Z' // 01/12/2026 00:00:00

const list = async (service: TestService, headers: Record<string, string>) => {
  const response = await service.client('/api/v1/devoluciones/listar', { headers })
  assert.equal(response.status, 200)
  return (JSON.parse(await response.text()) as Array<{ devolucion: string; factura: string }>).map(
    (entry) => `${entry.devolucion}:${entry.factura}`,
  )
}

/** Returns 1 and 2 approved, 3 pending, all of the example invoice of manifest 905112. */
async function threeReturns(service: TestService): Promise<void> {
  await seedReturns(service)
  for (const [line, approve] of [
    [1, true],
    [2, true],
    [1, false],
  ] as const) {
    const registered = await registerReturn(service, [{ numeroLinea: line, unidades: 1 }], { aprobar: approve })
    assert.equal(registered.status, 201, JSON.stringify(registered.body))
  }
}

test("listing v2: by the invoice's issue date — invoices issued on two days, approved on a third", () =>
  withService({ config: V2 }, async (service) => {
    await seedReturns(service) // the example invoices, issued on the 22nd
    assert.equal((await postBatch(service, [invoice('F-21', '905112', {}, '2026-11-21')])).status, 200) // same manifest, issued on the 21st
    service.clock.set('2026-11-23T16:00:00Z') // approved on Monday the 23rd
    assert.equal((await registerReturn(service, [{ numeroLinea: 1, unidades: 1 }], { aprobar: true })).status, 201)
    assert.equal(
      (
        await operator(service, 'POST', 'devoluciones', {
          factura: 'F-21',
          concepto: 'DANADO',
          fecha: '2026-11-23',
          lineas: [{ numeroLinea: 1, unidades: 1 }],
          aprobar: true,
        })
      ).status,
      201,
    )
    service.clock.set(PUBLISHED)
    assert.deepEqual(await list(service, { Fecha: '21/11/2026' }), ['2:F-21'])
    assert.deepEqual(await list(service, { Fecha: '22/11/2026' }), [`1:${FACTURA}`])
    assert.deepEqual(
      await list(service, { Fecha: '21/11/2026', FechaHasta: '22/11/2026' }),
      ['2:F-21', `1:${FACTURA}`].sort(),
    )
    assert.deepEqual(await list(service, { Fecha: '23/11/2026' }), [], 'the day they were approved selects nothing')
  }))

test('listing v2: a package is absent until its window closes and complete at the first instant after — a range cached seconds before included', () =>
  withService({ config: V2 }, async (service) => {
    await threeReturns(service)
    const range = { Fecha: '15/11/2026', FechaHasta: '30/11/2026' }
    assert.deepEqual(
      await list(service, { Fecha: '22/11/2026' }),
      [],
      'approved today, but the window is open: no partial package',
    )
    service.clock.set('2026-11-28T16:00:00Z')
    assert.deepEqual(await list(service, range), [])
    service.clock.set('2026-12-01T05:59:57Z')
    assert.deepEqual(await list(service, range), [], 'cached 3 seconds before the close')
    assert.deepEqual(await list(service, { Fecha: '22/11/2026' }), [])
    service.clock.set(LAST_SECOND)
    assert.deepEqual(await list(service, range), [])
    service.clock.set(PUBLISHED)
    const whole = [`1:${FACTURA}`, `2:${FACTURA}`]
    assert.deepEqual(
      await list(service, range),
      whole,
      'the whole package at once; the pending return is never published',
    )
    assert.deepEqual(await list(service, { Fecha: '22/11/2026' }), whole)
  }))

test('listing v2: a return approved after a range was cached (the package was not waiting yet) is in it at the close', () =>
  withService({ config: V2 }, async (service) => {
    await seedReturns(service)
    const range = { Fecha: '15/11/2026', FechaHasta: '30/11/2026' }
    service.clock.set('2026-11-30T16:00:00Z')
    assert.deepEqual(await list(service, range), [], 'cached with no package waiting: kept for the usual time')
    assert.equal(
      (await registerReturn(service, [{ numeroLinea: 1, unidades: 1 }], { aprobar: true, fecha: '2026-11-30' })).status,
      201,
    )
    assert.deepEqual(await list(service, range), [], 'still inside the window')
    service.clock.set(PUBLISHED)
    assert.deepEqual(await list(service, range), [`1:${FACTURA}`])
  }))

test('listing v2: a manifest without a deadline (created before the window) is listed at once, and keeps changing', () =>
  withService({ config: V2 }, async (service) => {
    await seedReturns(service)
    service.db.sqlite.exec('UPDATE manifests SET returns_deadline = NULL')
    assert.equal((await registerReturn(service, [{ numeroLinea: 1, unidades: 1 }], { aprobar: true })).status, 201)
    assert.deepEqual(await list(service, { Fecha: '22/11/2026' }), [`1:${FACTURA}`])
    assert.equal((await operator(service, 'POST', 'devoluciones/1/anular', { motivo: 'error' })).status, 200)
    assert.deepEqual(await list(service, { Fecha: '22/11/2026' }), [])
    const view = await operator(service, 'GET', 'manifiestos/905112')
    assert.deepEqual(view.body.paquete_proveedor, {
      publicado: true,
      publicado_en: null,
      nota: 'Sin plazo de devoluciones: cada devolución aprobada se publica al proveedor en seguida.',
    })
  }))

const FROZEN = (action: string) =>
  `No se puede ${action}: el plazo de devoluciones del manifiesto 905112 cerró el 30/11/2026 a las 23:59:59 y su paquete de devoluciones ya se publicó al proveedor, ` +
  'que ya lo tiene. Un cambio ahora no le llegaría; trátelo con el proveedor directamente.'

/** Everything a frozen operation could have written. */
const writable = (service: TestService) => ({
  returns: service.db.sqlite.prepare('SELECT id, estado, processed_date FROM returns ORDER BY id').all(),
  lines: service.db.sqlite.prepare('SELECT count(*) FROM return_lines').pluck().get(),
  audit: service.db.sqlite.prepare('SELECT count(*) FROM audit_log').pluck().get(),
  deadline: service.db.sqlite.prepare("SELECT returns_deadline FROM manifests WHERE numero = '905112'").pluck().get(),
})
/** Refused for the published package, nothing written. */
const frozen = (action: string) => ({
  status: 422,
  body: refusal(FROZEN(action)),
  database: [unchanged('what it could write', writable), nothingWritten()],
})

testScenarios(
  'frozen package (v2)',
  [
    {
      name: 'registering a return after the close → 422 naming the close, nothing written',
      request: {
        method: 'POST',
        path: 'devoluciones',
        body: { factura: FACTURA, concepto: 'DANADO', fecha: '2026-11-30', lineas: [{ numeroLinea: 3, unidades: 1 }] },
      },
      ...frozen('registrar la devolución'),
    },
    {
      name: 'approving a pending return after the close → 422 naming the close, nothing written',
      request: { method: 'POST', path: 'devoluciones/3/aprobar' },
      ...frozen('aprobar la devolución 3'),
    },
    {
      name: 'approving it in a bulk selection after the close → 422 naming the close, nothing written',
      request: { method: 'POST', path: 'devoluciones/aprobar', body: { ids: ['3'] } },
      status: 422,
      body: {
        ...refusal(
          `${FROZEN('aprobar la devolución 3')} Ninguna de las 1 devoluciones se aprobó; quite esa de la selección y vuelva a intentarlo.`,
        ),
        devolucion: '3',
      },
      database: [unchanged('what it could write', writable), nothingWritten()],
    },
    {
      name: 'rejecting a pending return after the close → 422 naming the close, nothing written',
      request: { method: 'POST', path: 'devoluciones/3/rechazar', body: { motivo: 'tarde' } },
      ...frozen('rechazar la devolución 3'),
    },
    {
      name: 'cancelling an approved return after the close → 422 naming the close, nothing written',
      request: { method: 'POST', path: 'devoluciones/1/anular', body: { motivo: 'error' } },
      ...frozen('anular la devolución 1'),
    },
    {
      name: 'extending the deadline after the close → 422 naming the close, nothing written',
      request: {
        method: 'POST',
        path: 'manifiestos/905112/plazo',
        body: { hasta: '2026-12-05', motivo: 'pidió más días' },
      },
      ...frozen('ampliar el plazo'),
    },
  ],
  {
    service: { config: V2 },
    setup: async (service) => {
      await threeReturns(service)
      service.clock.set(PUBLISHED)
    },
    as: 'operator',
  },
)

test('frozen package (v2): each operation still works at the last second of the window', () =>
  withService({ config: V2 }, async (service) => {
    await threeReturns(service)
    service.clock.set(LAST_SECOND)
    assert.equal((await operator(service, 'POST', 'devoluciones/3/rechazar', { motivo: 'no procede' })).status, 200)
    assert.equal((await operator(service, 'POST', 'devoluciones/1/anular', { motivo: 'error' })).status, 200)
    assert.equal(
      (await operator(service, 'POST', 'manifiestos/905112/plazo', { hasta: '2026-12-01', motivo: 'pidió un día más' }))
        .status,
      200,
    )
  }))

test('operator views (v2): a manifest says when its package is published, a frozen return why it offers no action', () =>
  withService({ config: V2 }, async (service) => {
    await threeReturns(service)
    const before = await operator(service, 'GET', 'manifiestos/905112')
    assert.deepEqual(before.body.paquete_proveedor, {
      publicado: false,
      publicado_en: '2026-12-01 00:00:00',
      nota: 'Se publicará al proveedor el 01/12/2026, al cerrar el plazo: hasta entonces el proveedor no ve sus devoluciones.',
    })
    assert.equal((await operator(service, 'GET', 'devoluciones/1')).body.sin_acciones, undefined)
    service.clock.set(PUBLISHED)
    const listed = await operator(service, 'GET', 'manifiestos')
    assert.deepEqual(listed.body[0].paquete_proveedor, {
      publicado: true,
      publicado_en: '2026-12-01 00:00:00',
      nota: 'Publicado al proveedor el 01/12/2026: sus devoluciones ya no cambian.',
    })
    const frozen = await operator(service, 'GET', 'devoluciones/3')
    assert.equal(
      frozen.body.sin_acciones,
      'El plazo de devoluciones del manifiesto 905112 cerró el 30/11/2026 a las 23:59:59 y su paquete de devoluciones se publicó al proveedor: el proveedor ' +
        'ya lo tiene, así que sus devoluciones no se registran, aprueban, rechazan ni anulan más, y su plazo no se amplía.',
    )
    const invoiceView = await operator(service, 'GET', `facturas/${FACTURA}`)
    assert.deepEqual(
      invoiceView.body.devoluciones.map(
        (entry: { sin_acciones?: string }) => entry.sin_acciones === frozen.body.sin_acciones,
      ),
      [true, true, true],
    )
  }))

test('operator views (v1): no package fields at all', () =>
  withService({}, async (service) => {
    await threeReturns(service)
    service.clock.set(PUBLISHED)
    assert.equal('paquete_proveedor' in (await operator(service, 'GET', 'manifiestos/905112')).body, false)
    assert.equal('sin_acciones' in (await operator(service, 'GET', 'devoluciones/1')).body, false)
  }))

test("a return follows its invoice's issue date when the invoice is updated (the date v2 files it under)", () =>
  withService(
    { config: { intake: { autoUpdateFields: ['FechaFactura'] }, rateLimits: { insertPerMinute: 100 } } },
    async (service) => {
      await seedReturns(service)
      assert.equal((await registerReturn(service, [{ numeroLinea: 1, unidades: 1 }])).status, 201)
      const moved = await postBatch(service, [
        invoice(FACTURA, '905112', {
          ...structuredClone(EXAMPLE_BATCH.find((entry) => entry.Nfactura === FACTURA)!),
          FechaFactura: '2026-11-21T00:00:00.000Z',
        }),
      ])
      assert.equal(moved.body.resumen.actualizadas, 1, JSON.stringify(moved.body))
      assert.deepEqual(service.db.sqlite.prepare('SELECT id, invoice_date FROM returns').all(), [
        { id: 1, invoice_date: '2026-11-21' },
      ])
    },
  ))
