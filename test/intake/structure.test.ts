import assert from 'node:assert/strict'
import { test } from 'node:test'
import { databaseState, postBatch } from '../support/batches.ts'
import { withService } from '../support/service.ts'
import { lenientBatch, lenientScenarios, structureScenarios } from './structure.scenarios.ts'

const INTAKE = { config: { rateLimits: { insertPerMinute: 1000 } } }
for (const scenario of structureScenarios) {
  test(`intake steps 2–3: ${scenario.name} → ${scenario.status}, nothing written`, () =>
    withService(INTAKE, async (service) => {
      const before = databaseState(service.db)
      const { status, body } = await postBatch(service, scenario.body)
      assert.equal(status, scenario.status)
      if (scenario.answer) assert.deepEqual(body, scenario.answer)
      if (scenario.errores) {
        const total = scenario.errores.length === 201 ? 250 : scenario.errores.length
        assert.deepEqual(body, {
          success: false,
          message: `La estructura del lote es inválida (${total === 1 ? '1 error' : `${total} errores`}); no se insertó nada. Corrija las facturas indicadas y reenvíe el lote.`,
          errores: scenario.errores,
        })
      }
      assert.deepEqual(databaseState(service.db), before)
    }))
}

for (const scenario of lenientScenarios) {
  test(`intake step 3 leniency: ${scenario.name}`, () =>
    withService(INTAKE, async (service) => {
      const { status } = await postBatch(service, lenientBatch(scenario))
      assert.equal(status, 200)
      const row = service.db.sqlite
        .prepare(`SELECT ${scenario.column} AS value FROM invoices WHERE id = (SELECT max(id) FROM invoices)`)
        .get() as { value: unknown }
      assert.equal(row.value, scenario.stored)
    }))
}
