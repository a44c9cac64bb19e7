import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Answer } from '../support/batches.ts'
import { F2, requestAs, seedConsoleReturns, type ConsoleWho } from '../support/console.ts'
import { operator } from '../support/operator.ts'
import { withService } from '../support/service.ts'

/** The console's returns list: GET devoluciones with desde/hasta, buscar, almacen and pagina (seed: test/support/console.ts). */
const ids = (items: Array<{ id: string }>) => items.map((item) => item.id)

const rows: Array<{ name: string; who: ConsoleWho; query: string; status: number; expect: (body: Answer) => void }> = [
  {
    name: 'an impossible date',
    who: 'clave',
    query: 'desde=2026-02-30&pagina=1',
    status: 422,
    expect: (body) =>
      assert.equal(
        body.message,
        'El parámetro desde debe ser una fecha real en formato YYYY-MM-DD (se recibió "2026-02-30").',
      ),
  },
  {
    name: 'an unknown state',
    who: 'clave',
    query: 'estado=pendiente&pagina=1',
    status: 422,
    expect: (body) =>
      assert.equal(body.message, 'El parámetro estado tiene un valor no admitido (se recibió "pendiente").'),
  },
  {
    name: 'every return, newest first, with the total',
    who: 'clave',
    query: 'pagina=1',
    status: 200,
    expect: (body) =>
      assert.deepEqual(
        [ids(body.devoluciones), body.pagina, body.por_pagina, body.total, body.hay_mas],
        [['3', '2', '1'], 1, 100, 3, false],
      ),
  },
  {
    name: 'pending ones',
    who: 'clave',
    query: 'estado=pending&pagina=1',
    status: 200,
    expect: (body) => assert.deepEqual([ids(body.devoluciones), body.total], [['3', '2'], 2]),
  },
  {
    name: 'registered from a date',
    who: 'clave',
    query: 'desde=2026-11-23&pagina=1',
    status: 200,
    expect: (body) => assert.deepEqual(ids(body.devoluciones), ['3']),
  },
  {
    name: 'registered up to a date',
    who: 'clave',
    query: 'hasta=2026-11-22&pagina=1',
    status: 200,
    expect: (body) => assert.deepEqual(ids(body.devoluciones), ['2', '1']),
  },
  {
    name: 'a range and fecha together',
    who: 'clave',
    query: 'desde=2026-11-22&hasta=2026-11-23&fecha=2026-11-22&pagina=1',
    status: 200,
    expect: (body) => assert.deepEqual(ids(body.devoluciones), ['2', '1']),
  },
  {
    name: 'by client name, any case',
    who: 'clave',
    query: 'buscar=ahorro&pagina=1',
    status: 200,
    expect: (body) => assert.deepEqual(ids(body.devoluciones), ['2']),
  },
  {
    name: 'by part of the invoice number',
    who: 'clave',
    query: 'buscar=912001&pagina=1',
    status: 200,
    expect: (body) => assert.deepEqual(ids(body.devoluciones), ['3', '1']),
  },
  {
    name: 'by manifest',
    who: 'clave',
    query: 'buscar=905112&pagina=1',
    status: 200,
    expect: (body) => assert.deepEqual(ids(body.devoluciones), ['3', '2', '1']),
  },
  {
    name: 'by warehouse',
    who: 'clave',
    query: 'almacen=OAS&pagina=1',
    status: 200,
    expect: (body) => assert.deepEqual(ids(body.devoluciones), ['2']),
  },
  {
    name: "a row: the return and its invoice's client and warehouse",
    who: 'clave',
    query: 'buscar=ahorro&pagina=1',
    status: 200,
    expect: (body) =>
      assert.deepEqual(body.devoluciones[0], {
        id: '2',
        factura: F2,
        manifiesto: '905112',
        concepto: 'DANADO',
        conceptoDescripcion: 'Producto dañado',
        fecha: '2026-11-22T09:30:00',
        estado: 'pending',
        total: body.devoluciones[0].lineas[0].lineTotal,
        fechaProcesado: null,
        horaProcesado: null,
        registradaPor: 'Ana Lucía Fiallos',
        registradaEn: '2026-11-22 10:00:00',
        aprobadaPor: null,
        cerradaPor: null,
        cerrada_en: null,
        motivo: null,
        lineas: body.devoluciones[0].lineas,
        clienteid: '40112233',
        cliente: 'SUPER EL AHORRO',
        almacen: 'OAS',
      }),
  },
  {
    name: 'an operator of OAC: its returns only',
    who: 'op-oac',
    query: 'pagina=1',
    status: 200,
    expect: (body) => assert.deepEqual([ids(body.devoluciones), body.total], [['3', '1'], 2]),
  },
  {
    name: 'an operator of OAC asking for OAS: none',
    who: 'op-oac',
    query: 'almacen=OAS&pagina=1',
    status: 200,
    expect: (body) => assert.deepEqual([body.devoluciones, body.total], [[], 0]),
  },
  {
    name: 'without pagina: the array of always, by id, filters applied',
    who: 'clave',
    query: 'buscar=912001',
    status: 200,
    expect: (body) => assert.deepEqual(ids(body as Array<{ id: string }>), ['1', '3']),
  },
]

for (const row of rows) {
  test(`returns list: ${row.name} (${row.who}: ?${row.query}) → ${row.status}`, () =>
    withService({}, async (service) => {
      await seedConsoleReturns(service)
      const { status, body } = await requestAs(service, row.who, 'GET', `devoluciones?${row.query}`)
      assert.equal(status, row.status, JSON.stringify(body))
      row.expect(body)
    }))
}

test('returns list: 203 returns page by 100, and the last page says there is no next one', () =>
  withService({}, async (service) => {
    await seedConsoleReturns(service)
    service.db.sqlite.exec(`
      WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < 200)
      INSERT INTO returns (invoice_id, reason_codigo, fecha, estado, total_cents, listed_lines, registered_at, registered_date, registered_by)
      SELECT invoice_id, reason_codigo, fecha, 'rejected', total_cents, listed_lines, registered_at, registered_date, registered_by FROM returns, n WHERE id = 2`)
    const pages = await Promise.all(
      [1, 2, 3].map(async (page) => (await operator(service, 'GET', `devoluciones?pagina=${page}`)).body),
    )
    assert.deepEqual(
      pages.map((page) => [page.devoluciones.length, page.devoluciones[0].id, page.total, page.hay_mas]),
      [
        [100, '203', 203, true],
        [100, '103', 203, true],
        [3, '3', 203, false],
      ],
    )
  }))
