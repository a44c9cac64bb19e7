import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { databaseState, invoice, type Answer, type Invoice } from '../support/batches.ts'
import { OPERATOR_KEY, startTestService, type TestService } from '../support/service.ts'

const HEADER_FIELDS = [
  'Nfactura',
  'NumeroManifiesto',
  'FechaFactura',
  'Almacen',
  'Vendedorid',
  'Clienteid',
  'Cliente',
  'Total',
  'DiasCred',
  'EstadoFactura',
  'Isv15',
  'Rtn',
  'Latitud',
  'LineasFactura',
]
const LINE_FIELDS = [
  'NumeroLinea',
  'ProductoId',
  'ProductoDesc',
  'Total',
  'CantidadCaja',
  'CantidadFracciones',
  'FactorConversion',
  'UniVenta',
  'Id',
]

/** Number texts JSON.stringify cannot write: they are put into the body verbatim. */
const RAW_NUMBERS = [
  '1e400',
  '-1e400',
  '1e-400',
  '0.0004',
  '5e12',
  '-5e12',
  '1e303',
  '12345678901234567890',
  '9007199254740993',
  '-0',
  '1.5e-7',
  '0.1',
]
const raw = (text: string) => `@@${text}@@`

const nested = fc.integer({ min: 1, max: 200 }).map((depth) => {
  let value: unknown = 'fondo'
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { x: value }
  return value
})
const oddText = fc.constantFrom(
  '\ud800',
  'a\udfffb',
  '\ud83d',
  '😀',
  '\u0000',
  '\u202e',
  'e\u0301',
  '\ufeff',
  'ñ',
  '\u2028',
  '"\\',
)
const oddValue = fc.oneof(
  fc.jsonValue(),
  fc.string({ maxLength: 5 }),
  fc.constantFrom(
    null,
    '',
    0,
    -1,
    1e308,
    -0,
    true,
    [],
    {},
    '2026-02-30',
    '31/12/2026',
    '2026-11-22T25:00:00Z',
    '0001-01-01',
    'NaN',
    1.5,
    0.0004,
    5e12,
    1e12,
    -1e12,
    2 ** 53,
    '1e400',
    '96',
    '0x10',
  ),
  fc.constantFrom(...RAW_NUMBERS).map(raw),
  fc.tuple(fc.string({ maxLength: 3 }), oddText).map(([text, odd]) => `${text}${odd}`),
  fc.string({ minLength: 10_000, maxLength: 20_000 }),
  nested,
)
const oddDate = fc.oneof(
  fc.string(),
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
  fc.constantFrom('2026-11-22', '22/11/2026', '2026-13-01', '2026-11-22T00:00:00.000+25:00'),
)

type Corruption = (batch: Invoice[]) => void

/** The invoice at a position, when an earlier corruption has not already replaced it with a non-object. */
function objectAt(batch: Invoice[], i: number): Invoice {
  const entry = batch[i % batch.length]
  return entry !== null && typeof entry === 'object' && !Array.isArray(entry) ? entry : {}
}
const corruption: fc.Arbitrary<Corruption> = fc.oneof(
  fc.tuple(fc.nat(), fc.constantFrom(...HEADER_FIELDS), oddValue).map(([i, field, value]) => (batch: Invoice[]) => {
    objectAt(batch, i)[field] = value
  }),
  fc.tuple(fc.nat(), fc.constantFrom(...HEADER_FIELDS)).map(([i, field]) => (batch: Invoice[]) => {
    delete objectAt(batch, i)[field]
  }),
  fc
    .tuple(fc.nat(), fc.nat(), fc.constantFrom(...LINE_FIELDS), oddValue)
    .map(([i, j, field, value]) => (batch: Invoice[]) => {
      const lines = objectAt(batch, i).LineasFactura
      const line = Array.isArray(lines) && lines.length > 0 ? (lines[j % lines.length] as unknown) : null
      if (line !== null && typeof line === 'object') (line as Record<string, unknown>)[field] = value
    }),
  fc.tuple(fc.nat(), oddText, oddValue).map(([i, key, value]) => (batch: Invoice[]) => {
    objectAt(batch, i)[`Extra${key}`] = value
  }),
  fc.tuple(fc.nat(), oddDate).map(([i, date]) => (batch: Invoice[]) => {
    objectAt(batch, i).FechaFactura = date
  }),
  fc.tuple(fc.nat(), fc.jsonValue()).map(([i, value]) => (batch: Invoice[]) => {
    batch[i % batch.length] = value as Invoice
  }),
  fc.nat().map((i) => (batch: Invoice[]) => {
    batch.push(structuredClone(batch[i % batch.length]!))
  }),
  fc.tuple(fc.nat(), fc.constantFrom('ZZZ', 'oac', '', 'OAS')).map(([i, almacen]) => (batch: Invoice[]) => {
    objectAt(batch, i).Almacen = almacen
  }),
)

/** How the batch's JSON text is turned into bytes: as UTF-8, or (wrongly) as Latin-1. */
const encoding = fc.constantFrom<'utf8' | 'latin1'>('utf8', 'utf8', 'utf8', 'latin1')

/** A valid batch of 1–4 invoices over 1–2 manifests, with numbers drawn from a small pool so runs collide. */
const validBatch = fc
  .uniqueArray(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 4 })
  .chain((numbers) =>
    fc.tuple(
      fc.constant(numbers),
      fc.array(fc.constantFrom('905301', '905302'), { minLength: numbers.length, maxLength: numbers.length }),
    ),
  )
  .map(([numbers, manifests]) => numbers.map((n, i) => invoice(`P-${n}`, manifests[i]!)))

async function send(
  service: TestService,
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; text: string }> {
  const response = await service.fetch(path, {
    ...init,
    headers: {
      OperatorKey: OPERATOR_KEY,
      Operador: 'Propiedad',
      'Content-Type': 'application/json',
      ...(init.headers as Record<string, string>),
    },
  })
  return { status: response.status, text: await response.text() }
}

/** Every read the warehouse and the client make of what a batch stored: each answers parseable JSON. */
async function assertReadable(service: TestService, batch: Invoice[]): Promise<void> {
  const first = batch.find((entry) => entry !== null && typeof entry === 'object' && typeof entry.Nfactura === 'string')
  if (first) {
    // A return on whatever the batch stored, approved at once, so the client's listing shows its numbers.
    await send(service, '/api/v1/operador/devoluciones', {
      method: 'POST',
      body: JSON.stringify({
        factura: first.Nfactura,
        concepto: 'PRUEBA',
        fecha: '2026-11-22',
        lineas: [{ numeroLinea: 1, cajas: 1 }],
        aprobar: true,
      }),
    })
    const invoiceView = await send(service, `/api/v1/operador/facturas/${encodeURIComponent(String(first.Nfactura))}`)
    assert.ok(invoiceView.status === 200 || invoiceView.status === 404, `facturas: ${invoiceView.status}`)
    JSON.parse(invoiceView.text)
  }
  const listing = await service.client('/api/v1/devoluciones/listar', { headers: { Fecha: '22/11/2026' } })
  assert.equal(listing.status, 200)
  JSON.parse(await listing.text())
  const status = await service.client('/api/v1/manifiestos/905301/estado')
  assert.ok(status.status === 200 || status.status === 404, `estado: ${status.status}`)
  JSON.parse(await status.text())
  for (const path of [
    '/api/v1/operador/manifiestos',
    '/api/v1/operador/manifiestos/905301',
    '/api/v1/operador/conflictos',
    '/api/v1/operador/lotes',
    '/api/v1/operador/devoluciones',
  ]) {
    const read = await send(service, path)
    assert.ok(read.status === 200 || read.status === 404, `${path}: ${read.status}`)
    JSON.parse(read.text)
  }
}

test('intake property: odd numbers, odd text, wrong types and encodings at random places → 200 or 422 (never 500); refusals write nothing; what is stored stays readable', async () => {
  const service = await startTestService({
    config: {
      rateLimits: {
        insertPerMinute: 100_000,
        returnsPerMinute: 100_000,
        generalPerMinute: 100_000,
        operatorPerMinute: 100_000,
      },
    },
  })
  try {
    assert.equal(
      (
        await send(service, '/api/v1/operador/conceptos', {
          method: 'POST',
          body: JSON.stringify({ codigo: 'PRUEBA', descripcion: 'Prueba' }),
        })
      ).status,
      201,
    )
    await fc.assert(
      fc.asyncProperty(
        validBatch,
        fc.array(corruption, { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        encoding,
        async (batch, corruptions, protoKeys, bytesAs) => {
          for (const corrupt of corruptions) corrupt(batch)
          let text = JSON.stringify(batch).replace(/"@@([^@"]+)@@"/g, '$1')
          if (protoKeys)
            text = text.replace('{', '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},')
          const before = databaseState(service.db)
          const response = await service.client('/api/v1/facturas/insertar', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: Buffer.from(text, bytesAs),
          })
          const body = (await response.json()) as Answer
          const { status } = response
          assert.ok(status === 200 || status === 422, `status ${status}: ${JSON.stringify(body).slice(0, 500)}`)
          assert.equal(body.success, status === 200)
          if (status === 422 && body.batch_uuid === undefined) {
            assert.deepEqual(databaseState(service.db), before, 'a refusal before step 8 writes nothing')
          }
          if (status === 422 && body.batch_uuid !== undefined) {
            assert.ok(body.resumen.rechazadas > 0)
            const added = databaseState(service.db).invoices - before.invoices
            assert.equal(added, body.resumen.insertadas, 'only the accepted manifests wrote invoices')
          }
          if (status === 200 || body.batch_uuid !== undefined) await assertReadable(service, batch)
          assert.equal(({} as Record<string, unknown>).polluted, undefined)
        },
      ),
      { numRuns: 200, seed: 20261123 },
    )
  } finally {
    await service.close()
  }
})
