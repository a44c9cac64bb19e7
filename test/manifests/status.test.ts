import assert from 'node:assert/strict'
import { test } from 'node:test'
import { insertBatchRow, insertInvoiceRow, insertManifestRow } from '../support/fixtures.ts'
import { refusal, testScenarios } from '../support/scenarios.ts'
import { withService, type TestService } from '../support/service.ts'

/** Manifest 905112 created at 2026-11-22T05:30Z = 23:30 of the 21st in Honduras, with invoices. */
function seedManifest(totals: number[], estado: 'imported' | 'closed' = 'imported') {
  return (service: TestService) => {
    const batchId = insertBatchRow(service.db)
    const manifestId = insertManifestRow(service.db, {
      numero: '905112',
      createdAt: '2026-11-22T05:30:00.000Z',
      estado,
      batchId,
    })
    totals.forEach((total, i) => insertInvoiceRow(service.db, { nfactura: `F-${i + 1}`, manifestId, batchId, total }))
  }
}

const status = (total_facturas: number, total_importe: number, estado = 'imported') => ({
  success: true,
  manifiesto: '905112',
  estado,
  resumen: { total_facturas, total_importe, fecha_ingreso: '2026-11-21 23:30:00' },
})

const notFound = (numero: string) => refusal(`El manifiesto ${numero} no existe.`)
const STATUS = { path: '/api/v1/manifiestos/905112/estado' }

testScenarios(
  'manifest status',
  [
    {
      name: 'unknown manifest → 404',
      request: { path: '/api/v1/manifiestos/123/estado' },
      status: 404,
      body: notFound('123'),
    },
    {
      name: 'letters in the number → 404',
      setup: seedManifest([1]),
      request: { path: '/api/v1/manifiestos/905112a/estado' },
      status: 404,
      body: notFound('905112a'),
    },
    {
      name: 'negative number → 404',
      request: { path: '/api/v1/manifiestos/-5/estado' },
      status: 404,
      body: notFound('-5'),
    },
    {
      name: 'encoded space → 404',
      request: { path: '/api/v1/manifiestos/%20905112/estado' },
      status: 404,
      body: notFound(' 905112'),
    },
    {
      name: 'manifest without invoices → zeros',
      setup: seedManifest([]),
      request: STATUS,
      status: 200,
      body: status(0, 0),
    },
    {
      name: 'totals summed exactly (0.1 + 0.2 = 0.3)',
      setup: seedManifest([0.1, 0.2]),
      request: STATUS,
      status: 200,
      body: status(2, 0.3),
    },
    {
      name: 'rounded once, half away from zero (1.005 + 2.0001 → 3.01)',
      setup: seedManifest([1.005, 2.0001]),
      request: STATUS,
      status: 200,
      body: status(2, 3.01),
    },
    {
      name: 'three-decimal parts summed before rounding (3 × 0.335 = 1.005 → 1.01)',
      setup: seedManifest([0.335, 0.335, 0.335]),
      request: STATUS,
      status: 200,
      body: status(3, 1.01),
    },
    {
      name: 'large realistic amounts',
      setup: seedManifest([15432.75, 98000.1, 0.15]),
      request: STATUS,
      status: 200,
      body: status(3, 113433),
    },
    {
      name: 'closed manifest shows estado closed',
      setup: seedManifest([10], 'closed'),
      request: STATUS,
      status: 200,
      body: status(1, 10, 'closed'),
    },
  ],
  { as: 'client' },
)

test('manifest status: only the asked manifest is counted', () =>
  withService({}, async (service) => {
    seedManifest([5, 6])(service)
    const batchId = insertBatchRow(service.db, 'otro-lote')
    const other = insertManifestRow(service.db, { numero: '905113', createdAt: '2026-11-22T16:00:00.000Z', batchId })
    insertInvoiceRow(service.db, { nfactura: 'G-1', manifestId: other, batchId, total: 100 })
    const response = await service.client('/api/v1/manifiestos/905113/estado')
    assert.deepEqual(await response.json(), {
      success: true,
      manifiesto: '905113',
      estado: 'imported',
      resumen: { total_facturas: 1, total_importe: 100, fecha_ingreso: '2026-11-22 10:00:00' },
    })
  }))
