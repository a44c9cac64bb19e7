import assert from 'node:assert/strict'
import { test } from 'node:test'
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from '../../src/db/migrations/index.ts'
import { invoicesOf, postBatch } from '../support/batches.ts'
import { insertBatchRow, insertLegacyInvoice, insertManifestRow } from '../support/fixtures.ts'
import { withService, type TestService } from '../support/service.ts'
import { startWebhook } from '../support/webhook.ts'
import {
  arrangeReissue,
  COPIES,
  inv,
  ORIGINALS,
  reissueScenarios,
  REJECT,
  TODAY,
  YESTERDAY,
} from './detection.scenarios.ts'

function flaggedOf(service: TestService): Array<[string, string, number]> {
  return (
    service.db.sqlite
      .prepare(
        'SELECT c.nfactura AS copy, o.nfactura AS original, x.days_apart AS days, x.estado FROM invoice_reissues x JOIN invoices c ON c.id = x.invoice_id JOIN invoices o ON o.id = x.original_invoice_id ORDER BY x.id',
      )
      .all() as Array<{ copy: string; original: string; days: number; estado: string }>
  ).map((row) => {
    assert.equal(row.estado, 'pending')
    return [row.copy, row.original, row.days]
  })
}

for (const scenario of reissueScenarios) {
  test(`re-issues: ${scenario.name}`, () =>
    withService({ config: { rateLimits: { insertPerMinute: 1000 }, ...scenario.config } }, async (service) => {
      await arrangeReissue(service, scenario)
      const { status, body } = await postBatch(service, scenario.batch)
      assert.equal(status, scenario.status, JSON.stringify(body))
      assert.deepEqual(body, scenario.body(body.batch_uuid))
      assert.deepEqual(flaggedOf(service), scenario.flagged)
      for (const [numero, nfacturas] of Object.entries(scenario.stored ?? {}))
        assert.deepEqual(invoicesOf(service.db, numero), nfacturas, `manifest ${numero}`)
    }))
}

test('re-issues: an invoice stored before migration 5 (its fingerprint back-filled) is found as the original', () =>
  withService(
    {
      beforeMigrate: (db) => {
        for (const migration of MIGRATIONS.filter((candidate) => candidate.version <= 3)) {
          db.sqlite.exec(migration.sql)
          db.sqlite.pragma(`user_version = ${migration.version}`)
        }
        const batchId = insertBatchRow(db)
        const manifestId = insertManifestRow(db, { numero: '905100', createdAt: '2026-11-21T16:00:00.000Z', batchId })
        insertLegacyInvoice(db, { ...ORIGINALS[0]!, Clienteid: 'C1 ' }, manifestId, batchId)
      },
    },
    async (service) => {
      assert.equal(service.db.sqlite.pragma('user_version', { simple: true }), LATEST_SCHEMA_VERSION)
      const { status } = await postBatch(service, [COPIES[0]!])
      assert.equal(status, 200)
      assert.deepEqual(flaggedOf(service), [['B-1', 'A-1', 1]])
    },
  ))

test('re-issues: the alert webhook gets one notice per batch with possible re-issues, none for a clean batch', async () => {
  const webhook = await startWebhook()
  const received = webhook.received
  try {
    await withService(
      { config: { ...REJECT, alerts: { webhookUrl: webhook.url }, rateLimits: { insertPerMinute: 1000 } } },
      async (service) => {
        service.clock.set(YESTERDAY)
        await postBatch(service, ORIGINALS)
        service.clock.set(TODAY)
        await postBatch(service, [inv('N-1', '905102', 'C9')])
        const flagged = await postBatch(service, [...COPIES, inv('D-1', '905103', 'C1')])
        assert.equal(flagged.status, 422)
        await webhook.settle(1)
        assert.equal(received.length, 1, JSON.stringify(received))
        const notice = received[0]!
        assert.deepEqual(
          { ...notice, version: undefined, at: undefined },
          {
            service: 'manifiesto',
            version: undefined,
            level: 'aviso',
            kind: 'reemisiones',
            message: `Lote ${flagged.body.batch_uuid}: 4 posible(s) re-emisión(es) de facturas ya registradas — 905101: 3 (manifiesto rechazado); 905103: 1 (insertadas y marcadas). Revíselas en GET /api/v1/operador/reemisiones?estado=pending.`,
            at: undefined,
            batch_uuid: flagged.body.batch_uuid,
            manifiestos: [
              { manifiesto: '905101', cantidad: 3, rechazado: true },
              { manifiesto: '905103', cantidad: 1, rechazado: false },
            ],
          },
        )
        assert.ok(
          service
            .logLines()
            .some(
              (line) => line.msg === 'posibles re-emisiones en el lote' && line.batch_uuid === flagged.body.batch_uuid,
            ),
        )
      },
    )
  } finally {
    await webhook.close()
  }
})
