import assert from 'node:assert/strict'
import { test } from 'node:test'
import { all, first } from '../../src/db/database.ts'
import { databaseState, invoice, invoicesOf, postBatch, storedOriginal, type Answer } from '../support/batches.ts'
import { CONTRACTS, withService } from '../support/service.ts'
import { arrangeStep8, step8Outcome, step8Scenarios } from './step8.scenarios.ts'

for (const contract of CONTRACTS)
  for (const scenario of step8Scenarios) {
    const expected = step8Outcome(scenario, contract)
    test(`intake step 8 (${contract}): ${scenario.name}`, () =>
      withService(
        { config: { clientContract: contract, rateLimits: { insertPerMinute: 1000 }, ...scenario.config } },
        async (service) => {
          await arrangeStep8(service, scenario)
          const { status, body } = await postBatch(service, scenario.batch)
          assert.equal(status, expected.status, JSON.stringify(body))
          assert.deepEqual(body, expected.body(body.batch_uuid))
          for (const [numero, nfacturas] of Object.entries(expected.stored))
            assert.deepEqual(invoicesOf(service.db, numero), nfacturas, `manifest ${numero}`)
          const record = first(
            service.db,
            service.db.query
              .selectFrom('batches')
              .select(['estado', 'http_status', 'summary'])
              .where('uuid', '=', body.batch_uuid),
          )
          // v2 refuses a batch with a step-8 rejection whole: it is recorded failed, so its resend is processed again.
          const refusedWhole = contract === 'v2' && expected.status === 422
          assert.deepEqual(record, {
            estado: refusedWhole ? 'failed' : 'processed',
            http_status: expected.status,
            summary: JSON.stringify(body.resumen),
          })
        },
      ))
  }

test('intake step 8: a held version keeps the existing one and stores a conflict with both; a repeat holds no second conflict', () =>
  withService({ config: { rateLimits: { insertPerMinute: 1000 } } }, async (service) => {
    const existing = invoice('F-1')
    await postBatch(service, [existing])
    const incoming = invoice('F-1', '905112', { Total: 9999.99 })
    const held = await postBatch(service, [incoming])
    assert.equal(held.body.resumen.pendientes_revision, 1)
    assert.deepEqual(storedOriginal(service.db, 'F-1'), existing, 'the existing version is not overwritten')
    const status = await (await service.client('/api/v1/manifiestos/905112/estado')).json()
    assert.equal((status as Answer).resumen.total_importe, 2300.18)

    await postBatch(service, [incoming, invoice('F-2')]) // the same incoming version again, in a new batch
    const conflicts = all(service.db, service.db.query.selectFrom('invoice_conflicts').selectAll())
    assert.equal(conflicts.length, 1)
    const [conflict] = conflicts
    assert.equal(conflict!.estado, 'pending')
    assert.deepEqual(JSON.parse(conflict!.changed_fields), ['Total'])
    assert.deepEqual(JSON.parse(conflict!.existing_original), existing)
    assert.deepEqual(JSON.parse(conflict!.incoming_original), incoming)
  }))

test('intake step 8: an auto-update replaces the stored version, lines included, and is audited', () =>
  withService(
    { config: { rateLimits: { insertPerMinute: 1000 }, intake: { autoUpdateFields: ['Tel', 'LineasFactura'] } } },
    async (service) => {
      const existing = invoice('F-1')
      const first = await postBatch(service, [existing])
      const lines = (invoice('x').LineasFactura as Array<Record<string, unknown>>).slice(0, 1)
      const incoming = invoice('F-1', '905112', { Tel: '31313131', LineasFactura: lines })
      const updated = await postBatch(service, [incoming])
      assert.equal(updated.body.resumen.actualizadas, 1)
      assert.deepEqual(storedOriginal(service.db, 'F-1'), incoming)
      const row = service.db.sqlite
        .prepare(
          "SELECT tel, updated_at, (SELECT count(*) FROM invoice_lines l WHERE l.invoice_id = i.id) AS lines FROM invoices i WHERE nfactura = 'F-1'",
        )
        .get()
      assert.deepEqual(row, { tel: '31313131', updated_at: '2026-11-22T16:00:00.000Z', lines: 1 })
      const audit = all(service.db, service.db.query.selectFrom('audit_log').selectAll())
      assert.equal(audit.length, 1)
      assert.deepEqual(
        {
          actor: audit[0]!.actor,
          action: audit[0]!.action,
          subject: `${audit[0]!.subject_type}:${audit[0]!.subject_id}`,
          before: JSON.parse(audit[0]!.before!),
          after: JSON.parse(audit[0]!.after!),
          detail: JSON.parse(audit[0]!.detail!),
        },
        {
          actor: 'sistema',
          action: 'factura.actualizacion_automatica',
          subject: 'factura:F-1',
          before: existing,
          after: incoming,
          detail: { batch_uuid: updated.body.batch_uuid, campos_con_cambio: ['Tel', 'LineasFactura'] },
        },
      )
      assert.notEqual(first.body.batch_uuid, updated.body.batch_uuid)
      assert.equal(databaseState(service.db).conflicts, 0)
    },
  ))

test('intake step 8: a new manifest is created imported, with the time of its first batch', () =>
  withService({ now: '2026-11-22T05:30:00Z', config: { rateLimits: { insertPerMinute: 1000 } } }, async (service) => {
    await postBatch(service, [
      invoice('F-1', '905112', {}, '2026-11-21'),
      invoice('F-2', '905112', { Total: 0.1 }, '2026-11-21'),
      invoice('F-3', '905112', { Total: 0.2 }, '2026-11-21'),
    ])
    const status = await (await service.client('/api/v1/manifiestos/905112/estado')).json()
    assert.deepEqual(status, {
      success: true,
      manifiesto: '905112',
      estado: 'imported',
      resumen: { total_facturas: 3, total_importe: 2300.48, fecha_ingreso: '2026-11-21 23:30:00' },
    })
  }))
