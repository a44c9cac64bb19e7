import assert from 'node:assert/strict'
import { test } from 'node:test'
import { databaseState, invoice, invoicesOf, postBatch } from '../support/batches.ts'
import { CONTRACTS, withService } from '../support/service.ts'

for (const contract of CONTRACTS) {
const INTAKE = { clientContract: contract, rateLimits: { insertPerMinute: 1000 } }
const NOTA = 'Manifiesto válido, rechazado solo por venir en el mismo lote que manifiestos de días anteriores: reenvíelo en un lote aparte.'
// The valid manifests: v1 details them; v2 lists their numbers under the one label `manifiestos` (the old label is absent).
const validManifests =
  contract === 'v1'
    ? { manifiestos_no_afectados: ['905200', '905201'].map((manifiesto, i) => ({ manifiesto, total_facturas: 1, facturas: [`F-${3 + i * 2}`], nota: NOTA })) }
    : { manifiestos: ['905200', '905201'] }

test(`intake step 5 (${contract}): invoices for a manifest created yesterday → 422 MANIFIESTOS_FECHA_INVALIDA, nothing written`, () =>
  withService({ now: '2026-11-21T16:00:00Z', config: INTAKE }, async (service) => {
    assert.equal((await postBatch(service, [invoice('F-1', '905111', {}, '2026-11-21')])).status, 200)
    service.clock.set('2026-11-22T16:00:00Z')
    const before = databaseState(service.db)
    const batch = [invoice('F-2', '905111'), invoice('F-3', '905200'), invoice('F-4', '905111'), invoice('F-5', '905201')]
    const { status, body } = await postBatch(service, batch)
    assert.equal(status, 422)
    assert.deepEqual(body, {
      success: false,
      message: 'Lote rechazado: incluye facturas para 1 manifiesto(s) creados en días anteriores, que ya no aceptan facturas. No se insertó ninguna factura del lote.',
      motivo: 'MANIFIESTOS_FECHA_INVALIDA',
      accion_requerida: 'Envíe las facturas de los manifiestos rechazados con un número de manifiesto nuevo, y reenvíe los manifiestos no afectados en un lote aparte.',
      resumen: { total_recibidas: 4, total_rechazadas: 2, total_validas: 2, insertadas: 0 },
      manifiestos_rechazados: [
        {
          manifiesto: '905111',
          fecha_original: '2026-11-21',
          fecha_intento: '2026-11-22',
          total_facturas: 2,
          facturas_afectadas: ['F-2', 'F-4'],
          instruccion: 'El manifiesto 905111 se creó el 2026-11-21 y desde otro día ya no acepta facturas nuevas. Envíe esas facturas con un número de manifiesto nuevo.',
        },
      ],
      ...validManifests,
    })
    assert.deepEqual(databaseState(service.db), before)

    const separately = await postBatch(service, [invoice('F-3', '905200'), invoice('F-5', '905201')])
    assert.equal(separately.status, 200, 'the unaffected manifests go through in their own batch')
  }))

test(`intake step 5 (${contract}): "earlier day" is the Honduras date (created 23:59 local yesterday, now 01:00 local)`, () =>
  withService({ now: '2026-11-22T05:59:00Z', config: INTAKE }, async (service) => {
    assert.equal((await postBatch(service, [invoice('F-1', '905111', {}, '2026-11-21')])).status, 200)
    service.clock.set('2026-11-22T07:00:00Z')
    const { status, body } = await postBatch(service, [invoice('F-2', '905111')])
    assert.equal(status, 422)
    assert.equal(body.motivo, 'MANIFIESTOS_FECHA_INVALIDA')
    assert.equal(body.manifiestos_rechazados[0].fecha_original, '2026-11-21')
  }))

test(`intake step 5 (${contract}): a manifest created earlier today accepts more invoices`, () =>
  withService({ now: '2026-11-22T06:00:00Z', config: INTAKE }, async (service) => {
    assert.equal((await postBatch(service, [invoice('F-1', '905111')])).status, 200)
    service.clock.set('2026-11-23T05:59:59Z')
    const { status, body } = await postBatch(service, [invoice('F-2', '905111')])
    assert.equal(status, 200)
    assert.deepEqual(body.resumen, { recibidas: 1, insertadas: 1, actualizadas: 0, sin_cambios: 0, pendientes_revision: 0, rechazadas: 0 })
    assert.deepEqual(invoicesOf(service.db, '905111'), ['F-1', 'F-2'])
  }))
}
