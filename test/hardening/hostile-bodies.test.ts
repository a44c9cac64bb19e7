import assert from 'node:assert/strict'
import { test } from 'node:test'
import { databaseState, postBatch } from '../support/batches.ts'
import { withService } from '../support/service.ts'

const INTAKE = { config: { rateLimits: { insertPerMinute: 1000 } } }
const DENSE =
  /^El cuerpo de la solicitud debe ser un arreglo JSON no vacío de facturas\. Este cuerpo tiene demasiados valores JSON para su tamaño \(\d+ objetos o arreglos y \d+ comas en \d+ bytes\); un lote de facturas real tiene muchos menos\. Revise cómo se genera el lote\.$/

/**
 * Issue 10, defect 2: a small malformed batch froze the service (the structure step built every
 * error message before cutting the list) and a large one killed it. Bodies whose JSON would take
 * minutes and gigabytes to build are refused before parsing; error collection stops at its cap.
 * Speed and memory for bodies of every shape up to maxBodyMB are measured by `npm run bench`;
 * the timeouts here only keep a regression from hanging the suite.
 */
const dense = [
  { name: 'a million empty objects (3 MB, once 72 s to answer)', body: `[${Array(1_000_000).fill('{}').join(',')}]` },
  { name: 'four million zeros (8 MB)', body: `[${Array(4_000_000).fill('0').join(',')}]` },
  {
    name: 'two million empty arrays nested in one invoice field',
    body: `[{"Nfactura":"F-1","Extra":[${Array(2_000_000).fill('[]').join(',')}]}]`,
  },
]

for (const scenario of dense) {
  test(`hardening, intake: ${scenario.name} → 422 at once, nothing written`, { timeout: 30_000 }, () =>
    withService(INTAKE, async (service) => {
      const before = databaseState(service.db)
      const { status, body } = await postBatch(service, scenario.body)
      assert.equal(status, 422)
      assert.equal(body.success, false)
      assert.match(body.message, DENSE)
      assert.deepEqual(databaseState(service.db), before)
    }),
  )
}

test(
  'hardening, intake: 100,000 entries that are not invoices → 200 errors listed, counting stops 10,000 further, nothing written',
  { timeout: 30_000 },
  () =>
    withService(INTAKE, async (service) => {
      const before = databaseState(service.db)
      const { status, body } = await postBatch(service, Array(100_000).fill('no soy una factura'))
      assert.equal(status, 422)
      assert.equal(
        body.message,
        'La estructura del lote es inválida (al menos 10200 errores); no se insertó nada. Corrija las facturas indicadas y reenvíe el lote.',
      )
      assert.equal(body.errores.length, 201)
      assert.equal(body.errores[0], 'Factura #1: debe ser un objeto JSON (se recibió "no soy una factura")')
      assert.equal(body.errores[199], 'Factura #200: debe ser un objeto JSON (se recibió "no soy una factura")')
      assert.equal(
        body.errores[200],
        '… y al menos 10000 errores más; no se revisaron las facturas desde la #10201 (el lote tiene 100000)',
      )
      assert.deepEqual(databaseState(service.db), before)
    }),
)
