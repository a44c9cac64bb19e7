import assert from 'node:assert/strict'
import { test } from 'node:test'
import { invoice, postBatch } from '../support/batches.ts'
import { operator } from '../support/operator.ts'
import { withService } from '../support/service.ts'
import { CLOSE_UNSETTLED } from '../support/settlement.ts'

test('operator end to end: conflict → accept → new version everywhere; close → MANIFIESTO_CERRADO; reopen → accepted again', () =>
  withService({ config: { rateLimits: { insertPerMinute: 100 }, ...CLOSE_UNSETTLED } }, async (service) => {
    assert.equal((await postBatch(service, [invoice('F-1'), invoice('F-2', '905112', { Total: 100 })])).status, 200)

    const resend = await postBatch(service, [
      invoice('F-1'),
      invoice('F-2', '905112', { Total: 150.5, Cliente: 'NUEVO' }),
    ])
    assert.deepEqual(resend.body.resumen, {
      recibidas: 2,
      insertadas: 0,
      actualizadas: 0,
      sin_cambios: 1,
      pendientes_revision: 1,
      rechazadas: 0,
    })
    const status = async () =>
      (await (await service.client('/api/v1/manifiestos/905112/estado')).json()) as {
        resumen: { total_importe: number }
      }
    assert.equal((await status()).resumen.total_importe, 2400.18)

    const [conflict] = (await operator(service, 'GET', 'conflictos?estado=pending')).body as Array<{ id: string }>
    assert.equal((await operator(service, 'POST', `conflictos/${conflict!.id}/aceptar`)).status, 200)
    assert.equal((await status()).resumen.total_importe, 2450.68)
    const f2 = (await operator(service, 'GET', 'facturas/F-2')).body
    assert.deepEqual(
      [f2.total, f2.cliente, f2.original.Cliente, f2.conflicto_pendiente],
      [150.5, 'NUEVO', 'NUEVO', null],
    )

    assert.equal(
      (await operator(service, 'POST', 'manifiestos/905112/cerrar', { motivo: 'Ruta liquidada' })).status,
      200,
    )
    const closed = await postBatch(service, [invoice('F-3')])
    assert.equal(closed.status, 422)
    assert.equal(closed.body.motivo, 'MANIFIESTO_CERRADO')

    assert.equal(
      (await operator(service, 'POST', 'manifiestos/905112/reabrir', { motivo: 'Faltó la F-3' })).status,
      200,
    )
    const reopened = await postBatch(service, [invoice('F-3'), invoice('F-4')])
    assert.equal(reopened.status, 200)
    assert.equal(reopened.body.resumen.insertadas, 2)
    assert.deepEqual(
      ((await operator(service, 'GET', 'manifiestos/905112')).body.facturas as Array<{ factura: string }>).map(
        (f) => f.factura,
      ),
      ['F-1', 'F-2', 'F-3', 'F-4'],
    )
  }))
