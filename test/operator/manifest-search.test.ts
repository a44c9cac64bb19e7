import assert from 'node:assert/strict'
import { test } from 'node:test'
import { asPerson, createAccount, sessionOf } from '../support/accounts.ts'
import { exampleBatch, invoice, postBatch, type Answer } from '../support/batches.ts'
import { insertBatchRow, insertInvoiceRow, insertManifestRow } from '../support/fixtures.ts'
import { operator } from '../support/operator.ts'
import { withService, type TestService } from '../support/service.ts'
import { CLOSE_UNSETTLED } from '../support/settlement.ts'

/**
 * The console's manifest list (GET manifiestos with pagina, numero, almacen) and a manifest's
 * invoices (GET manifiestos/{numero}/facturas with buscar, almacen, pagina).
 *
 * Seed: manifests 800000…800054 (one OAC invoice each, created a minute apart, 800054 newest),
 * then through the API 905112 (the example: F1 OAC "PULPERIA LA ESPERANZA", F2 OAS "SUPER EL
 * AHORRO", both Clienteid 40112233 and NumeroRuta "118  ") and 905113 (F-3, OAC), and the example
 * resent with a changed Tel: a pending conflict on F1 and one on F2.
 */
const F1 = '001-001-01-00912001'
const F2 = '001-001-01-00912002'

async function seed(service: TestService): Promise<void> {
  const batchId = insertBatchRow(service.db)
  for (let index = 0; index < 55; index++) {
    const createdAt = new Date(Date.UTC(2026, 10, 21, 16, index)).toISOString()
    const manifestId = insertManifestRow(service.db, { numero: String(800000 + index), createdAt, batchId })
    insertInvoiceRow(service.db, { nfactura: `P-${index}`, manifestId, batchId, total: 10 })
  }
  assert.equal((await postBatch(service, exampleBatch())).status, 200)
  service.clock.set('2026-11-22T16:05:00Z')
  assert.equal(
    (
      await postBatch(service, [
        invoice('F-3', '905113', { Clienteid: '50000001', Cliente: 'Comercial Ñandú', NumeroRuta: 'R-7' }),
      ])
    ).status,
    200,
  )
  assert.equal(
    (
      await postBatch(
        service,
        exampleBatch().map((entry) => ({ ...entry, Tel: '00000000' })),
      )
    ).status,
    200,
  )
  await createAccount(service, 'op-oac', 'operador', ['OAC'])
  await createAccount(service, 'op-oao', 'operador', ['OAO'])
}

type Who = 'clave' | 'op-oac' | 'op-oao'

async function get(service: TestService, who: Who, path: string): Promise<{ status: number; body: Answer }> {
  if (who === 'clave') return operator(service, 'GET', path)
  return asPerson(service, await sessionOf(service, who), 'GET', path)
}

const numbersOf = (items: Array<{ numero: string }>) => items.map((item) => item.numero)
const descending = (from: number, to: number) =>
  Array.from({ length: from - to + 1 }, (_, index) => String(from - index))

const listRows: Array<{ name: string; who: Who; query: string; status: number; expect: (body: Answer) => void }> = [
  {
    name: 'a page number that is not ≥ 1',
    who: 'clave',
    query: 'pagina=0',
    status: 422,
    expect: (body) =>
      assert.equal(body.message, 'El parámetro pagina debe ser un entero mayor o igual a 1 (se recibió "0").'),
  },
  {
    name: 'a number with letters',
    who: 'clave',
    query: 'numero=90a&pagina=1',
    status: 422,
    expect: (body) => assert.match(body.message, /^El parámetro numero debe ser solo dígitos/),
  },
  {
    name: 'a warehouse code with a space',
    who: 'clave',
    query: 'almacen=O%20A',
    status: 422,
    expect: (body) => assert.match(body.message, /^El parámetro almacen debe ser un código de almacén/),
  },
  {
    name: 'page 1: 50 newest first, the total and a next page',
    who: 'clave',
    query: 'pagina=1',
    status: 200,
    expect: (body) => {
      assert.deepEqual([body.pagina, body.por_pagina, body.total, body.hay_mas], [1, 50, 57, true])
      assert.deepEqual(numbersOf(body.manifiestos), ['905113', '905112', ...descending(800054, 800007)])
    },
  },
  {
    name: 'the last page',
    who: 'clave',
    query: 'pagina=2',
    status: 200,
    expect: (body) => {
      assert.deepEqual([body.pagina, body.total, body.hay_mas], [2, 57, false])
      assert.deepEqual(numbersOf(body.manifiestos), descending(800006, 800000))
    },
  },
  {
    name: 'past the last page: empty, no next',
    who: 'clave',
    query: 'pagina=3',
    status: 200,
    expect: (body) => assert.deepEqual([body.manifiestos, body.total, body.hay_mas], [[], 57, false]),
  },
  {
    name: 'number prefix',
    who: 'clave',
    query: 'numero=9051&pagina=1',
    status: 200,
    expect: (body) => assert.deepEqual([numbersOf(body.manifiestos), body.total], [['905113', '905112'], 2]),
  },
  {
    name: 'whole number',
    who: 'clave',
    query: 'numero=905112&pagina=1',
    status: 200,
    expect: (body) => assert.deepEqual(numbersOf(body.manifiestos), ['905112']),
  },
  {
    name: 'number prefix with dates and state',
    who: 'clave',
    query: 'numero=8000&desde=2026-11-21&hasta=2026-11-21&estado=imported&pagina=1',
    status: 200,
    expect: (body) => assert.equal(body.total, 55),
  },
  {
    name: 'a row: the view plus pending conflicts and warehouses',
    who: 'clave',
    query: 'numero=905112&pagina=1',
    status: 200,
    expect: (body) =>
      assert.deepEqual(body.manifiestos[0], {
        numero: '905112',
        estado: 'imported',
        fecha_ingreso: '2026-11-22 10:00:00',
        cerrado_en: null,
        total_facturas: 2,
        total_importe: 2489.15,
        devoluciones: { cantidad: 0, total_aprobado: 0 },
        plazo_devoluciones: null,
        dias_habiles_restantes: null,
        liquidacion: {
          facturado: 2489.15,
          devuelto: 0,
          a_depositar: 2489.15,
          depositado: 0,
          ajustes: 0,
          diferencia: 2489.15,
          devoluciones_pendientes: 0,
          liquidada: false,
          lista_para_cerrar: false,
          falta: 'Falta depositar L 2,300.18 del almacén OAC y L 188.97 del almacén OAS.',
          por_almacen: [
            {
              almacen: 'OAC',
              facturado: 2300.18,
              devuelto: 0,
              a_depositar: 2300.18,
              depositado: 0,
              ajustes: 0,
              diferencia: 2300.18,
              devoluciones_pendientes: 0,
              sobrepago_justificado: false,
              liquidada: false,
              falta: 'Falta depositar L 2,300.18 del almacén OAC.',
            },
            {
              almacen: 'OAS',
              facturado: 188.97,
              devuelto: 0,
              a_depositar: 188.97,
              depositado: 0,
              ajustes: 0,
              diferencia: 188.97,
              devoluciones_pendientes: 0,
              sobrepago_justificado: false,
              liquidada: false,
              falta: 'Falta depositar L 188.97 del almacén OAS.',
            },
          ],
        },
        conflictos_pendientes: 2,
        almacenes: ['OAC', 'OAS'],
      }),
  },
  {
    name: 'almacen narrows the counts to that warehouse',
    who: 'clave',
    query: 'almacen=OAS&pagina=1',
    status: 200,
    expect: (body) => {
      assert.deepEqual(numbersOf(body.manifiestos), ['905112'])
      assert.deepEqual(
        [
          body.manifiestos[0].total_facturas,
          body.manifiestos[0].total_importe,
          body.manifiestos[0].conflictos_pendientes,
          body.manifiestos[0].almacenes,
        ],
        [1, 188.97, 1, ['OAS']],
      )
    },
  },
  {
    name: 'an operator of OAC sees its part of 905112',
    who: 'op-oac',
    query: 'numero=9051&pagina=1',
    status: 200,
    expect: (body) =>
      assert.deepEqual(
        body.manifiestos.map((row: Answer) => [
          row.numero,
          row.total_facturas,
          row.conflictos_pendientes,
          row.almacenes,
        ]),
        [
          ['905113', 1, 0, ['OAC']],
          ['905112', 1, 1, ['OAC']],
        ],
      ),
  },
  {
    name: "almacen outside one's warehouses: nothing",
    who: 'op-oac',
    query: 'almacen=OAS&pagina=1',
    status: 200,
    expect: (body) => assert.deepEqual([body.manifiestos, body.total, body.hay_mas], [[], 0, false]),
  },
  {
    name: 'an operator of OAO sees none',
    who: 'op-oao',
    query: 'pagina=1',
    status: 200,
    expect: (body) => assert.deepEqual([body.manifiestos, body.total], [[], 0]),
  },
  {
    name: 'without pagina: the array of always, filters applied',
    who: 'clave',
    query: 'numero=9051',
    status: 200,
    expect: (body) => assert.deepEqual(numbersOf(body as Array<{ numero: string }>), ['905112', '905113']),
  },
]

for (const row of listRows) {
  test(`manifest list: ${row.name} (${row.who}: ?${row.query}) → ${row.status}`, () =>
    withService({}, async (service) => {
      await seed(service)
      const { status, body } = await get(service, row.who, `manifiestos?${row.query}`)
      assert.equal(status, row.status, JSON.stringify(body))
      row.expect(body)
    }))
}

const invoiceNumbers = (body: Answer) => body.facturas.map((entry: { factura: string }) => entry.factura)

const invoiceRows: Array<{ name: string; who: Who; path: string; status: number; expect: (body: Answer) => void }> = [
  {
    name: 'an unknown manifest',
    who: 'clave',
    path: '999999/facturas',
    status: 404,
    expect: (body) => assert.deepEqual(body, { success: false, message: 'El manifiesto 999999 no existe.' }),
  },
  {
    name: 'a manifest of other warehouses',
    who: 'op-oao',
    path: '905112/facturas',
    status: 404,
    expect: (body) => assert.deepEqual(body, { success: false, message: 'El manifiesto 905112 no existe.' }),
  },
  {
    name: 'a blank search',
    who: 'clave',
    path: '905112/facturas?buscar=%20%20',
    status: 422,
    expect: (body) =>
      assert.equal(
        body.message,
        'El parámetro buscar debe ser un texto de 1 a 100 caracteres, no en blanco y sin caracteres de control (se recibió "  ").',
      ),
  },
  {
    name: 'an unknown parameter',
    who: 'clave',
    path: '905112/facturas?cliente=x',
    status: 422,
    expect: (body) => assert.match(body.message, /cliente/),
  },
  {
    name: 'every invoice, with its route',
    who: 'clave',
    path: '905112/facturas',
    status: 200,
    expect: (body) => {
      assert.deepEqual([body.pagina, body.por_pagina, body.total, body.hay_mas], [1, 100, 2, false])
      assert.deepEqual(body.facturas[0], {
        factura: F1,
        almacen: 'OAC',
        clienteid: '40112233',
        cliente: 'PULPERIA LA ESPERANZA',
        ruta: '118  ',
        fecha_factura: '2026-11-22',
        total: 2300.18,
        devoluciones_aprobadas: 0,
        conflicto_pendiente: true,
        anulada: false,
        reemision: null,
      })
      assert.deepEqual(invoiceNumbers(body), [F1, F2])
    },
  },
  {
    name: 'by part of the invoice number',
    who: 'clave',
    path: '905112/facturas?buscar=912002',
    status: 200,
    expect: (body) => assert.deepEqual([invoiceNumbers(body), body.total], [[F2], 1]),
  },
  {
    name: 'by client name, any case',
    who: 'clave',
    path: '905112/facturas?buscar=esperanza',
    status: 200,
    expect: (body) => assert.deepEqual(invoiceNumbers(body), [F1]),
  },
  {
    name: 'by Clienteid',
    who: 'clave',
    path: '905112/facturas?buscar=4011223',
    status: 200,
    expect: (body) => assert.deepEqual(invoiceNumbers(body), [F1, F2]),
  },
  {
    name: 'by route',
    who: 'clave',
    path: '905113/facturas?buscar=r-7',
    status: 200,
    expect: (body) => assert.deepEqual(invoiceNumbers(body), ['F-3']),
  },
  {
    name: 'an accented name as written',
    who: 'clave',
    path: `905113/facturas?buscar=${encodeURIComponent('Ñandú')}`,
    status: 200,
    expect: (body) => assert.deepEqual(invoiceNumbers(body), ['F-3']),
  },
  {
    name: '% is a literal character',
    who: 'clave',
    path: '905112/facturas?buscar=%25',
    status: 200,
    expect: (body) => assert.deepEqual([body.facturas, body.total], [[], 0]),
  },
  {
    name: 'no match',
    who: 'clave',
    path: '905112/facturas?buscar=zzz',
    status: 200,
    expect: (body) => assert.deepEqual([body.facturas, body.total, body.hay_mas], [[], 0, false]),
  },
  {
    name: 'by warehouse',
    who: 'clave',
    path: '905112/facturas?almacen=OAS',
    status: 200,
    expect: (body) => assert.deepEqual(invoiceNumbers(body), [F2]),
  },
  {
    name: 'an operator of OAC: only its invoice',
    who: 'op-oac',
    path: '905112/facturas',
    status: 200,
    expect: (body) => assert.deepEqual([invoiceNumbers(body), body.total], [[F1], 1]),
  },
  {
    name: 'an operator of OAC filtering by OAS: none',
    who: 'op-oac',
    path: '905112/facturas?almacen=OAS',
    status: 200,
    expect: (body) => assert.deepEqual([body.facturas, body.total], [[], 0]),
  },
]

for (const row of invoiceRows) {
  test(`manifest invoices: ${row.name} (${row.who}: ${row.path}) → ${row.status}`, () =>
    withService({}, async (service) => {
      await seed(service)
      const { status, body } = await get(service, row.who, `manifiestos/${row.path}`)
      assert.equal(status, row.status, JSON.stringify(body))
      row.expect(body)
    }))
}

test('manifest invoices: a manifest of 230 invoices pages by 100 in arrival order', () =>
  withService({}, async (service) => {
    const batchId = insertBatchRow(service.db)
    const manifestId = insertManifestRow(service.db, {
      numero: '700001',
      createdAt: '2026-11-22T16:00:00.000Z',
      batchId,
    })
    for (let index = 0; index < 230; index++)
      insertInvoiceRow(service.db, { nfactura: `G-${String(index).padStart(3, '0')}`, manifestId, batchId, total: 1 })
    const pages = await Promise.all(
      [1, 2, 3].map((page) => operator(service, 'GET', `manifiestos/700001/facturas?pagina=${page}`)),
    )
    assert.deepEqual(
      pages.map(({ body }) => [body.pagina, body.facturas.length, body.facturas[0].factura, body.total, body.hay_mas]),
      [
        [1, 100, 'G-000', 230, true],
        [2, 100, 'G-100', 230, true],
        [3, 30, 'G-200', 230, false],
      ],
    )
  }))

test('manifest history: GET auditoria?tipo=manifiesto&sujeto=… lists its closing and reopening', () =>
  withService({ config: CLOSE_UNSETTLED }, async (service) => {
    await seed(service)
    assert.equal(
      (await operator(service, 'POST', 'manifiestos/905112/cerrar', { motivo: 'Ruta liquidada' })).status,
      200,
    )
    assert.equal((await operator(service, 'POST', 'manifiestos/905113/cerrar')).status, 200)
    assert.equal(
      (await operator(service, 'POST', 'manifiestos/905112/reabrir', { motivo: 'Faltó una factura' })).status,
      200,
    )
    const { status, body } = await operator(service, 'GET', 'auditoria?tipo=manifiesto&sujeto=905112')
    assert.equal(status, 200)
    assert.deepEqual(
      body.map((entry: Answer) => [entry.accion, entry.sujeto, entry.detalle]),
      [
        ['manifiesto.cerrado', '905112', { motivo: 'Ruta liquidada' }],
        ['manifiesto.reabierto', '905112', { motivo: 'Faltó una factura' }],
      ],
    )
  }))
