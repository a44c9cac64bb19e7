import assert from 'node:assert/strict'
import { test } from 'node:test'
import { databaseState, postBatch } from '../support/batches.ts'
import { withService } from '../support/service.ts'
import { acceptedBatch, dateAcceptances, dateRejections } from './dates.scenarios.ts'

for (const scenario of dateRejections) {
  test(`intake step 4: ${scenario.name} → 422 FECHAS_INVALIDAS, nothing written`, () =>
    withService({ now: scenario.now, config: { rateLimits: { insertPerMinute: 1000 }, ...scenario.config } }, async (service) => {
      const before = databaseState(service.db)
      const { status, body } = await postBatch(service, scenario.batch)
      assert.equal(status, 422)
      const rejected = scenario.rejected!.map((entry) => ({ manifiesto: entry.manifiesto, motivo: entry.motivo, detalle: entry.detalle, total_facturas: entry.facturas.length, facturas: entry.facturas }))
      const rejectedCount = rejected.reduce((sum, entry) => sum + entry.total_facturas, 0)
      assert.deepEqual(body, {
        success: false,
        message: `Lote rechazado: ${rejected.length} manifiesto(s) tienen facturas con fechas inválidas. No se insertó ninguna factura del lote.`,
        motivo: 'FECHAS_INVALIDAS',
        accion_requerida: 'Corrija la FechaFactura de las facturas indicadas en cada manifiesto rechazado y reenvíe el lote completo (los manifiestos válidos tampoco se insertaron).',
        resumen: { total_recibidas: scenario.batch.length, total_rechazadas: rejectedCount, total_validas: scenario.batch.length - rejectedCount, insertadas: 0 },
        manifiestos_rechazados: rejected,
        manifiestos_validos: scenario.validos ?? [],
      })
      assert.deepEqual(databaseState(service.db), before)
    }))
}

for (const scenario of dateAcceptances) {
  test(`intake step 4: ${scenario.name} → accepted, stored as the calendar date`, () =>
    withService({ now: scenario.now, config: { rateLimits: { insertPerMinute: 1000 }, ...scenario.config } }, async (service) => {
      const batch = acceptedBatch(scenario)
      const { status, body } = await postBatch(service, batch)
      assert.equal(status, 200, JSON.stringify(body))
      assert.equal(body.resumen.insertadas, batch.length)
      const stored = service.db.sqlite.prepare("SELECT fecha_factura FROM invoices WHERE nfactura = 'F-1'").pluck().get() as string
      assert.match(stored, /^\d{4}-\d\d-\d\d$/)
    }))
}
