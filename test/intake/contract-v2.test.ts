import assert from 'node:assert/strict'
import { test } from 'node:test'
import { all } from '../../src/db/database.ts'
import {
  batchRecord,
  databaseState,
  invoice,
  invoicesOf,
  postBatch,
  resumen,
  storedOriginal,
} from '../support/batches.ts'
import { withService, type ConfigOverrides } from '../support/service.ts'

/** Contract v2's intake rules (issue 19) that v1 does not have; the shared ones run in the step 4, 5 and 8 tables. */
const V2: ConfigOverrides = { clientContract: 'v2', rateLimits: { insertPerMinute: 1000 } }

test('intake v2: a refused batch claims nothing — the identical body is processed (and answered) again; once corrected, its resend is the duplicate', () =>
  withService({ config: V2 }, async (service) => {
    const refused = [invoice('F-1', '905112'), invoice('F-2', '905113', { Almacen: 'ZZZ' })]
    const first = await postBatch(service, refused)
    const second = await postBatch(service, refused)
    for (const answer of [first, second]) {
      assert.equal(answer.status, 422)
      assert.equal(answer.body.motivo, 'ALMACENES_DESCONOCIDOS')
      assert.deepEqual(answer.body.resumen, resumen({ recibidas: 2, rechazadas: 1 }))
    }
    assert.notEqual(
      first.body.batch_uuid,
      second.body.batch_uuid,
      'processed again, not answered from the first record',
    )
    assert.deepEqual(
      [batchRecord(service.db, first.body.batch_uuid)!, batchRecord(service.db, second.body.batch_uuid)!].map(
        (record) => [record.estado, record.http_status, record.failure],
      ),
      [
        ['failed', 422, 'Lote rechazado completo (todo o nada, contrato v2): ALMACENES_DESCONOCIDOS'],
        ['failed', 422, 'Lote rechazado completo (todo o nada, contrato v2): ALMACENES_DESCONOCIDOS'],
      ],
    )
    assert.deepEqual(databaseState(service.db).invoices, 0)

    const corrected = [invoice('F-1', '905112'), invoice('F-2', '905113')]
    const accepted = await postBatch(service, corrected)
    assert.equal(accepted.status, 200)
    assert.deepEqual(accepted.body.resumen, resumen({ recibidas: 2, insertadas: 2 }))
    const again = await postBatch(service, corrected)
    assert.deepEqual(again, {
      status: 200,
      body: {
        success: true,
        message: 'Este lote ya fue procesado hoy y no se reprocesó; se devuelve el resumen del procesamiento original.',
        batch_uuid: accepted.body.batch_uuid,
        resumen: resumen({ recibidas: 2, insertadas: 2 }),
      },
    })
  }))

for (const [kind, resent] of [
  ['identical', invoice('F-1')],
  ['changed', invoice('F-1', '905112', { Cliente: 'OTRO CLIENTE', Total: 1 })],
] as const) {
  test(`intake v2: an ${kind} invoice already in the manifest → FACTURAS_YA_EXISTENTES; the stored one untouched, no conflict, nothing audited`, () =>
    withService({ config: { ...V2, intake: { autoUpdateFields: ['Cliente', 'Total'] } } }, async (service) => {
      const stored = invoice('F-1')
      assert.equal((await postBatch(service, [stored])).status, 200)
      const before = databaseState(service.db)
      const { status, body } = await postBatch(service, [resent, invoice('F-2')])
      assert.equal(status, 422)
      assert.deepEqual(body.manifiestos_rechazados, [
        {
          manifiesto: '905112',
          total_facturas: 2,
          motivo: 'FACTURAS_YA_EXISTENTES',
          mensaje:
            '1 factura(s) del manifiesto 905112 ya están registradas en él; no se actualizan ni se reemplazan. Reenvíe el manifiesto solo con las facturas nuevas.',
          facturas_existentes: [{ factura: 'F-1' }],
        },
      ])
      assert.equal(body.advertencias, undefined)
      assert.deepEqual(storedOriginal(service.db, 'F-1'), stored)
      assert.deepEqual(invoicesOf(service.db, '905112'), ['F-1'])
      const row = service.db.sqlite
        .prepare("SELECT cliente, total, updated_at FROM invoices WHERE nfactura = 'F-1'")
        .get()
      assert.deepEqual(row, { cliente: stored.Cliente, total: stored.Total, updated_at: null })
      assert.deepEqual(databaseState(service.db), {
        ...before,
        batches: before.batches + 1,
        payloads: before.payloads + 1,
      })
    }))
}

test('intake v2: a block of re-issues is refused by default (intake.reissue.action "reject"), and nothing of the batch is stored', () =>
  withService({ config: V2 }, async (service) => {
    assert.equal(
      (await postBatch(service, [invoice('F-1', '905111'), invoice('F-2', '905111'), invoice('F-3', '905111')])).status,
      200,
    )
    const { status, body } = await postBatch(service, [
      invoice('F-4', '905112'),
      invoice('F-5', '905112'),
      invoice('F-6', '905112'),
      invoice('F-7', '905113', { Clienteid: 'OTRO' }),
    ])
    assert.equal(status, 422)
    assert.equal(body.motivo, 'FACTURAS_DUPLICADAS_EXACTAS')
    assert.deepEqual(
      body.manifiestos_rechazados.map((entry: { facturas_duplicadas_exactas: Array<{ factura: string }> }) =>
        entry.facturas_duplicadas_exactas.map((repeat) => repeat.factura),
      ),
      [['F-4', 'F-5', 'F-6']],
    )
    assert.deepEqual([invoicesOf(service.db, '905112'), invoicesOf(service.db, '905113')], [[], []])
  }))

test('intake v2: an explicit intake.reissue.action "flag" still wins — the block is inserted and flagged', () =>
  withService(
    { config: { ...V2, intake: { reissue: { enabled: true, windowDays: 3, blockThreshold: 3, action: 'flag' } } } },
    async (service) => {
      assert.equal(
        (await postBatch(service, [invoice('F-1', '905111'), invoice('F-2', '905111'), invoice('F-3', '905111')]))
          .status,
        200,
      )
      const { status, body } = await postBatch(service, [
        invoice('F-4', '905112'),
        invoice('F-5', '905112'),
        invoice('F-6', '905112'),
      ])
      assert.equal(status, 200)
      assert.deepEqual(body.resumen, resumen({ recibidas: 3, insertadas: 3 }))
      assert.equal(all(service.db, service.db.query.selectFrom('invoice_reissues').select('id')).length, 3)
    },
  ))

test('intake v2: a new manifest gets the 7-business-day window by default', () =>
  withService({ config: V2 }, async (service) => {
    // Sunday 22 November 2026: day 1 is Monday the 23rd, day 6 Saturday the 28th, day 7 Monday the 30th.
    assert.equal((await postBatch(service, [invoice('F-1')])).status, 200)
    assert.equal(
      service.db.sqlite.prepare("SELECT returns_deadline FROM manifests WHERE numero = '905112'").pluck().get(),
      '2026-11-30',
    )
  }))
