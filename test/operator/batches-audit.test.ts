import assert from 'node:assert/strict'
import { test } from 'node:test'
import { pruneRawPayloads } from '../../src/batches/batches.service.ts'
import { invoice, postBatch, type Answer } from '../support/batches.ts'
import { operator, OPERATOR } from '../support/operator.ts'
import { containing, refusal, testScenarios } from '../support/scenarios.ts'
import { OPERATOR_KEY, withService, type TestService } from '../support/service.ts'

test('operator batches: listed by date with state and summary; one by uuid; 404 unknown or not a uuid', () =>
  withService({ config: { rateLimits: { insertPerMinute: 100 } } }, async (service) => {
    const ok = await postBatch(service, [invoice('F-1')])
    const rejected = await postBatch(service, [invoice('F-2', '905113', { Almacen: 'ZZZ' })])
    const refused = await postBatch(service, [invoice('F-3', '905114', { FechaFactura: 'ayer' })])
    assert.equal(refused.body.batch_uuid, undefined, 'a step-4 refusal records no batch')
    const listed = (await operator(service, 'GET', 'lotes?fecha=2026-11-22')).body as Answer[]
    assert.deepEqual(
      listed.map((batch) => [batch.batch_uuid, batch.estado, batch.http_status, batch.resumen?.rechazadas]),
      [
        [ok.body.batch_uuid, 'processed', 200, 0],
        [rejected.body.batch_uuid, 'processed', 422, 1],
      ],
    )
    const one = (await operator(service, 'GET', `lotes/${ok.body.batch_uuid}`)).body
    assert.deepEqual(
      { ...one, clave: typeof one.clave, cuerpo: { ...one.cuerpo, bytes: typeof one.cuerpo.bytes } },
      {
        batch_uuid: ok.body.batch_uuid,
        recibido_en: '2026-11-22 10:00:00',
        estado: 'processed',
        facturas: 1,
        http_status: 200,
        resumen: ok.body.resumen,
        fallo: null,
        terminado_en: '2026-11-22 10:00:00',
        ip: '127.0.0.1',
        clave: 'string',
        manifiestos: ['905112'],
        facturas_de_sus_almacenes: 1,
        cuerpo: { guardado: true, bytes: 'number', eliminado_en: null },
      },
    )
    assert.deepEqual((await operator(service, 'GET', 'lotes')).body.length, 2, 'today by default')
    assert.deepEqual((await operator(service, 'GET', 'lotes?fecha=2026-11-21')).body, [])
    const unknown = '00000000-0000-4000-8000-000000000000'
    assert.deepEqual(await operator(service, 'GET', `lotes/${unknown}`), {
      status: 404,
      body: { success: false, message: `No existe el lote ${unknown}.` },
    })
    assert.deepEqual(await operator(service, 'GET', 'lotes/abc'), {
      status: 404,
      body: { success: false, message: 'No existe el lote abc.' },
    })
  }))

test('operator batches: the payload is exactly the bytes that were posted', () =>
  withService({}, async (service) => {
    const posted = Buffer.from(
      `\uFEFF[ ${JSON.stringify(invoice('F-1', '905112', { Cliente: 'PULPERÍA “LA NIÑA”' }), null, '\t')} ]\r\n`,
      'utf8',
    )
    const response = await service.client('/api/v1/facturas/insertar', { method: 'POST', body: posted })
    const { batch_uuid: uuid } = (await response.json()) as { batch_uuid: string }
    const payload = await service.fetch(`/api/v1/operador/lotes/${uuid}/payload`, {
      headers: { OperatorKey: OPERATOR_KEY },
    })
    assert.equal(payload.status, 200)
    assert.match(payload.headers.get('content-type') ?? '', /^application\/json/)
    assert.ok(Buffer.from(await payload.arrayBuffer()).equals(posted))
  }))

test('operator batches: a pruned payload → 404 naming the retention rule; the record stays', () =>
  withService({ config: { intake: { rawPayloadRetentionDays: 30 } } }, async (service) => {
    const { body } = await postBatch(service, [invoice('F-1')])
    service.clock.advance(31 * 24 * 60 * 60 * 1000)
    pruneRawPayloads(service, 30)
    assert.deepEqual(await operator(service, 'GET', `lotes/${body.batch_uuid}/payload`), {
      status: 404,
      body: {
        success: false,
        message: `El cuerpo del lote ${body.batch_uuid} se eliminó el 2026-12-23 10:00:00 por la regla de retención (intake.rawPayloadRetentionDays = 30 días); el registro del lote y su resumen se conservan.`,
      },
    })
    const record = (await operator(service, 'GET', `lotes/${body.batch_uuid}`)).body
    assert.deepEqual(
      [record.estado, record.cuerpo.guardado, record.cuerpo.eliminado_en, record.resumen.insertadas],
      ['processed', false, '2026-12-23 10:00:00', 1],
    )
  }))

/** Reasons A created the 22nd; B created and A deactivated the 23rd. */
async function threeChanges(service: TestService): Promise<void> {
  await operator(service, 'POST', 'conceptos', { codigo: 'A', descripcion: 'Uno' })
  service.clock.advance(24 * 60 * 60 * 1000)
  await operator(service, 'POST', 'conceptos', { codigo: 'B', descripcion: 'Dos' })
  await operator(service, 'PUT', 'conceptos/A', { activo: false })
}

const entry = (en: string, accion: string, sujeto: string) => containing({ en, accion, tipo: 'concepto', sujeto })
const A_CREATED = entry('2026-11-22 10:00:00', 'concepto.creado', 'A')
const B_CREATED = entry('2026-11-23 10:00:00', 'concepto.creado', 'B')
const A_CHANGED = entry('2026-11-23 10:00:00', 'concepto.modificado', 'A')

testScenarios(
  'operator audit',
  [
    {
      name: 'a date that is not one → 422',
      request: { path: 'auditoria?desde=ayer' },
      status: 422,
      body: refusal('El parámetro desde debe ser una fecha real en formato YYYY-MM-DD (se recibió "ayer").'),
    },
    // An impossible date is refused by name, never a 500 (it once reached LocalDate.parse).
    {
      name: 'an impossible date → 422',
      request: { path: 'auditoria?desde=2026-02-30' },
      status: 422,
      body: refusal('El parámetro desde debe ser una fecha real en formato YYYY-MM-DD (se recibió "2026-02-30").'),
    },
    {
      name: 'everything, oldest first',
      request: { path: 'auditoria' },
      status: 200,
      body: [A_CREATED, B_CREATED, A_CHANGED],
    },
    { name: 'from a day', request: { path: 'auditoria?desde=2026-11-23' }, status: 200, body: [B_CREATED, A_CHANGED] },
    { name: 'up to a day', request: { path: 'auditoria?hasta=2026-11-22' }, status: 200, body: [A_CREATED] },
    {
      name: 'by subject',
      request: { path: 'auditoria?tipo=concepto&sujeto=A' },
      status: 200,
      body: [A_CREATED, A_CHANGED],
    },
    {
      name: 'an entry: who, what, before and after',
      request: { path: 'auditoria?sujeto=A' },
      status: 200,
      body: [
        {
          id: '1',
          en: '2026-11-22 10:00:00',
          quien: OPERATOR,
          accion: 'concepto.creado',
          tipo: 'concepto',
          sujeto: 'A',
          antes: null,
          despues: { codigo: 'A', idProveedor: null, descripcion: 'Uno', activo: true },
          detalle: null,
        },
        A_CHANGED,
      ],
    },
  ],
  { setup: threeChanges, as: 'operator' },
)
