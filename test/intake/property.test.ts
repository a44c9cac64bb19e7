import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { databaseState, invoice, postBatch, type Invoice } from '../support/batches.ts'
import { startTestService } from '../support/service.ts'

const HEADER_FIELDS = ['Nfactura', 'NumeroManifiesto', 'FechaFactura', 'Almacen', 'Vendedorid', 'Clienteid', 'Cliente', 'Total', 'DiasCred', 'EstadoFactura', 'Isv15', 'Rtn', 'Latitud', 'LineasFactura']
const LINE_FIELDS = ['NumeroLinea', 'ProductoId', 'ProductoDesc', 'Total', 'CantidadCaja', 'FactorConversion', 'UniVenta', 'Id']

const nested = fc.integer({ min: 1, max: 200 }).map((depth) => {
  let value: unknown = 'fondo'
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { x: value }
  return value
})
const oddValue = fc.oneof(
  fc.jsonValue(),
  fc.string({ maxLength: 5 }),
  fc.constantFrom(null, '', 0, -1, 1e308, -0, true, [], {}, '2026-02-30', '31/12/2026', '2026-11-22T25:00:00Z', '0001-01-01', 'NaN'),
  fc.string({ minLength: 10_000, maxLength: 20_000 }),
  nested,
)
const oddDate = fc.oneof(fc.string(), fc.date({ noInvalidDate: true }).map((date) => date.toISOString()), fc.constantFrom('2026-11-22', '22/11/2026', '2026-13-01', '2026-11-22T00:00:00.000+25:00'))

type Corruption = (batch: Invoice[]) => void
const corruption: fc.Arbitrary<Corruption> = fc.oneof(
  fc.tuple(fc.nat(), fc.constantFrom(...HEADER_FIELDS), oddValue).map(([i, field, value]) => (batch: Invoice[]) => {
    batch[i % batch.length]![field] = value
  }),
  fc.tuple(fc.nat(), fc.constantFrom(...HEADER_FIELDS)).map(([i, field]) => (batch: Invoice[]) => {
    delete batch[i % batch.length]![field]
  }),
  fc.tuple(fc.nat(), fc.nat(), fc.constantFrom(...LINE_FIELDS), oddValue).map(([i, j, field, value]) => (batch: Invoice[]) => {
    const lines = batch[i % batch.length]!.LineasFactura
    if (Array.isArray(lines) && lines.length > 0) (lines[j % lines.length] as Record<string, unknown>)[field] = value
  }),
  fc.tuple(fc.nat(), oddDate).map(([i, date]) => (batch: Invoice[]) => {
    batch[i % batch.length]!.FechaFactura = date
  }),
  fc.tuple(fc.nat(), fc.jsonValue()).map(([i, value]) => (batch: Invoice[]) => {
    batch[i % batch.length] = value as Invoice
  }),
  fc.nat().map((i) => (batch: Invoice[]) => {
    batch.push(structuredClone(batch[i % batch.length]!))
  }),
  fc.tuple(fc.nat(), fc.constantFrom('ZZZ', 'oac', '', 'OAS')).map(([i, almacen]) => (batch: Invoice[]) => {
    batch[i % batch.length]!.Almacen = almacen
  }),
)

/** A valid batch of 1–4 invoices over 1–2 manifests, with numbers drawn from a small pool so runs collide. */
const validBatch = fc
  .uniqueArray(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 4 })
  .chain((numbers) => fc.tuple(fc.constant(numbers), fc.array(fc.constantFrom('905301', '905302'), { minLength: numbers.length, maxLength: numbers.length })))
  .map(([numbers, manifests]) => numbers.map((n, i) => invoice(`P-${n}`, manifests[i]!)))

test('intake property: random corruptions of a valid batch never produce a 500, and rejections write nothing', async () => {
  const service = await startTestService({ config: { rateLimits: { insertPerMinute: 100_000 } } })
  try {
    await fc.assert(
      fc.asyncProperty(validBatch, fc.array(corruption, { minLength: 1, maxLength: 3 }), fc.boolean(), async (batch, corruptions, protoKeys) => {
        for (const corrupt of corruptions) corrupt(batch)
        let text = JSON.stringify(batch)
        if (protoKeys) text = text.replace('{', '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},')
        const before = databaseState(service.db)
        const { status, body } = await postBatch(service, text)
        assert.ok(status === 200 || status === 422, `status ${status}: ${JSON.stringify(body).slice(0, 500)}`)
        assert.equal(body.success, status === 200)
        if (status === 422 && body.batch_uuid === undefined) {
          assert.deepEqual(databaseState(service.db), before, 'a rejection before step 8 writes nothing')
        }
        if (status === 422 && body.batch_uuid !== undefined) {
          assert.ok(body.resumen.rechazadas > 0)
          const rejected = new Set((body.manifiestos_rechazados as Array<{ manifiesto: string }>).map((entry) => entry.manifiesto))
          const added = databaseState(service.db).invoices - before.invoices
          assert.equal(added, body.resumen.insertadas, 'only the accepted manifests wrote invoices')
          assert.ok(rejected.size > 0)
        }
        assert.equal(({} as Record<string, unknown>).polluted, undefined)
      }),
      { numRuns: 150, seed: 20261122 },
    )
  } finally {
    await service.close()
  }
})
