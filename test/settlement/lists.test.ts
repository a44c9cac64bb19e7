import assert from 'node:assert/strict'
import { test } from 'node:test'
import { withService, type TestService } from '../support/service.ts'
import {
  acceptBatch,
  as,
  createPeople,
  deposit,
  download,
  lineInvoice,
  returnOf,
  seedReason,
  type Who,
} from '../support/settlement.ts'
import { readFirstSheet } from '../support/xlsx.ts'

/**
 * The lists of the money (issue 40): manifests by where their settlement stands and by diferencia,
 * deposits by slip date, bank, warehouse and day registered with their totals (and their export),
 * and Inicio's money by age. Today is 2026-11-22 (Honduras); the manifests arrived at 10:00 on:
 *   905101 11-01 OAC 100 ............. nothing deposited            (21 days, L 100 missing)
 *   905102 11-12 OAC 200 ............. 1: L 150, 11-15, BAC         (10 days, L 50 missing)
 *   905103 11-17 OAC 50 + OAS 30 ..... 2: L 50 OAC Ficohsa, 3: L 30 OAS BAC, both 11-18  (settled)
 *   905104 11-20 OAS 80 ............. 4: L 90, 11-21, Banpaís, justified                  (settled, over)
 *   905105 11-21 OAC 10 ............. 5: L 10, 11-22, Ficohsa; closed
 *   905106 11-22 OAC 40 ............. 6: L 5, 11-22, BAC, cancelled; a pending return     (today, L 40 missing)
 * Every deposit was registered today.
 */
async function seed(service: TestService): Promise<void> {
  const arrivals: Array<[string, string, Array<[string, number]>]> = [
    ['2026-11-01', '905101', [['OAC', 100]]],
    ['2026-11-12', '905102', [['OAC', 200]]],
    [
      '2026-11-17',
      '905103',
      [
        ['OAC', 50],
        ['OAS', 30],
      ],
    ],
    ['2026-11-20', '905104', [['OAS', 80]]],
    ['2026-11-21', '905105', [['OAC', 10]]],
    ['2026-11-22', '905106', [['OAC', 40]]],
  ]
  for (const [day, numero, parts] of arrivals) {
    service.clock.set(`${day}T16:00:00Z`)
    await acceptBatch(
      service,
      parts.map(([almacen, total], i) => ({
        ...lineInvoice(`F-${numero}-${i}`, numero, almacen, total),
        FechaFactura: `${day}T00:00:00.000Z`,
      })),
    )
  }
  await createPeople(service)
  await seedReason(service)
  const slip = (
    monto: number,
    fecha: string,
    banco: string,
    referencia: string,
    more: Record<string, unknown> = {},
  ) => ({ monto, fecha, banco, referencia, ...more })
  await deposit(service, '905102', slip(150, '2026-11-15', 'BAC Credomatic', 'D-1'))
  await deposit(service, '905103', slip(50, '2026-11-18', 'Ficohsa', 'D-2', { almacen: 'OAC' }))
  await deposit(service, '905103', slip(30, '2026-11-18', 'BAC Credomatic', 'D-3', { almacen: 'OAS' }))
  await deposit(
    service,
    '905104',
    slip(90, '2026-11-21', 'Banpaís', 'D-4', { justificacion: 'Depositó también el vale de la semana' }),
  )
  await deposit(service, '905105', slip(10, '2026-11-22', 'Ficohsa', 'D-5'))
  assert.equal((await as(service, 'sup', 'POST', 'manifiestos/905105/cerrar')).status, 200)
  const cancelled = await deposit(service, '905106', slip(5, '2026-11-22', 'BAC Credomatic', 'D-6'))
  assert.equal(
    (await as(service, 'fin-oac', 'POST', `depositos/${cancelled}/anular`, { motivo: 'Era de otra ruta y otro día' }))
      .status,
    200,
  )
  await returnOf(service, 'F-905106-0', 5, 'pending')
}

const manifestRows: Array<{ who: Who; query: string; numeros: string[]; total?: number }> = [
  { who: 'clave', query: 'liquidacion=pendiente&pagina=1', numeros: ['905106', '905102', '905101'], total: 3 },
  { who: 'clave', query: 'liquidacion=lista&pagina=1', numeros: ['905104', '905103'], total: 2 },
  { who: 'clave', query: 'liquidacion=cerrada&pagina=1', numeros: ['905105'], total: 1 },
  {
    who: 'clave',
    query: 'orden=-diferencia&pagina=1',
    numeros: ['905101', '905102', '905106', '905105', '905103', '905104'],
    total: 6,
  },
  {
    who: 'clave',
    query: 'orden=diferencia&pagina=1',
    numeros: ['905104', '905105', '905103', '905106', '905102', '905101'],
    total: 6,
  },
  { who: 'clave', query: 'liquidacion=pendiente&orden=-diferencia', numeros: ['905101', '905102', '905106'] },
  {
    who: 'clave',
    query: 'liquidacion=pendiente&desde=2026-11-07&hasta=2026-11-14&pagina=1',
    numeros: ['905102'],
    total: 1,
  },
  { who: 'sup-oac', query: 'liquidacion=lista&pagina=1', numeros: ['905103'], total: 1 },
  { who: 'fin-oas', query: 'liquidacion=lista&pagina=1', numeros: ['905104', '905103'], total: 2 },
  { who: 'fin-oas', query: 'liquidacion=pendiente&pagina=1', numeros: [], total: 0 },
  { who: 'clave', query: 'liquidacion=lista&almacen=OAS&pagina=1', numeros: ['905104', '905103'], total: 2 },
]

for (const row of manifestRows) {
  test(`money lists: ${row.who} → manifiestos?${row.query}`, () =>
    withService({}, async (service) => {
      await seed(service)
      const answer = await as(service, row.who, 'GET', `manifiestos?${row.query}`)
      assert.equal(answer.status, 200, JSON.stringify(answer.body))
      const list = row.total === undefined ? answer.body : answer.body.manifiestos
      assert.deepEqual(
        list.map((manifest: { numero: string }) => manifest.numero),
        row.numeros,
      )
      if (row.total !== undefined) assert.equal(answer.body.total, row.total)
    }))
}

test('money lists: a bad liquidacion or orden → 422 naming the parameter', () =>
  withService({}, async (service) => {
    assert.deepEqual(await as(service, 'clave', 'GET', 'manifiestos?liquidacion=abierta'), {
      status: 422,
      body: {
        success: false,
        message: 'El parámetro liquidacion debe ser pendiente, lista o cerrada (se recibió "abierta").',
      },
    })
    assert.deepEqual(await as(service, 'clave', 'GET', 'manifiestos?orden=monto'), {
      status: 422,
      body: {
        success: false,
        message:
          'El parámetro orden debe ser reciente, antiguo, total, -total, diferencia o -diferencia (se recibió "monto").',
      },
    })
  }))

const depositRows: Array<{ who: Who; query: string; ids: string[]; totales: Record<string, unknown> }> = [
  {
    who: 'clave',
    query: '',
    ids: ['5', '4', '3', '2', '1'],
    totales: {
      cantidad: 5,
      monto: 330,
      por_banco: [
        { banco: 'BAC Credomatic', cantidad: 2, monto: 180 },
        { banco: 'Banpaís', cantidad: 1, monto: 90 },
        { banco: 'Ficohsa', cantidad: 2, monto: 60 },
      ],
      por_almacen: [
        { almacen: 'OAC', cantidad: 3, monto: 210 },
        { almacen: 'OAS', cantidad: 2, monto: 120 },
      ],
    },
  },
  {
    who: 'clave',
    query: 'desde=2026-11-18&hasta=2026-11-21',
    ids: ['4', '3', '2'],
    totales: { cantidad: 3, monto: 170 },
  },
  { who: 'clave', query: 'banco=Ficohsa', ids: ['5', '2'], totales: { cantidad: 2, monto: 60 } },
  { who: 'clave', query: 'almacen=OAS', ids: ['4', '3'], totales: { cantidad: 2, monto: 120 } },
  { who: 'clave', query: 'estado=cancelled', ids: ['6'], totales: { cantidad: 1, monto: 5 } },
  {
    who: 'clave',
    query: 'registrado=2026-11-22',
    ids: ['5', '4', '3', '2', '1'],
    totales: { cantidad: 5, monto: 330 },
  },
  {
    who: 'clave',
    query: 'registrado=2026-11-21',
    ids: [],
    totales: { cantidad: 0, monto: 0, por_banco: [], por_almacen: [] },
  },
  {
    who: 'sup-oac',
    query: '',
    ids: ['5', '2', '1'],
    totales: { cantidad: 3, monto: 210, por_almacen: [{ almacen: 'OAC', cantidad: 3, monto: 210 }] },
  },
  { who: 'fin-oas', query: 'almacen=OAC', ids: [], totales: { cantidad: 0, monto: 0 } },
]

for (const row of depositRows) {
  test(`money lists: ${row.who} → depositos?${row.query}`, () =>
    withService({}, async (service) => {
      await seed(service)
      const answer = await as(service, row.who, 'GET', `depositos${row.query ? `?${row.query}` : ''}`)
      assert.equal(answer.status, 200, JSON.stringify(answer.body))
      assert.deepEqual(
        answer.body.depositos.map((entry: { id: string }) => entry.id),
        row.ids,
      )
      assert.deepEqual(
        [answer.body.pagina, answer.body.por_pagina, answer.body.total, answer.body.hay_mas],
        [1, 100, row.ids.length, false],
      )
      assert.deepEqual(answer.body.totales, { ...answer.body.totales, ...row.totales })
    }))
}

test('money lists: the deposits exported as CSV and XLSX, a row each and the total', () =>
  withService({}, async (service) => {
    await seed(service)
    const csv = await download(service, 'fin-oac', 'depositos/exportar?formato=csv&desde=2026-11-15')
    assert.deepEqual(
      [csv.status, csv.headers.get('content-type'), csv.headers.get('content-disposition')],
      [200, 'text/csv; charset=utf-8', 'attachment; filename="depositos-2026-11-22.csv"'],
    )
    assert.equal(
      csv.bytes.toString('utf8'),
      '\uFEFFDepósito,Fecha,Banco,Referencia,Manifiesto,Almacén,Monto,Estado,Registrado por,Registrado en,Notas,Justificación,Motivo de anulación\r\n' +
        '5,2026-11-22,Ficohsa,D-5,905105,OAC,10.00,activo,Ana Lucía Fiallos,2026-11-22 10:00:00,,,\r\n' +
        '2,2026-11-18,Ficohsa,D-2,905103,OAC,50.00,activo,Ana Lucía Fiallos,2026-11-22 10:00:00,,,\r\n' +
        '1,2026-11-15,BAC Credomatic,D-1,905102,OAC,150.00,activo,Ana Lucía Fiallos,2026-11-22 10:00:00,,,\r\n' +
        'Total,,,,,,210.00,,,,,,\r\n',
    )
    const xlsx = await download(service, 'clave', 'depositos/exportar?formato=xlsx&almacen=OAS')
    assert.equal(xlsx.headers.get('content-disposition'), 'attachment; filename="depositos-2026-11-22.xlsx"')
    const sheet = readFirstSheet(new Uint8Array(xlsx.bytes))
    assert.deepEqual(
      sheet.map((line) => [line[0], line[2], line[6]]),
      [
        ['Depósito', 'Banco', 'Monto'],
        [4, 'Banpaís', 90],
        [3, 'BAC Credomatic', 30],
        ['Total', '', 120],
      ],
    )
  }))

test("money lists: Inicio's money — to deposit, ready to close, deposited today, not settled by age", () =>
  withService({}, async (service) => {
    await seed(service)
    const all = await as(service, 'clave', 'GET', 'resumen')
    assert.deepEqual(all.body.liquidacion, {
      por_depositar: { monto: 190, manifiestos: 3 },
      listos_para_cerrar: 2,
      depositos_hoy: { cantidad: 5, monto: 330 },
      por_liquidar_por_antiguedad: [
        { desde_dias: 0, hasta_dias: 2, manifiestos: 1, por_depositar: 40 },
        { desde_dias: 3, hasta_dias: 7, manifiestos: 0, por_depositar: 0 },
        { desde_dias: 8, hasta_dias: 15, manifiestos: 1, por_depositar: 50 },
        { desde_dias: 16, hasta_dias: null, manifiestos: 1, por_depositar: 100 },
      ],
    })
    const oas = await as(service, 'fin-oas', 'GET', 'resumen')
    assert.deepEqual(
      [oas.body.liquidacion.por_depositar, oas.body.liquidacion.listos_para_cerrar, oas.body.liquidacion.depositos_hoy],
      [{ monto: 0, manifiestos: 0 }, 2, { cantidad: 2, monto: 120 }],
    )
  }))
