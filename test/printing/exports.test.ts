import assert from 'node:assert/strict'
import { test } from 'node:test'
import { strFromU8, unzipSync } from 'fflate'
import { exampleBatch, postBatch } from '../support/batches.ts'
import { OPERATOR, operator } from '../support/operator.ts'
import { OPERATOR_KEY, withService, type TestService } from '../support/service.ts'
import { BANK, depositBody, seedReason, TODAY } from '../support/settlement.ts'
import { readFirstSheet } from '../support/xlsx.ts'

/**
 * The exports of issue 42's bar — real dates and numbers as cells, columns as wide as their
 * values, the header row frozen: the manifests with their money (new), and the deposits and
 * returns' exports held to the same bar. Manifest 905112 of the example batch: OAC 2,300.18 and
 * OAS 188.97; a deposit of 100.00 for OAC. Today is 2026-11-22, 10:00 in Honduras.
 */
async function seed(service: TestService): Promise<void> {
  assert.equal((await postBatch(service, exampleBatch())).status, 200)
  const deposit = await operator(service, 'POST', 'manifiestos/905112/depositos', depositBody(100, { almacen: 'OAC' }))
  assert.equal(deposit.status, 201, JSON.stringify(deposit.body))
}

async function download(
  service: TestService,
  path: string,
): Promise<{ status: number; type: string | null; name: string | null; bytes: Buffer }> {
  const response = await service.fetch(`/api/v1/operador/${path}`, {
    headers: { OperatorKey: OPERATOR_KEY, Operador: encodeURIComponent(OPERATOR) },
  })
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    name: response.headers.get('content-disposition'),
    bytes: Buffer.from(await response.arrayBuffer()),
  }
}

/** The sheet's XML: column widths, the frozen pane, and each cell's style (dates and amounts carry a number format). */
function sheetXml(bytes: Buffer): { widths: number[]; frozen: boolean; xml: string; styles: string } {
  const files = unzipSync(new Uint8Array(bytes))
  const xml = strFromU8(files['xl/worksheets/sheet1.xml']!)
  const widths = [...xml.matchAll(/<col [^>]*width="([\d.]+)"/g)].map((match) => Number(match[1]))
  return {
    widths,
    frozen: /<pane [^>]*ySplit="1"[^>]*state="frozen"/.test(xml),
    xml,
    styles: strFromU8(files['xl/styles.xml']!),
  }
}

test('exports: the manifests with their money as CSV, a row each and the totals', () =>
  withService({}, async (service) => {
    await seed(service)
    const csv = await download(service, 'manifiestos/exportar?formato=csv')
    assert.deepEqual(
      [csv.status, csv.type, csv.name],
      [200, 'text/csv; charset=utf-8', 'attachment; filename="manifiestos-2026-11-22.csv"'],
    )
    const [header, row, total, end] = csv.bytes.toString('utf8').split('\r\n')
    assert.equal(
      header,
      '\uFEFFManifiesto,Estado,Fecha de ingreso,Cerrado en,Almacenes,Facturas,Facturado,Devuelto,A depositar,Depositado,Ajustes,Diferencia,Devoluciones pendientes,Liquidado,Plazo de devoluciones',
    )
    assert.match(
      row!,
      /^905112,Abierto,2026-11-22 10:00:00,,"OAC, OAS",2,2489\.15,0\.00,2489\.15,100\.00,0\.00,2389\.15,0,No,(2026-\d\d-\d\d 23:59:59)?$/,
    )
    assert.equal(total, 'Total,,,,,2,2489.15,0.00,2489.15,100.00,0.00,2389.15,,,')
    assert.equal(end, '')
  }))

test('exports: the manifests as XLSX — numbers and dates as cells, widths that fit, the header frozen; one warehouse', () =>
  withService({}, async (service) => {
    await seed(service)
    const xlsx = await download(service, 'manifiestos/exportar?formato=xlsx&almacen=OAS')
    assert.deepEqual([xlsx.status, xlsx.name], [200, 'attachment; filename="manifiestos-2026-11-22.xlsx"'])
    const rows = readFirstSheet(new Uint8Array(xlsx.bytes))
    assert.deepEqual(
      rows.map((line) => [line[0], line[4], line[5], line[6], line[9], line[11]]),
      [
        ['Manifiesto', 'Almacenes', 'Facturas', 'Facturado', 'Depositado', 'Diferencia'],
        ['905112', 'OAS', 1, 188.97, 0, 188.97],
        ['Total', '', 1, 188.97, 0, 188.97],
      ],
    )
    // Fecha de ingreso: an Excel date (a serial number), not text.
    assert.ok(
      Math.abs(Number(rows[1]![2]) - (Date.UTC(2026, 10, 22, 10) - Date.UTC(1899, 11, 30)) / 86_400_000) < 1 / 86_400,
      String(rows[1]![2]),
    )
    const sheet = sheetXml(xlsx.bytes)
    assert.equal(sheet.frozen, true, 'the header row is frozen')
    assert.equal(sheet.widths.length, 15)
    // "Devoluciones pendientes" (23 characters) + 2; "Fecha de ingreso" shows 16 characters of date: its header is longer.
    assert.equal(sheet.widths[12], 25)
    assert.ok(sheet.widths.every((width) => width >= 8 && width <= 60))
    assert.match(sheet.styles, /formatCode="dd\/mm\/yyyy hh:mm"/)
    assert.match(sheet.styles, /formatCode="#,##0.00"/)
  }))

test("exports: the deposits' slip date is a date cell; the returns' columns fit their longest value", () =>
  withService({}, async (service) => {
    await seed(service)
    const deposits = await download(service, 'depositos/exportar?formato=xlsx')
    const rows = readFirstSheet(new Uint8Array(deposits.bytes))
    assert.deepEqual(
      [rows[0]![1], rows[1]![1], rows[1]![2]],
      ['Fecha', (Date.UTC(2026, 10, 22) - Date.UTC(1899, 11, 30)) / 86_400_000, BANK],
    )
    assert.equal(TODAY, '2026-11-22')
    const sheet = sheetXml(deposits.bytes)
    assert.equal(sheet.frozen, true)
    assert.match(sheet.styles, /formatCode="dd\/mm\/yyyy"/)
    await seedReason(service)
    const created = await operator(service, 'POST', 'devoluciones', {
      factura: '001-001-01-00912001',
      concepto: 'DANADO',
      fecha: TODAY,
      lineas: [{ numeroLinea: 1, unidades: 1 }],
    })
    assert.equal(created.status, 201, JSON.stringify(created.body))
    const returns = sheetXml((await download(service, 'devoluciones/exportar?formato=xlsx')).bytes)
    // Producto: "ACEITE VEGETAL 410 mL 1/24" (26 characters) + 2.
    assert.equal(returns.widths[13], 28)
    assert.equal(returns.frozen, true)
  }))
