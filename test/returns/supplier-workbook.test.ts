import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ZoneId } from '@js-joda/core'
import '@js-joda/timezone'
import { sessionOf } from '../support/accounts.ts'
import { F1, F2, seedConsoleReturns, type ConsoleWho } from '../support/console.ts'
import { OPERATOR, operator } from '../support/operator.ts'
import { nothingWritten, refusal, testScenarios } from '../support/scenarios.ts'
import { OPERATOR_KEY, withService, type TestService } from '../support/service.ts'
import { readSheetLayout, type SheetLayout } from '../support/xlsx.ts'
import { asWritten, supplierWorkbookRows } from '../../src/returns/supplier-workbook.ts'
import type { SupplierWorkbookLine } from '../../src/returns/return-lists.store.ts'

/**
 * GET devoluciones/exportar?formato=proveedor: the supplier's returns workbook ("71 columnas"),
 * the layout of the replaced system's app/Exports/ReturnsDetailExport.php, read back from the
 * XLSX. Seed (test/support/console.ts, then `seed` below; today is 2026-11-23):
 *   1  F1 (OAC) lines 1 (1 unit) and 2 (1 box of 96), approved the 22nd
 *   2  F2 (OAS) line 1 (1 unit), approved here the 23rd
 *   3  F1 line 3 (2 units), pending
 *   4  F1 line 3 (1 box of 72 + 5 units, of the mixed line's 82), registered and approved the 23rd
 */
const HEADERS = [
  'NumeroLinea',
  'ProductoId',
  'Nfactura',
  'CantidadCaja',
  'Cantidad',
  'MotivoDevolucion',
  'FechaFacturaConvertida',
  'IdDetalleDevolucion',
  'Id_Jaremar_DD',
  'LineTotal',
  'idDevolucion',
  'id_fac_detalle',
  'id_fac_encabezado',
  'Id_Jaremar_F',
  'FechaFactura',
  'FechaVencimiento',
  'Vendedorid',
  'Vendedor',
  'Clienteid',
  'Cliente',
  'Depto',
  'Municipio',
  'Barrio',
  'Almacen',
  'TipoPago',
  'DiasCred',
  'Rtn',
  'Cai',
  'OrdenEx',
  'RegExonerado',
  'RegSag',
  'Rinicial',
  'Rfinal',
  'Direccion',
  'Tel',
  'Longitud',
  'Latitud',
  'FechaLimImpre',
  'DirCasaMatriz',
  'DirSucursal',
  'NumeroPedido',
  'NumeroRuta',
  'EntregarA',
  'ImporteExcento',
  'ImporteExento_Desc',
  'ImporteExento_ISV18',
  'ImporteExento_ISV15',
  'ImporteExento_Total',
  'ImporteExonerado',
  'ImporteExonerado_Desc',
  'ImporteExonerado_ISV18',
  'ImporteExonerado_ISV15',
  'ImporteExonerado_Total',
  'ImporteGrabado',
  'ImporteGravado_Desc',
  'ImporteGravado_ISV18',
  'ImporteGravado_ISV15',
  'ImporteGravado_Total',
  'ImporteTotal_Val',
  'DescuentosRebajas',
  'Isv18',
  'Isv15',
  'Total',
  'CreationTime',
  'LastModifierUserId',
  'LastModificationTime',
  'IsDeleted',
  'NumeroFacturaLX',
  'NumeroManifiesto',
  'EstadoFactura',
  'TipoFactura',
]

/** The PHP's DECIMAL_COLS, 1-based: D E J AJ AK AR…BK. */
const DECIMAL_COLUMNS = [
  4, 5, 10, 36, 37, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63,
]

/** The PHP's columnWidths(), A to BS: the least width of each column. */
const PHP_WIDTHS = [
  12, 12, 14, 12, 10, 18, 22, 18, 14, 12, 14, 14, 16, 14, 22, 22, 12, 28, 12, 32, 18, 18, 18, 12, 14, 10, 16, 14, 10,
  14, 10, 10, 10, 36, 14, 14, 14, 22, 30, 30, 14, 14, 22, 16, 18, 18, 18, 18, 18, 20, 20, 20, 20, 18, 18, 18, 18, 18,
  18, 20, 14, 14, 14, 20, 20, 20, 12, 18, 18, 14, 14,
]

async function seed(service: TestService): Promise<void> {
  await seedConsoleReturns(service)
  assert.equal((await operator(service, 'POST', 'devoluciones/2/aprobar')).status, 200)
  const mixed = await operator(service, 'POST', 'devoluciones', {
    factura: F1,
    concepto: 'DANADO',
    fecha: '2026-11-23T08:00:00',
    lineas: [{ numeroLinea: 3, cajas: 1, unidades: 5 }],
    aprobar: true,
  })
  assert.equal(mixed.status, 201, JSON.stringify(mixed.body))
}

async function download(
  service: TestService,
  who: ConsoleWho,
  query: string,
): Promise<{ response: Response; sheet: SheetLayout }> {
  const path = `/api/v1/operador/devoluciones/exportar?formato=proveedor${query}`
  const headers: Record<string, string> =
    who === 'clave'
      ? { OperatorKey: OPERATOR_KEY, Operador: encodeURIComponent(OPERATOR) }
      : { Cookie: await sessionOf(service, who) }
  const response = await service.fetch(path, { headers })
  assert.equal(response.status, 200, await response.clone().text())
  return { response, sheet: readSheetLayout(new Uint8Array(await response.arrayBuffer())) }
}

/** A data row by header. */
function byHeader(sheet: SheetLayout, row: number): Record<string, string | number> {
  return Object.fromEntries(HEADERS.map((header, index) => [header, sheet.rows[row]![index]!]))
}

/** Which returned lines the rows are: `return.NumeroLinea`. */
function linesOf(sheet: SheetLayout): string[] {
  return sheet.rows.slice(1).map((row) => `${row[10]}.${row[0]}`)
}

test('supplier workbook: the 71 headers in order, the sheet, its formats, frozen header and filter, the widths', () =>
  withService({}, async (service) => {
    await seed(service)
    const { response, sheet } = await download(service, 'clave', '')
    assert.equal(
      response.headers.get('content-type'),
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    )
    assert.equal(
      response.headers.get('content-disposition'),
      'attachment; filename="devoluciones-proveedor-2026-11-23.xlsx"',
    )
    assert.equal(sheet.name, 'Devoluciones')
    assert.equal(HEADERS.length, 71)
    assert.deepEqual(sheet.rows[0], HEADERS)
    assert.equal(sheet.frozenRows, 1)
    assert.equal(sheet.autoFilter, `A1:BS${sheet.rows.length}`)
    for (const [index, width] of PHP_WIDTHS.entries())
      assert.ok(
        sheet.widths[index]! >= width,
        `${HEADERS[index]}: width ${sheet.widths[index]} under the PHP's ${width}`,
      )
    assert.ok(sheet.widths[31]! >= '001-001-01-00900001'.length, 'Rinicial fits its values')
    for (const row of sheet.formats.slice(1)) {
      const expected: string[] = HEADERS.map((_, index) => (DECIMAL_COLUMNS.includes(index + 1) ? '0.0000' : 'General'))
      // OrdenEx, RegExonerado and RegSag are empty: no cell.
      for (const empty of [28, 29, 30]) expected[empty] = ''
      assert.deepEqual(row, expected)
    }
  }))

test('supplier workbook: approved returns by default, one row per returned line, by return and line', () =>
  withService({}, async (service) => {
    await seed(service)
    assert.deepEqual(linesOf((await download(service, 'clave', '')).sheet), ['1.1', '1.2', '2.1', '4.3'])
    assert.deepEqual(
      linesOf((await download(service, 'clave', '&estado=pending')).sheet),
      ['3.3'],
      'another state when asked',
    )
    assert.deepEqual(
      linesOf((await download(service, 'clave', '&procesadas_desde=2026-11-23&procesadas_hasta=2026-11-23')).sheet),
      ['2.1', '4.3'],
      'by processing date',
    )
    assert.deepEqual(linesOf((await download(service, 'clave', '&buscar=ahorro')).sheet), ['2.1'], "the list's search")
    assert.deepEqual(
      linesOf((await download(service, 'clave', '&procesadas_desde=2026-11-24')).sheet),
      [],
      'nothing: the header alone',
    )
  }))

test('supplier workbook: a person sees the returns of their warehouses only', () =>
  withService({}, async (service) => {
    await seed(service)
    assert.deepEqual(linesOf((await download(service, 'op-oac', '')).sheet), ['1.1', '1.2', '4.3'], 'F2 is of OAS')
    assert.deepEqual(
      linesOf((await download(service, 'op-oac', '&almacen=OAS')).sheet),
      [],
      'another warehouse: nothing',
    )
    assert.deepEqual(linesOf((await download(service, 'clave', '&almacen=OAS')).sheet), ['2.1'])
  }))

test('supplier workbook: a row field by field against the invoice and the return it came from', () =>
  withService({}, async (service) => {
    await seed(service)
    const { sheet } = await download(service, 'clave', '')
    const invoice = (await operator(service, 'GET', `facturas/${F1}`)).body.original
    const returned = (await operator(service, 'GET', 'devoluciones/4')).body
    const invoiceLine = invoice.LineasFactura.find((line: { NumeroLinea: number }) => line.NumeroLinea === 3)
    const returnLineId = (
      service.db.sqlite.prepare('SELECT id FROM return_lines WHERE return_id = 4').get() as { id: number }
    ).id
    const amount = (field: string) => invoice[field] as number
    assert.deepEqual(byHeader(sheet, 4), {
      NumeroLinea: 3,
      ProductoId: 52480038, // "52480038": a text that reads as a number is a number cell, as the PHP writes it
      Nfactura: F1,
      CantidadCaja: 1, // 77 units of a box line of 72: one box…
      Cantidad: 5, // …and 5 loose units
      MotivoDevolucion: 7, // DANADO's idProveedor
      FechaFacturaConvertida: '22/11/2026 00:00:00',
      IdDetalleDevolucion: returnLineId,
      Id_Jaremar_DD: invoice.Id,
      LineTotal: returned.lineas[0].lineTotal,
      idDevolucion: Number(returned.id),
      id_fac_detalle: invoiceLine.Id,
      id_fac_encabezado: invoice.Id,
      Id_Jaremar_F: invoice.Id,
      FechaFactura: '22/11/2026 00:00:00',
      FechaVencimiento: '20/12/2026 00:00:00', // "2026-12-20T00:00:00.000Z"
      Vendedorid: Number(invoice.Vendedorid),
      Vendedor: invoice.Vendedor,
      Clienteid: Number(invoice.Clienteid),
      Cliente: invoice.Cliente,
      Depto: invoice.Depto,
      Municipio: invoice.Municipio,
      Barrio: invoice.Barrio,
      Almacen: 'OAC',
      TipoPago: invoice.TipoPago,
      DiasCred: invoice.DiasCred,
      Rtn: invoice.Rtn, // leading zero: stays text
      Cai: invoice.Cai,
      OrdenEx: '',
      RegExonerado: '',
      RegSag: '',
      Rinicial: invoice.Rinicial,
      Rfinal: invoice.Rfinal,
      Direccion: invoice.Direccion,
      Tel: Number(invoice.Tel),
      Longitud: Number(invoice.Longitud), // sent as the text "-87.1821"
      Latitud: Number(invoice.Latitud),
      FechaLimImpre: '30/06/2027 00:00:00',
      DirCasaMatriz: invoice.DirCasaMatriz,
      DirSucursal: invoice.DirSucursal,
      NumeroPedido: Number(invoice.NumeroPedido),
      NumeroRuta: 118, // sent "118  "
      EntregarA: invoice.EntregarA,
      ImporteExcento: amount('ImporteExcento'),
      ImporteExento_Desc: amount('ImporteExento_Desc'),
      ImporteExento_ISV18: amount('ImporteExento_ISV18'),
      ImporteExento_ISV15: amount('ImporteExento_ISV15'),
      ImporteExento_Total: amount('ImporteExento_Total'),
      ImporteExonerado: amount('ImporteExonerado'),
      ImporteExonerado_Desc: amount('ImporteExonerado_Desc'),
      ImporteExonerado_ISV18: amount('ImporteExonerado_ISV18'),
      ImporteExonerado_ISV15: amount('ImporteExonerado_ISV15'),
      ImporteExonerado_Total: amount('ImporteExonerado_Total'),
      ImporteGrabado: amount('ImporteGrabado'),
      ImporteGravado_Desc: amount('ImporteGravado_Desc'),
      ImporteGravado_ISV18: amount('ImporteGravado_ISV18'),
      ImporteGravado_ISV15: amount('ImporteGravado_ISV15'),
      ImporteGravado_Total: amount('ImporteGravado_Total'),
      ImporteTotal_Val: amount('ImporteTotal_Val'),
      DescuentosRebajas: amount('DescuentosRebajas'),
      Isv18: amount('Isv18'),
      Isv15: amount('Isv15'),
      Total: amount('Total'),
      CreationTime: '01/01/0001 00:00:00',
      LastModifierUserId: '01/01/0001 00:00:00',
      LastModificationTime: '01/01/0001 00:00:00',
      IsDeleted: 0,
      NumeroFacturaLX: invoice.NumeroFacturaLX, // "00912001": stays text
      NumeroManifiesto: 905112,
      EstadoFactura: 0, // the invoice says 1; the supplier's system receives 0
      TipoFactura: invoice.TipoFactura,
    })
    // The figures themselves, so the row cannot match a wrong reading of both sides.
    assert.deepEqual(
      [
        byHeader(sheet, 4).LineTotal,
        byHeader(sheet, 4).id_fac_detalle,
        byHeader(sheet, 4).Barrio,
        byHeader(sheet, 4).Latitud,
      ],
      [368.9, 5100003, 'COL. KENNEDY', 14.0723],
    )
    assert.deepEqual(
      [byHeader(sheet, 2).CantidadCaja, byHeader(sheet, 2).Cantidad, byHeader(sheet, 2).LineTotal],
      [1, 0, 738.39],
      'a box of the CJ line',
    )
    assert.deepEqual([byHeader(sheet, 1).CantidadCaja, byHeader(sheet, 1).Cantidad], [0, 1], 'a unit of the UN line')
    assert.deepEqual(
      [
        byHeader(sheet, 3).Nfactura,
        byHeader(sheet, 3).Almacen,
        byHeader(sheet, 3).Cliente,
        byHeader(sheet, 3).MotivoDevolucion,
      ],
      [F2, 'OAS', 'SUPER EL AHORRO', 7],
    )
  }))

testScenarios(
  'supplier workbook refusals',
  [
    {
      name: 'without a key → 401',
      request: { path: 'devoluciones/exportar?formato=proveedor', as: 'nobody' },
      status: 401,
      database: nothingWritten(),
    },
    {
      name: 'an impossible processing date → 422',
      request: { path: 'devoluciones/exportar?formato=proveedor&procesadas_desde=2026-02-30' },
      status: 422,
      body: refusal(
        'El parámetro procesadas_desde debe ser una fecha real en formato YYYY-MM-DD (se recibió "2026-02-30").',
      ),
      database: nothingWritten(),
    },
    {
      name: 'an unknown state → 422',
      request: { path: 'devoluciones/exportar?formato=proveedor&estado=aprobada' },
      status: 422,
      body: refusal(/^El parámetro estado/),
      database: nothingWritten(),
    },
    {
      name: 'an unknown filter → 422',
      request: { path: 'devoluciones/exportar?formato=proveedor&pagina=1' },
      status: 422,
      body: refusal(/pagina/),
      database: nothingWritten(),
    },
    {
      name: 'formato in capitals → 422',
      request: { path: 'devoluciones/exportar?formato=PROVEEDOR' },
      status: 422,
      body: refusal(/^El parámetro formato/),
      database: nothingWritten(),
    },
  ],
  { as: 'operator', setup: seed },
)

const LINE: SupplierWorkbookLine = {
  return_id: 9,
  line_id: 21,
  invoice_id: 1,
  reason_codigo: 'VENCIDO',
  reason_id_proveedor: null,
  nfactura: 'A-1',
  fecha_factura: '2026-11-20',
  almacen: 'OAC',
  manifiesto: '0701',
  numero_linea: 1,
  producto_id: '0301',
  uni_venta: 'UN',
  factor_conversion: 1,
  units: 2.5,
  amount_cents: 1999,
}

test('supplier workbook: what the supplier did not send — ImporteTotal_Val computed as the PHP did, amounts 0, texts and dates empty', () => {
  const invoice = {
    Total: 1150.01,
    Isv15: 150.0,
    Isv18: '0.005',
    FechaVencimiento: 'pronto',
    LineasFactura: [{ NumeroLinea: 1, Id: '77' }],
  }
  const [row] = [
    ...supplierWorkbookRows([LINE], new Map([[1, JSON.stringify(invoice)]]), ZoneId.of('America/Tegucigalpa')),
  ]
  const cells = Object.fromEntries(HEADERS.map((header, index) => [header, row![index]]))
  assert.equal(cells.ImporteTotal_Val, 1000.005, 'Total − Isv15 − Isv18, four decimals')
  assert.equal(cells.ImporteExcento, 0)
  assert.equal(cells.DiasCred, 0)
  assert.equal(cells.Barrio, null)
  assert.equal(cells.Id_Jaremar_DD, null)
  assert.equal(cells.id_fac_detalle, 77)
  assert.equal(cells.FechaVencimiento, 'pronto', 'a date it cannot read, as sent')
  assert.equal(cells.FechaLimImpre, null)
  assert.equal(cells.MotivoDevolucion, 'VENCIDO', 'no supplier id: the code')
  assert.equal(cells.ProductoId, '0301', 'a leading zero stays text')
  assert.equal(cells.NumeroManifiesto, '0701')
  assert.deepEqual([cells.CantidadCaja, cells.Cantidad, cells.LineTotal], [0, 2.5, 19.99])
})

test("supplier workbook: texts are written as the PHP's spreadsheet library wrote them", () => {
  const cases: Array<[string, string | number | null]> = [
    ['', null],
    ['20417', 20417],
    ['-87.1821', -87.1821],
    ['0', 0],
    ['0.5', 0.5],
    ['00912001', '00912001'],
    ['0801199', '0801199'],
    ['1e3', 1000],
    ['118 ', '118 '],
    ['001-001-01-00912001', '001-001-01-00912001'],
    ['12345678901234567890', '12345678901234567890'],
    ['OAC', 'OAC'],
  ]
  for (const [text, written] of cases) assert.equal(asWritten(text), written, JSON.stringify(text))
})
