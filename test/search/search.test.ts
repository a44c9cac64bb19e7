import assert from 'node:assert/strict'
import { test } from 'node:test'
import { asPerson, createAccount, sessionOf } from '../support/accounts.ts'
import { invoice, postBatch, type Answer } from '../support/batches.ts'
import { operator } from '../support/operator.ts'
import { withService, type TestService } from '../support/service.ts'
import { CLOSE_UNSETTLED } from '../support/settlement.ts'

/**
 * GET operador/buscar (issue 41): the header search. Seed, through the intake and the API:
 * manifest 905200 (closed afterwards) with A-1 "FARMACIA DILCIA ESPINAL MEJÍA" (OAC, RTN
 * 08011999123456, route R-12) and A-2 "PULPERIA LA ESPERANZA" (OAS); manifest 905201 with
 * 001-001-01-00912001 "FARMACIA DILCIA ESPINAL MEJÍA" (OAC) — the newest — and a return on A-1;
 * A-2's client renamed by the supplier, held and accepted (the stored version replaced), which the index follows; then 905200
 * is closed.
 */
async function seed(service: TestService): Promise<void> {
  const ok = async (body: unknown) => assert.equal((await postBatch(service, body)).status, 200)
  await ok([
    invoice('A-1', '905200', {
      Cliente: 'FARMACIA DILCIA ESPINAL MEJÍA',
      Clienteid: '30001',
      Rtn: '08011999123456',
      NumeroRuta: 'R-12',
      Almacen: 'OAC',
    }),
    invoice('A-2', '905200', { Cliente: 'PULPERIA LA ESPERANZA', Clienteid: '30002', Almacen: 'OAS' }),
  ])
  service.clock.set('2026-11-22T16:05:00Z')
  await ok([
    invoice('001-001-01-00912001', '905201', {
      Cliente: 'FARMACIA DILCIA ESPINAL MEJÍA',
      Clienteid: '30001',
      Almacen: 'OAC',
    }),
  ])
  assert.equal(
    (await operator(service, 'POST', 'conceptos', { codigo: 'DANADO', descripcion: 'Producto dañado' })).status,
    201,
  )
  assert.equal(
    (
      await operator(service, 'POST', 'devoluciones', {
        factura: 'A-1',
        concepto: 'DANADO',
        fecha: '2026-11-22T09:30:00',
        lineas: [{ numeroLinea: 1, unidades: 1 }],
      })
    ).status,
    201,
  )
  service.clock.set('2026-11-22T16:10:00Z')
  await ok([invoice('A-2', '905200', { Cliente: 'PULPERIA NUEVA ESPERANZA', Clienteid: '30002', Almacen: 'OAS' })])
  assert.equal((await operator(service, 'POST', 'conflictos/1/aceptar', {})).status, 200)
  assert.equal((await operator(service, 'POST', 'manifiestos/905200/cerrar', {})).status, 200)
  await createAccount(service, 'op-oac', 'operador', ['OAC'])
}

type Who = 'nadie' | 'clave' | 'op-oac'

async function search(service: TestService, who: Who, query: string): Promise<{ status: number; body: Answer }> {
  if (who === 'clave') return operator(service, 'GET', `buscar?${query}`)
  if (who === 'op-oac') return asPerson(service, await sessionOf(service, who), 'GET', `buscar?${query}`)
  const response = await service.fetch(`/api/v1/operador/buscar?${query}`)
  return { status: response.status, body: (await response.json()) as Answer }
}

const invoicesOf = (body: Answer) => (body.facturas.resultados as Array<{ factura: string }>).map((hit) => hit.factura)
const q = (text: string) => `q=${encodeURIComponent(text)}`

const rows: Array<{ name: string; who: Who; query: string; status: number; expect: (body: Answer) => void }> = [
  { name: 'without a key or session', who: 'nadie', query: q('mejia'), status: 401, expect: () => {} },
  { name: 'without q', who: 'clave', query: '', status: 422, expect: (body) => assert.match(body.message, /q/) },
  { name: 'a blank q', who: 'clave', query: q('   '), status: 422, expect: (body) => assert.match(body.message, /q/) },
  {
    name: 'a limit of 0',
    who: 'clave',
    query: `${q('mejia')}&limite=0`,
    status: 422,
    expect: (body) => assert.match(body.message, /limite/),
  },
  {
    name: 'an unknown parameter',
    who: 'clave',
    query: `${q('mejia')}&orden=total`,
    status: 422,
    expect: (body) => assert.match(body.message, /orden/),
  },
  {
    name: 'a search without letters or digits finds nothing',
    who: 'clave',
    query: q('%%'),
    status: 200,
    expect: (body) =>
      assert.deepEqual(body, {
        q: '',
        facturas: { resultados: [], hay_mas: false },
        manifiestos: { resultados: [], hay_mas: false },
        devoluciones: { resultados: [], hay_mas: false },
      }),
  },
  {
    name: 'a client typed without accents and in another order, in an open and a closed manifest, newest first, with client, manifest, date and total',
    who: 'clave',
    query: q('mejia espinal'),
    status: 200,
    expect: (body) => {
      assert.equal(body.q, 'mejia espinal')
      assert.deepEqual(invoicesOf(body), ['001-001-01-00912001', 'A-1'])
      assert.deepEqual(body.facturas.resultados[1], {
        factura: 'A-1',
        cliente: 'FARMACIA DILCIA ESPINAL MEJÍA',
        clienteid: '30001',
        almacen: 'OAC',
        manifiesto: '905200',
        manifiesto_estado: 'closed',
        fecha_factura: '2026-11-22',
        total: 2300.18,
        anulada: false,
      })
      assert.deepEqual(
        body.devoluciones.resultados.map((hit: Answer) => [hit.id, hit.factura, hit.estado, hit.manifiesto]),
        [['1', 'A-1', 'pending', '905200']],
      )
      assert.deepEqual(body.manifiestos.resultados, [])
    },
  },
  {
    name: 'by RTN',
    who: 'clave',
    query: q('08011999123456'),
    status: 200,
    expect: (body) => assert.deepEqual(invoicesOf(body), ['A-1']),
  },
  {
    name: 'by route, as written',
    who: 'clave',
    query: q('R-12'),
    status: 200,
    expect: (body) => assert.deepEqual(invoicesOf(body), ['A-1']),
  },
  {
    name: 'by client code',
    who: 'clave',
    query: q('30002'),
    status: 200,
    expect: (body) => assert.deepEqual(invoicesOf(body), ['A-2']),
  },
  {
    name: 'the client as the supplier renamed it (the index follows an accepted version)',
    who: 'clave',
    query: q('nueva esperanza'),
    status: 200,
    expect: (body) => assert.deepEqual(invoicesOf(body), ['A-2']),
  },
  {
    name: 'the old name no longer finds it',
    who: 'clave',
    query: q('pulperia la esperanza'),
    status: 200,
    expect: (body) => assert.deepEqual(invoicesOf(body), []),
  },
  {
    name: 'the end of an invoice number without zeros',
    who: 'clave',
    query: q('912001'),
    status: 200,
    expect: (body) => assert.deepEqual(invoicesOf(body), ['001-001-01-00912001']),
  },
  {
    name: 'the exact number comes first, before newer matches',
    who: 'clave',
    query: q('A-1'),
    status: 200,
    expect: (body) => assert.deepEqual(invoicesOf(body)[0], 'A-1'),
  },
  {
    name: 'a manifest number: the manifests beginning with it, with their totals, and their invoices',
    who: 'clave',
    query: q('90520'),
    status: 200,
    expect: (body) => {
      assert.deepEqual(
        body.manifiestos.resultados.map((hit: Answer) => [hit.numero, hit.estado, hit.total_facturas]),
        [
          ['905201', 'imported', 1],
          ['905200', 'closed', 2],
        ],
      )
      assert.deepEqual(invoicesOf(body), ['001-001-01-00912001', 'A-2', 'A-1'])
    },
  },
  {
    name: 'a limit of one: the first of each group, and that there are more',
    who: 'clave',
    query: `${q('90520')}&limite=1`,
    status: 200,
    expect: (body) =>
      assert.deepEqual(
        [invoicesOf(body), body.facturas.hay_mas, body.manifiestos.hay_mas],
        [['001-001-01-00912001'], true, true],
      ),
  },
  {
    name: 'a return by its id',
    who: 'clave',
    query: q('1'),
    status: 200,
    expect: (body) =>
      assert.deepEqual(
        body.devoluciones.resultados.map((hit: Answer) => hit.id),
        ['1'],
      ),
  },
  {
    name: 'an OAC operator does not find the OAS invoice',
    who: 'op-oac',
    query: q('esperanza'),
    status: 200,
    expect: (body) => assert.deepEqual(invoicesOf(body), []),
  },
  {
    name: 'nor counts it in a manifest',
    who: 'op-oac',
    query: q('905200'),
    status: 200,
    expect: (body) => assert.deepEqual([invoicesOf(body), body.manifiestos.resultados[0].total_facturas], [['A-1'], 1]),
  },
]

for (const row of rows) {
  test(`buscar: ${row.name} → ${row.status}`, () =>
    withService({ config: CLOSE_UNSETTLED }, async (service) => {
      await seed(service)
      const answer = await search(service, row.who, row.query)
      assert.equal(answer.status, row.status, JSON.stringify(answer.body))
      row.expect(answer.body)
    }))
}

test('buscar: the index is written in the batch transaction: a batch that fails leaves no word of it', () =>
  withService({ config: CLOSE_UNSETTLED }, async (service) => {
    await seed(service)
    const before = service.db.sqlite.prepare('SELECT count(*) FROM invoice_search_docsize').pluck().get()
    // Two invoices with the same number in one batch: refused whole (422), nothing written.
    const refused = await postBatch(service, [
      invoice('Z-1', '905300', { Cliente: 'BODEGA ZACARÍAS' }),
      invoice('Z-1', '905300', { Cliente: 'BODEGA ZACARÍAS' }),
    ])
    assert.equal(refused.status, 422)
    assert.equal(service.db.sqlite.prepare('SELECT count(*) FROM invoice_search_docsize').pluck().get(), before)
    assert.deepEqual(invoicesOf((await search(service, 'clave', q('zacarias'))).body), [])
  }))
