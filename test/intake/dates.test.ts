import assert from 'node:assert/strict'
import { test } from 'node:test'
import { databaseState, postBatch } from '../support/batches.ts'
import { CONTRACTS, withService } from '../support/service.ts'
import { acceptedBatch, dateAcceptances, dateRejectionAnswer, dateRejections } from './dates.scenarios.ts'

for (const contract of CONTRACTS)
  for (const scenario of dateRejections) {
    test(`intake step 4 (${contract}): ${scenario.name} → 422 FECHAS_INVALIDAS, nothing written`, () =>
      withService(
        {
          now: scenario.now,
          config: { clientContract: contract, rateLimits: { insertPerMinute: 1000 }, ...scenario.config },
        },
        async (service) => {
          const before = databaseState(service.db)
          const { status, body } = await postBatch(service, scenario.batch)
          assert.equal(status, 422)
          assert.deepEqual(body, dateRejectionAnswer(scenario, contract))
          assert.deepEqual(databaseState(service.db), before)
        },
      ))
  }

for (const contract of CONTRACTS)
  for (const scenario of dateAcceptances) {
    test(`intake step 4 (${contract}): ${scenario.name} → accepted, stored as the calendar date`, () =>
      withService(
        {
          now: scenario.now,
          config: { clientContract: contract, rateLimits: { insertPerMinute: 1000 }, ...scenario.config },
        },
        async (service) => {
          const batch = acceptedBatch(scenario)
          const { status, body } = await postBatch(service, batch)
          assert.equal(status, 200, JSON.stringify(body))
          assert.equal(body.resumen.insertadas, batch.length)
          const stored = service.db.sqlite
            .prepare("SELECT fecha_factura FROM invoices WHERE nfactura = 'F-1'")
            .pluck()
            .get() as string
          assert.match(stored, /^\d{4}-\d\d-\d\d$/)
        },
      ))
  }
