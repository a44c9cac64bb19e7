import assert from 'node:assert/strict'
import { test } from 'node:test'
import { pruneRawPayloads } from '../../src/batches/batches.service.ts'
import {
  batchRecord,
  databaseState,
  invoice,
  invoicesOf,
  postBatch,
  storedOriginal,
  storedPayload,
} from '../support/batches.ts'
import { withService } from '../support/service.ts'
import { startWebhook } from '../support/webhook.ts'
import { checkSequence, DUPLICATE_MESSAGE, duplicateScenarios } from './sequence.scenarios.ts'

const INTAKE = { rateLimits: { insertPerMinute: 1000 } }
const RESUMEN_2 = {
  recibidas: 2,
  insertadas: 2,
  actualizadas: 0,
  sin_cambios: 0,
  pendientes_revision: 0,
  rechazadas: 0,
}

for (const scenario of duplicateScenarios) {
  test(`intake step 6: ${scenario.name}`, () =>
    withService({ config: INTAKE }, (service) => checkSequence(service, scenario)))
}

test('intake: a 500 marks the batch failed, answers its batch_uuid, logs the stack and alerts; a resend is processed', async () => {
  const webhook = await startWebhook('/alertas')
  const alerts = webhook.received
  try {
    await withService({ config: { ...INTAKE, alerts: { webhookUrl: webhook.url } } }, async (service) => {
      service.db.sqlite.exec(
        "CREATE TEMP TRIGGER boom BEFORE INSERT ON invoices WHEN NEW.nfactura = 'F-2' BEGIN SELECT RAISE(ABORT, 'fallo simulado del disco'); END",
      )
      const batch = [invoice('F-1'), invoice('F-2')]
      const failed = await postBatch(service, batch)
      assert.equal(failed.status, 500)
      assert.match(failed.body.batch_uuid, /^[0-9a-f-]{36}$/)
      assert.deepEqual(failed.body, {
        success: false,
        message: 'Error interno del servidor. El equipo técnico fue notificado; puede reenviar la solicitud más tarde.',
        batch_uuid: failed.body.batch_uuid,
      })
      const record = batchRecord(service.db, failed.body.batch_uuid)
      assert.equal(record?.estado, 'failed')
      assert.match(record?.failure ?? '', /fallo simulado del disco/)
      assert.deepEqual(invoicesOf(service.db, '905112'), [], 'step 8 rolled back whole')
      assert.equal(databaseState(service.db).manifests, 0)
      const logged = service.logLines().find((line) => line.msg === 'error interno') as {
        err: { stack: string }
        batch_uuid: string
      }
      assert.match(logged.err.stack, /fallo simulado del disco/)
      assert.equal(logged.batch_uuid, failed.body.batch_uuid)

      const second = await postBatch(service, batch)
      assert.equal(second.status, 500, 'still failing: the failed batch is no duplicate')
      await webhook.settle(1)
      assert.equal(alerts.length, 1, 'one alert per minute per kind of error')
      assert.equal(alerts[0]!.service, 'manifiesto')
      assert.equal(alerts[0]!.batch_uuid, failed.body.batch_uuid)
      assert.match(String(alerts[0]!.message), /fallo simulado/)

      service.db.sqlite.exec('DROP TRIGGER boom')
      const resent = await postBatch(service, batch)
      assert.equal(resent.status, 200)
      assert.notEqual(resent.body.batch_uuid, failed.body.batch_uuid)
      assert.deepEqual(resent.body.resumen, RESUMEN_2)
      assert.deepEqual(invoicesOf(service.db, '905112'), ['F-1', 'F-2'])
    })
  } finally {
    await webhook.close()
  }
})

test('intake step 7: the raw body is kept compressed, byte for byte, with the batch record', () =>
  withService({ config: INTAKE }, async (service) => {
    const raw = ` [ ${JSON.stringify(invoice('F-1'), null, 3)} ]\n`
    const { body } = await postBatch(service, raw)
    const record = batchRecord(service.db, body.batch_uuid)
    assert.equal(record?.estado, 'processed')
    assert.equal(record?.http_status, 200)
    assert.equal(record?.client_ip, '127.0.0.1')
    assert.match(record?.key_fingerprint ?? '', /^[0-9a-f]{12}$/)
    assert.equal(record?.received_date, '2026-11-22')
    assert.equal(record?.invoice_count, 1)
    assert.equal(storedPayload(service.db, body.batch_uuid)?.toString('utf8'), raw)
  }))

test('intake step 7: raw bodies older than the retention are pruned; the record and summary stay', () =>
  withService({ config: { ...INTAKE, intake: { rawPayloadRetentionDays: 10 } } }, async (service) => {
    const old = await postBatch(service, [invoice('F-1')])
    service.clock.advance(5 * 24 * 60 * 60 * 1000)
    const recent = await postBatch(service, [invoice('F-2', '905113', {}, '2026-11-27')])
    service.clock.advance(6 * 24 * 60 * 60 * 1000)
    assert.equal(pruneRawPayloads(service, 10), 1)
    assert.equal(storedPayload(service.db, old.body.batch_uuid), undefined)
    assert.ok(storedPayload(service.db, recent.body.batch_uuid))
    assert.deepEqual(
      storedOriginal(service.db, 'F-1'),
      invoice('F-1'),
      'the invoice keeps its original: its chunk is not pruned',
    )
    const record = batchRecord(service.db, old.body.batch_uuid)
    assert.equal(record?.payload_pruned_at, '2026-12-03T16:00:00.000Z')
    assert.deepEqual(JSON.parse(record!.summary!), {
      recibidas: 1,
      insertadas: 1,
      actualizadas: 0,
      sin_cambios: 0,
      pendientes_revision: 0,
      rechazadas: 0,
    })
    assert.equal(pruneRawPayloads(service, 10), 0)
  }))

test('intake: the same batch sent twice at once → one batch record, the same batch_uuid and resumen', () =>
  withService({ config: INTAKE }, async (service) => {
    const batch = Array.from({ length: 300 }, (_, i) => invoice(`F-${i + 1}`, `9051${i % 3}`))
    const [a, b] = await Promise.all([postBatch(service, batch), postBatch(service, batch)])
    assert.equal(a.status, 200)
    assert.equal(b.status, 200)
    assert.equal(a.body.batch_uuid, b.body.batch_uuid)
    assert.deepEqual(a.body.resumen, b.body.resumen)
    assert.equal(a.body.resumen.insertadas, 300)
    assert.deepEqual([a.body.message, b.body.message].filter((m) => m === DUPLICATE_MESSAGE).length, 1)
    assert.equal(databaseState(service.db).batches, 1)
    assert.equal(databaseState(service.db).invoices, 300)
  }))

/**
 * Step 6 in its two ways: the same bytes are answered from the body's hash; the same invoice
 * numbers in other bytes make the canonical content hash be computed (and kept, for the earlier
 * batch too); other numbers never compute it.
 */
const A = [invoice('F-1'), invoice('F-2')]
const reordered = (entry: Record<string, unknown>) => Object.fromEntries(Object.entries(entry).reverse())
const contentScenarios: Array<{ name: string; second: string; duplicate: boolean; hashed: boolean }> = [
  {
    name: 'the same bytes: a duplicate, no content hash computed',
    second: JSON.stringify(A),
    duplicate: true,
    hashed: false,
  },
  {
    name: 'the same content, other whitespace and key order: a duplicate found by content',
    second: JSON.stringify(A.map(reordered), null, 2),
    duplicate: true,
    hashed: true,
  },
  {
    name: 'the same numbers, another value: processed, both content hashes kept',
    second: JSON.stringify([A[0], { ...A[1], Tel: '9999-0000' }]),
    duplicate: false,
    hashed: true,
  },
  {
    name: 'other numbers: processed, no content hash computed',
    second: JSON.stringify([invoice('F-3')]),
    duplicate: false,
    hashed: false,
  },
]
for (const scenario of contentScenarios) {
  test(`intake step 6: ${scenario.name}`, () =>
    withService({ config: INTAKE }, async (service) => {
      const first = await postBatch(service, JSON.stringify(A))
      assert.equal(first.status, 200)
      const second = await postBatch(service, scenario.second)
      assert.equal(second.status, 200)
      assert.equal(second.body.batch_uuid === first.body.batch_uuid, scenario.duplicate)
      if (scenario.duplicate) assert.equal(second.body.message, DUPLICATE_MESSAGE)
      const rows = service.db.sqlite
        .prepare('SELECT uuid, body_hash, numbers_hash, content_hash FROM batches ORDER BY id')
        .all() as Array<Record<string, string | null>>
      assert.equal(rows.length, scenario.duplicate ? 1 : 2)
      assert.match(rows[0]!.body_hash!, /^[0-9a-f]{64}$/)
      assert.equal(rows[0]!.content_hash !== null, scenario.hashed, "the first batch's content hash")
      if (!scenario.duplicate) {
        assert.equal(rows[1]!.content_hash !== null, scenario.hashed, "the second batch's content hash")
        if (scenario.hashed) assert.notEqual(rows[1]!.content_hash, rows[0]!.content_hash)
      }
    }))
}
