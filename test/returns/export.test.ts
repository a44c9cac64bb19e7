import assert from 'node:assert/strict'
import { test } from 'node:test'
import { asPerson, sessionOf } from '../support/accounts.ts'
import { seedConsoleReturns, type ConsoleWho } from '../support/console.ts'
import { OPERATOR, operator } from '../support/operator.ts'
import { OPERATOR_KEY, withService, type TestService } from '../support/service.ts'
import { readFirstSheet } from '../support/xlsx.ts'

/**
 * GET devoluciones/exportar: the listed returns with their lines as CSV and XLSX, made by the
 * server (seed: test/support/console.ts; today is 2026-11-23). Amounts: return 1 line 1, 1 of
 * 12 units of 430.56 → 35.88; line 2, 1 box of 96 of 192 units of 1476.77 → 738.385 → 738.39
 * (total 774.27); return 2, 1 of 8 units of 188.97 → 23.62; return 3, 2 of 82 units (1 box of
 * 72 + 10) of 392.85 → 9.58, listed as 2/72 = 0.027778 boxes.
 */
const HEADER = [
  'Devolución',
  'Estado',
  'Fecha',
  'Registrada en',
  'Factura',
  'Manifiesto',
  'Almacén',
  'Cliente ID',
  'Cliente',
  'Concepto',
  'Descripción del concepto',
  'Línea',
  'Producto ID',
  'Producto',
  'Unidad',
  'Cantidad',
  'Unidades',
  'Cajas y unidades',
  'Importe',
  'Total de la devolución',
  'Procesada',
]
const F1 = ['001-001-01-00912001', '905112', 'OAC', '40112233', 'PULPERIA LA ESPERANZA']
const LINES: Record<string, Array<string | number>> = {
  '1.1': [
    1,
    'Aprobada',
    '2026-11-22 09:30:00',
    '2026-11-22 10:00:00',
    ...F1,
    'DANADO',
    'Producto dañado',
    1,
    '30110205',
    'ACEITE VEGETAL 410 mL 1/24',
    'UN',
    1,
    1,
    '1 unid.',
    35.88,
    774.27,
    '2026-11-22 10:00:00',
  ],
  '1.2': [
    1,
    'Aprobada',
    '2026-11-22 09:30:00',
    '2026-11-22 10:00:00',
    ...F1,
    'DANADO',
    'Producto dañado',
    2,
    '81800012',
    'SALSA DE TOMATE 8X12X87GR',
    'CJ',
    1,
    96,
    '1 caja',
    738.39,
    774.27,
    '2026-11-22 10:00:00',
  ],
  '2.1': [
    2,
    'Pendiente',
    '2026-11-22 09:30:00',
    '2026-11-22 10:00:00',
    '001-001-01-00912002',
    '905112',
    'OAS',
    '40112233',
    'SUPER EL AHORRO',
    'DANADO',
    'Producto dañado',
    1,
    '50491313',
    'DETERGENTE NARANJA 400GX4X5',
    'UN',
    1,
    1,
    '1 unid.',
    23.62,
    23.62,
    '',
  ],
  '3.3': [
    3,
    'Pendiente',
    '2026-11-22 09:30:00',
    '2026-11-23 09:00:00',
    ...F1,
    'VENCIDO',
    'Producto vencido',
    3,
    '52480038',
    'JABON LIMON 115GRX72',
    'CJ',
    0.027778,
    2,
    '2 unid.',
    9.58,
    9.58,
    '',
  ],
}

/** Fecha, Registrada en, Procesada. */
const DATE_COLUMNS = [2, 3, 20]

/** To the second (1/86,400 of a day): both sides are floating point. */
function excelSerial(text: string): number {
  return Math.round((Date.parse(`${text.replace(' ', 'T')}Z`) - Date.UTC(1899, 11, 30)) / 1000) / 86_400
}

/** The CSV as the table Excel shows: amounts with their two decimals, as written. */
function csvRows(lines: string[]): string[][] {
  return [
    HEADER,
    ...lines.map((key) =>
      LINES[key]!.map((value, index) =>
        typeof value === 'number' && (index === 18 || index === 19) ? value.toFixed(2) : String(value),
      ),
    ),
  ]
}

async function download(service: TestService, who: ConsoleWho, query: string): Promise<Response> {
  const path = `/api/v1/operador/devoluciones/exportar?${query}`
  if (who === 'clave')
    return service.fetch(path, { headers: { OperatorKey: OPERATOR_KEY, Operador: encodeURIComponent(OPERATOR) } })
  return service.fetch(path, { headers: { Cookie: await sessionOf(service, who), Origin: service.url } })
}

/** RFC 4180 fields of a CSV text (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let index = 0; index < text.length; index++) {
    const character = text[index]!
    if (quoted) {
      if (character === '"' && text[index + 1] === '"') ((field += '"'), index++)
      else if (character === '"') quoted = false
      else field += character
    } else if (character === '"') quoted = true
    else if (character === ',') (row.push(field), (field = ''))
    else if (character === '\r' && text[index + 1] === '\n')
      (row.push(field), rows.push(row), (row = []), (field = ''), index++)
    else field += character
  }
  assert.equal(field + row.join(''), '', 'the file ends with CRLF')
  return rows
}

const rows: Array<{ name: string; who: ConsoleWho; query: string; lines: string[] }> = [
  { name: 'every return, one row per line', who: 'clave', query: '', lines: ['1.1', '1.2', '2.1', '3.3'] },
  { name: 'approved ones', who: 'clave', query: '&estado=approved', lines: ['1.1', '1.2'] },
  { name: 'registered the 23rd', who: 'clave', query: '&desde=2026-11-23&hasta=2026-11-23', lines: ['3.3'] },
  { name: 'searched by client', who: 'clave', query: '&buscar=ahorro', lines: ['2.1'] },
  { name: 'an operator of OAC: its warehouse only', who: 'op-oac', query: '', lines: ['1.1', '1.2', '3.3'] },
  { name: 'nothing matches: only the header', who: 'clave', query: '&buscar=zzz', lines: [] },
]

for (const row of rows) {
  test(`export: CSV of ${row.name}`, () =>
    withService({}, async (service) => {
      await seedConsoleReturns(service)
      const response = await download(service, row.who, `formato=csv${row.query}`)
      assert.equal(response.status, 200)
      assert.equal(response.headers.get('content-type'), 'text/csv; charset=utf-8')
      assert.equal(response.headers.get('content-disposition'), 'attachment; filename="devoluciones-2026-11-23.csv"')
      const bytes = Buffer.from(await response.arrayBuffer())
      assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'UTF-8 byte-order mark')
      assert.deepEqual(parseCsv(bytes.subarray(3).toString('utf8')), csvRows(row.lines))
    }))

  test(`export: XLSX of ${row.name}`, () =>
    withService({}, async (service) => {
      await seedConsoleReturns(service)
      const response = await download(service, row.who, `formato=xlsx${row.query}`)
      assert.equal(response.status, 200)
      assert.equal(
        response.headers.get('content-type'),
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      )
      assert.equal(response.headers.get('content-disposition'), 'attachment; filename="devoluciones-2026-11-23.xlsx"')
      // Dates are real dates in Excel: serial days since 1899-12-30, the time as a fraction.
      const dated = (key: string) =>
        LINES[key]!.map((value, index) =>
          DATE_COLUMNS.includes(index) && value !== '' ? excelSerial(String(value)) : value,
        )
      const sheet = readFirstSheet(new Uint8Array(await response.arrayBuffer())).map((cells, row) =>
        cells.map((value, index) =>
          row > 0 && DATE_COLUMNS.includes(index) && typeof value === 'number'
            ? Math.round(value * 86_400) / 86_400
            : value,
        ),
      )
      assert.deepEqual(sheet, [HEADER, ...row.lines.map(dated)])
    }))
}

const refusals: Array<{ name: string; query: string; message: string | RegExp }> = [
  { name: 'no formato', query: '', message: 'Falta el parámetro formato.' },
  { name: 'an unknown formato', query: 'formato=pdf', message: /^El parámetro formato/ },
  {
    name: 'a bad date',
    query: 'formato=csv&hasta=2026-11-31',
    message: 'El parámetro hasta debe ser una fecha real en formato YYYY-MM-DD (se recibió "2026-11-31").',
  },
  { name: 'pagina is not a filter of the export', query: 'formato=csv&pagina=1', message: /pagina/ },
]

for (const refusal of refusals) {
  test(`export: ${refusal.name} → 422 in Spanish`, () =>
    withService({}, async (service) => {
      const { status, body } = await operator(service, 'GET', `devoluciones/exportar?${refusal.query}`)
      assert.equal(status, 422)
      if (typeof refusal.message === 'string') assert.equal(body.message, refusal.message)
      else assert.match(body.message, refusal.message)
    }))
}

test('export: without authentication → 401', () =>
  withService({}, async (service) => {
    assert.equal((await service.fetch('/api/v1/operador/devoluciones/exportar?formato=csv')).status, 401)
  }))

test('export: more than 20,000 returns → 422 asking for a narrower range', () =>
  withService({}, async (service) => {
    await seedConsoleReturns(service)
    service.db.sqlite.exec(`
      WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < 19998)
      INSERT INTO returns (invoice_id, reason_codigo, fecha, estado, total_cents, listed_lines, registered_at, registered_date, registered_by)
      SELECT invoice_id, reason_codigo, fecha, 'rejected', total_cents, listed_lines, registered_at, registered_date, registered_by FROM returns, n WHERE id = 2`)
    const { status, body } = await operator(service, 'GET', 'devoluciones/exportar?formato=csv')
    assert.deepEqual(
      { status, body },
      {
        status: 422,
        body: {
          success: false,
          message:
            'Los filtros abarcan 20001 devoluciones y una exportación admite a lo sumo 20000: acote las fechas (desde, hasta) o el estado.',
        },
      },
    )
    assert.equal(
      (await download(service, 'clave', 'formato=csv&estado=pending')).status,
      200,
      'a narrower export still works',
    )
  }))

test('export: a name that Excel would take for a formula is written as text', () =>
  withService({}, async (service) => {
    await seedConsoleReturns(service)
    service.db.sqlite.exec(
      `UPDATE invoices SET cliente = '=HYPERLINK("http://x","y"), S.A.' WHERE nfactura = '001-001-01-00912002'`,
    )
    const csv = parseCsv(
      Buffer.from(await (await download(service, 'clave', 'formato=csv&buscar=912002')).arrayBuffer())
        .subarray(3)
        .toString('utf8'),
    )
    assert.equal(csv[1]![8], `'=HYPERLINK("http://x","y"), S.A.`)
    const sheet = readFirstSheet(
      new Uint8Array(await (await download(service, 'clave', 'formato=xlsx&buscar=912002')).arrayBuffer()),
    )
    assert.equal(sheet[1]![8], '=HYPERLINK("http://x","y"), S.A.', 'an XLSX text cell is never a formula')
  }))

test("export: a person's download needs the right to read (every role has it) and sees its warehouses", () =>
  withService({}, async (service) => {
    await seedConsoleReturns(service)
    const cookie = await sessionOf(service, 'sup-oac')
    const response = await service.fetch('/api/v1/operador/devoluciones/exportar?formato=csv', {
      headers: { Cookie: cookie },
    })
    assert.equal(response.status, 200, 'a GET with a session needs no Origin')
    const listed = await asPerson(service, cookie, 'GET', 'devoluciones?pagina=1')
    const exported = new Set(
      parseCsv(
        Buffer.from(await response.arrayBuffer())
          .subarray(3)
          .toString('utf8'),
      )
        .slice(1)
        .map((fields) => fields[0]),
    )
    assert.deepEqual([...exported], listed.body.devoluciones.map((entry: { id: string }) => entry.id).reverse())
  }))
