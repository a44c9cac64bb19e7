import assert from 'node:assert/strict'
import { test } from 'node:test'
import { databaseDump, databaseState, invoice, type Answer } from '../support/batches.ts'
import { rawRequest } from '../support/raw-request.ts'
import { API_KEY, CONTRACTS, withService, type ConfigOverrides, type TestService } from '../support/service.ts'
import { startWebhook } from '../support/webhook.ts'
import { acceptedBatch, dateAcceptances, dateRejections } from './dates.scenarios.ts'
import { earlierDayScenarios, duplicateScenarios, sendEarlier } from './sequence.scenarios.ts'
import { arrangeStep8, step8Scenarios } from './step8.scenarios.ts'
import { lenientBatch, lenientScenarios, structureScenarios } from './structure.scenarios.ts'
import {
  arrangeReissue,
  COPIES,
  ORIGINALS,
  reissueScenarios,
  REJECT,
  TODAY,
  YESTERDAY,
} from '../reissues/detection.scenarios.ts'

/**
 * `validar` (issue 17) against every scenario of the intake tests, under each client contract
 * (issue 19: it answers as `insertar` would under the active one): on the same state, `validar`
 * then `insertar` give the same status and body but for `simulacion` and a null `batch_uuid` where
 * `insertar` created a batch, and `validar` leaves every row of the database as it was.
 */
interface Case {
  name: string
  now?: string
  config?: ConfigOverrides
  /** Builds the state the batch meets. */
  arrange?: (service: TestService) => Promise<void>
  batch: unknown
}

const cases: Case[] = [
  ...structureScenarios.map((row): Case => ({ name: `steps 2–3: ${row.name}`, batch: row.body })),
  ...lenientScenarios.map((row): Case => ({ name: `step 3 leniency: ${row.name}`, batch: lenientBatch(row) })),
  ...dateRejections.map((row): Case => ({
    name: `step 4: ${row.name}`,
    now: row.now,
    config: row.config,
    batch: row.batch,
  })),
  ...dateAcceptances.map((row): Case => ({
    name: `step 4 accepted: ${row.name}`,
    now: row.now,
    config: row.config,
    batch: acceptedBatch(row),
  })),
  ...earlierDayScenarios.map((row): Case => ({
    name: `step 5: ${row.name}`,
    arrange: async (service) => void (await sendEarlier(service, row)),
    batch: row.batch,
  })),
  ...duplicateScenarios.map((row): Case => ({
    name: `step 6: ${row.name}`,
    arrange: async (service) => void (await sendEarlier(service, row)),
    batch: row.batch,
  })),
  ...step8Scenarios.map((row): Case => ({
    name: `step 8: ${row.name}`,
    config: row.config,
    arrange: (service) => arrangeStep8(service, row),
    batch: row.batch,
  })),
  ...reissueScenarios.map((row): Case => ({
    name: `re-issues: ${row.name}`,
    config: row.config,
    arrange: (service) => arrangeReissue(service, row),
    batch: row.batch,
  })),
]

const LIMITS = { insertPerMinute: 1000, validatePerMinute: 1000 }

async function post(
  service: TestService,
  endpoint: 'insertar' | 'validar',
  batch: unknown,
): Promise<{ status: number; body: Answer }> {
  const response = await service.client(`/api/v1/facturas/${endpoint}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: typeof batch === 'string' ? batch : JSON.stringify(batch),
  })
  return { status: response.status, body: (await response.json()) as Answer }
}

for (const contract of CONTRACTS)
  for (const scenario of cases) {
    test(`validar = insertar (${contract}), nothing written: ${scenario.name}`, () =>
      withService(
        { now: scenario.now, config: { clientContract: contract, ...scenario.config, rateLimits: LIMITS } },
        async (service) => {
          await scenario.arrange?.(service)
          const before = databaseDump(service.db)
          const simulated = await post(service, 'validar', scenario.batch)
          assert.deepEqual(databaseDump(service.db), before, 'validar wrote nothing')

          const stateBefore = databaseState(service.db)
          const real = await post(service, 'insertar', scenario.batch)
          const stateAfter = databaseState(service.db)
          const created = stateAfter.batches > stateBefore.batches
          assert.equal(simulated.status, real.status, JSON.stringify(simulated.body))
          if (contract === 'v2' && created && real.status === 422) {
            // v2 refused the batch whole: insertar recorded it failed and stored none of its invoices (validar, above, left nothing at all).
            const record = service.db.sqlite
              .prepare('SELECT estado FROM batches WHERE uuid = ?')
              .pluck()
              .get(real.body.batch_uuid)
            assert.equal(record, 'failed')
            assert.deepEqual(
              { invoices: stateAfter.invoices, lines: stateAfter.lines, conflicts: stateAfter.conflicts },
              { invoices: stateBefore.invoices, lines: stateBefore.lines, conflicts: stateBefore.conflicts },
            )
          }
          const expected: Answer = { ...real.body, simulacion: true }
          // Where insertar created a batch, validar names none; a duplicate names the original in both.
          if (created && 'batch_uuid' in real.body) expected.batch_uuid = null
          assert.deepEqual(simulated.body, expected)
        },
      ))
  }

test('validar: a batch with possible re-issues sends no notice to the webhook; insertar sends one', async () => {
  const webhook = await startWebhook()
  try {
    await withService(
      { config: { ...REJECT, alerts: { webhookUrl: webhook.url }, rateLimits: LIMITS } },
      async (service) => {
        service.clock.set(YESTERDAY)
        assert.equal((await post(service, 'insertar', ORIGINALS)).status, 200)
        service.clock.set(TODAY)
        const simulated = await post(service, 'validar', COPIES)
        assert.equal(simulated.body.motivo, 'FACTURAS_DUPLICADAS_EXACTAS')
        await webhook.settle(1)
        assert.equal(webhook.received.length, 0, 'no notice for a dry run')
        assert.equal(service.logLines().filter((line) => line.msg === 'posibles re-emisiones en el lote').length, 0)
        await post(service, 'insertar', COPIES)
        await webhook.settle(1)
        assert.equal(webhook.received.length, 1)
        assert.equal(webhook.received[0]!.kind, 'reemisiones')
      },
    )
  } finally {
    await webhook.close()
  }
})

test('validar and insertar count in separate rate-limit groups (rateLimits.validatePerMinute)', () =>
  withService({ config: { rateLimits: { insertPerMinute: 2, validatePerMinute: 3 } } }, async (service) => {
    const statuses = async (endpoint: 'insertar' | 'validar', count: number) => {
      const answers: number[] = []
      for (let i = 0; i < count; i++)
        answers.push((await post(service, endpoint, [invoice(`${endpoint}-${i}`, `9${i}`)])).status)
      return answers
    }
    assert.deepEqual(await statuses('validar', 4), [200, 200, 200, 429])
    assert.deepEqual(await statuses('insertar', 3), [200, 200, 429], 'validar spent none of insertar’s budget')
    service.clock.advance(60_000)
    assert.deepEqual(await statuses('insertar', 3), [200, 200, 429])
    const refused = await post(service, 'validar', [invoice('x-1', '91')])
    assert.equal(refused.status, 200, 'insertar spent none of validar’s budget')
  }))

test('validar: a body over server.maxBodyMB → 413 like insertar, nothing written', () =>
  withService({ config: { server: { maxBodyMB: 0.01 } } }, async (service) => {
    const before = databaseDump(service.db)
    const big = Array.from({ length: 20 }, (_, i) => invoice(`F-${i}`))
    const simulated = await post(service, 'validar', big)
    const real = await post(service, 'insertar', big)
    assert.equal(simulated.status, 413)
    assert.deepEqual(simulated, real)
    assert.deepEqual(databaseDump(service.db), before)
  }))

test('validar shares insertar’s upload slots: while a batch body is still arriving, validar is refused (503, Retry-After)', () =>
  withService(
    { config: { intake: { maxConcurrentBatches: 1 }, server: { bodyTimeoutSeconds: 1 } } },
    async (service) => {
      const headers = { ApiKey: API_KEY, 'Content-Type': 'application/json', 'Content-Length': '100000' }
      const slow = rawRequest(`${service.url}/api/v1/facturas/insertar`, { method: 'POST', headers, body: '[' })
      await new Promise((resolve) => setTimeout(resolve, 100))
      const busy = await post(service, 'validar', [invoice('F-1')])
      assert.equal(busy.status, 503)
      assert.deepEqual(busy.body, {
        success: false,
        message: 'El servidor ya está recibiendo 1 lote(s) a la vez; reenvíe este lote en unos segundos.',
      })
      assert.equal((await slow).status, 408, 'the slow body ran out of time')
      assert.equal((await post(service, 'validar', [invoice('F-1')])).status, 200, 'the slot is free again')
    },
  ))

test('validar: without ApiKey → 401, as insertar', () =>
  withService({}, async (service) => {
    const response = await service.fetch('/api/v1/facturas/validar', { method: 'POST', body: '[]' })
    assert.equal(response.status, 401)
    assert.deepEqual(await response.json(), {
      success: false,
      message: 'ApiKey requerido: envíe la clave en el encabezado ApiKey.',
    })
  }))
