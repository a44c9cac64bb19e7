import { invoice, type Invoice } from '../support/batches.ts'

/** The scenarios of steps 2–3 (body and structure), shared by the intake tests and the dry run's (validar). */

const BODY_INVALID = {
  success: false,
  message: 'El cuerpo de la solicitud debe ser un arreglo JSON no vacío de facturas.',
}

export interface StructureScenario {
  name: string
  body: unknown
  status: number
  /** Exact body, or the exact `errores` of a structure rejection. */
  answer?: unknown
  errores?: string[]
}

const deep = (levels: number): unknown => {
  let value: unknown = 'fondo'
  for (let i = 0; i < levels; i++) value = { nivel: value }
  return value
}

const withoutLine = (field: string) => {
  const base = invoice('F-1')
  const lines = structuredClone(base.LineasFactura) as Array<Record<string, unknown>>
  delete lines[1]![field]
  return { ...base, LineasFactura: lines }
}

export const structureScenarios: StructureScenario[] = [
  // Step 2: the body.
  { name: 'invalid JSON → body-invalid', body: '[{"Nfactura": ', status: 422, answer: BODY_INVALID },
  { name: 'an object instead of an array → body-invalid', body: invoice('F-1'), status: 422, answer: BODY_INVALID },
  { name: 'an empty array → body-invalid', body: [], status: 422, answer: BODY_INVALID },
  { name: 'an empty body → body-invalid', body: '', status: 422, answer: BODY_INVALID },
  { name: 'a JSON string → body-invalid', body: '"hola"', status: 422, answer: BODY_INVALID },
  { name: 'null → body-invalid', body: 'null', status: 422, answer: BODY_INVALID },
  // Step 3: the structure.
  {
    name: 'missing Almacen',
    body: [invoice('F-1', '905112', { Almacen: undefined })],
    status: 422,
    errores: ['Factura #1 (Nfactura F-1): falta el campo Almacen'],
  },
  {
    name: 'null and "" count as missing, 0 does not',
    body: [invoice('F-1', '905112', { Cliente: null, Vendedorid: '', Total: 0 })],
    status: 422,
    errores: [
      'Factura #1 (Nfactura F-1): falta el campo Vendedorid',
      'Factura #1 (Nfactura F-1): falta el campo Cliente',
    ],
  },
  {
    name: 'every required invoice field missing',
    body: [{ LineasFactura: [] }],
    status: 422,
    errores: ['Nfactura', 'NumeroManifiesto', 'FechaFactura', 'Almacen', 'Vendedorid', 'Clienteid', 'Cliente', 'Total']
      .map((field) => `Factura #1: falta el campo ${field}`)
      .concat('Factura #1: LineasFactura no puede estar vacío'),
  },
  {
    name: 'empty LineasFactura',
    body: [invoice('F-1', '905112', { LineasFactura: [] })],
    status: 422,
    errores: ['Factura #1 (Nfactura F-1): LineasFactura no puede estar vacío'],
  },
  {
    name: 'LineasFactura not an array',
    body: [invoice('F-1', '905112', { LineasFactura: 'tres' })],
    status: 422,
    errores: ['Factura #1 (Nfactura F-1): LineasFactura debe ser un arreglo de líneas (se recibió "tres")'],
  },
  {
    name: 'a line without ProductoId',
    body: [withoutLine('ProductoId')],
    status: 422,
    errores: ['Factura #1 (Nfactura F-1): línea #2: falta el campo ProductoId'],
  },
  {
    name: 'a line without NumeroLinea and Total',
    body: [withoutLine('NumeroLinea')],
    status: 422,
    errores: ['Factura #1 (Nfactura F-1): línea #2: falta el campo NumeroLinea'],
  },
  {
    name: 'a line that is not an object',
    body: [invoice('F-1', '905112', { LineasFactura: [7] })],
    status: 422,
    errores: ['Factura #1 (Nfactura F-1): línea #1: debe ser un objeto JSON (se recibió 7)'],
  },
  {
    name: 'negative Total',
    body: [invoice('F-1', '905112', { Total: -5 })],
    status: 422,
    errores: ['Factura #1 (Nfactura F-1): Total debe ser un número de 0 a 1000000000000 (se recibió -5)'],
  },
  {
    name: 'a line Total as words (a line Total may be negative)',
    body: [
      invoice('F-1', '905112', {
        LineasFactura: [{ ...(invoice('x').LineasFactura as Array<Record<string, unknown>>)[0], Total: 'x' }],
      }),
    ],
    status: 422,
    errores: [
      'Factura #1 (Nfactura F-1): línea #1: Total debe ser un número de -1000000000000 a 1000000000000 (se recibió "x")',
    ],
  },
  {
    name: 'Total as words',
    body: [invoice('F-1', '905112', { Total: 'mil' })],
    status: 422,
    errores: ['Factura #1 (Nfactura F-1): Total debe ser un número de 0 a 1000000000000 (se recibió "mil")'],
  },
  {
    name: 'an integer field with a non-numeric string',
    body: [invoice('F-1', '905112', { DiasCred: 'treinta' })],
    status: 422,
    errores: [
      'Factura #1 (Nfactura F-1): DiasCred debe ser un entero exacto de hasta 15 dígitos (se recibió "treinta")',
    ],
  },
  {
    name: 'an integer field with a fraction',
    body: [invoice('F-1', '905112', { EstadoFactura: 1.5 })],
    status: 422,
    errores: [
      'Factura #1 (Nfactura F-1): EstadoFactura debe ser un entero exacto de hasta 15 dígitos (se recibió 1.5)',
    ],
  },
  {
    name: 'a string field with an object',
    body: [invoice('F-1', '905112', { Cliente: { nombre: 'x' } })],
    status: 422,
    errores: [
      'Factura #1 (Nfactura F-1): Cliente debe ser texto de hasta 1000 caracteres, o un número entero exacto de hasta 15 dígitos (se recibió {"nombre":"x"})',
    ],
  },
  {
    name: 'an invoice that is not an object',
    body: [invoice('F-1'), 'F-2', null],
    status: 422,
    errores: [
      'Factura #2: debe ser un objeto JSON (se recibió "F-2")',
      'Factura #3: debe ser un objeto JSON (se recibió null)',
    ],
  },
  {
    name: 'the same Nfactura twice in a batch',
    body: [invoice('F-1'), invoice('F-2'), invoice('F-1', '905113')],
    status: 422,
    errores: ['Factura #3 (Nfactura F-1): Nfactura repetido en el lote (ya aparece en la factura #1)'],
  },
  {
    name: 'the same Nfactura as text and as number',
    body: [invoice('880012345'), invoice('x', '905112', { Nfactura: 880012345 })],
    status: 422,
    errores: ['Factura #2 (Nfactura 880012345): Nfactura repetido en el lote (ya aparece en la factura #1)'],
  },
  {
    name: 'the same NumeroLinea twice in an invoice',
    body: [
      invoice('F-1', '905112', {
        LineasFactura: [(invoice('x').LineasFactura as unknown[])[0], (invoice('x').LineasFactura as unknown[])[0]],
      }),
    ],
    status: 422,
    errores: ['Factura #1 (Nfactura F-1): NumeroLinea 1 repetido en LineasFactura'],
  },
  {
    name: 'an extra field nested too deep',
    body: [invoice('F-1', '905112', { Extra: deep(100) })],
    status: 422,
    errores: ['Factura #1 (Nfactura F-1): más de 64 niveles de anidamiento en sus campos'],
  },
  {
    name: 'errors of several invoices, each named by position',
    body: [invoice('F-1', '905112', { Almacen: '' }), invoice('F-2'), invoice('F-3', '905112', { Rtn: [] })],
    status: 422,
    errores: [
      'Factura #1 (Nfactura F-1): falta el campo Almacen',
      'Factura #3 (Nfactura F-3): Rtn debe ser texto de hasta 1000 caracteres, o un número entero exacto de hasta 15 dígitos (se recibió [])',
    ],
  },
  // Limits of text (contract §9): the listed fields by the schema, every other string measured.
  {
    name: 'a Cliente of 1,001 characters',
    body: [invoice('F-1', '905112', { Cliente: 'A'.repeat(1001) })],
    status: 422,
    errores: [
      `Factura #1 (Nfactura F-1): Cliente debe ser texto de hasta 1000 caracteres, o un número entero exacto de hasta 15 dígitos (se recibió "${'A'.repeat(56)}…)`,
    ],
  },
  {
    name: 'a Cliente of 1,001 emoji (2,002 UTF-16 units)',
    body: [invoice('F-1', '905112', { Cliente: '😀'.repeat(1001) })],
    status: 422,
    errores: [
      `Factura #1 (Nfactura F-1): Cliente debe ser texto de hasta 1000 caracteres, o un número entero exacto de hasta 15 dígitos (se recibió "${'😀'.repeat(28)}…)`,
    ],
  },
  {
    name: 'an Nfactura of 51 characters',
    body: [invoice('F'.repeat(51))],
    status: 422,
    errores: [
      `Factura #1 (Nfactura ${'F'.repeat(51)}): Nfactura debe ser texto de hasta 50 caracteres, o un número entero exacto de hasta 15 dígitos (se recibió "${'F'.repeat(51)}")`,
    ],
  },
  {
    name: 'an extra field of 1,001 characters',
    body: [invoice('F-1', '905112', { Observaciones: 'x'.repeat(1001) })],
    status: 422,
    errores: ['Factura #1 (Nfactura F-1): Observaciones tiene 1,001 caracteres; el máximo es 1000'],
  },
  {
    name: 'an extra field of a line of 30,000 characters',
    body: [
      invoice('F-1', '905112', {
        LineasFactura: [
          { ...(invoice('x').LineasFactura as Array<Record<string, unknown>>)[0], Nota: 'ñ'.repeat(30_000) },
        ],
      }),
    ],
    status: 422,
    errores: ['Factura #1 (Nfactura F-1): línea #1: Nota tiene 30,000 caracteres; el máximo es 1000'],
  },
  {
    name: 'a long text nested in an extra field',
    body: [invoice('F-1', '905112', { Extra: { notas: ['corta', 'y'.repeat(1001)] } })],
    status: 422,
    errores: ['Factura #1 (Nfactura F-1): Extra.notas[1] tiene 1,001 caracteres; el máximo es 1000'],
  },
  {
    name: 'a field whose name has 1,001 characters',
    body: [invoice('F-1', '905112', { ['k'.repeat(1001)]: 1 })],
    status: 422,
    errores: ['Factura #1 (Nfactura F-1): un nombre de campo tiene 1,001 caracteres; el máximo es 1000'],
  },
  {
    name: 'a NumeroManifiesto with letters',
    body: [invoice('F-1', 'M-905112')],
    status: 422,
    errores: [
      'Factura #1 (Nfactura F-1): NumeroManifiesto debe ser el número del manifiesto: de 1 a 20 dígitos, sin letras, espacios ni signos (se recibió "M-905112")',
    ],
  },
  {
    name: 'a NumeroManifiesto with a space',
    body: [invoice('F-1', '905 112')],
    status: 422,
    errores: [
      'Factura #1 (Nfactura F-1): NumeroManifiesto debe ser el número del manifiesto: de 1 a 20 dígitos, sin letras, espacios ni signos (se recibió "905 112")',
    ],
  },
  {
    name: 'a NumeroManifiesto of 21 digits',
    body: [invoice('F-1', '1'.repeat(21))],
    status: 422,
    errores: [
      `Factura #1 (Nfactura F-1): NumeroManifiesto debe ser el número del manifiesto: de 1 a 20 dígitos, sin letras, espacios ni signos (se recibió "${'1'.repeat(21)}")`,
    ],
  },
  {
    name: 'a negative NumeroManifiesto sent as a number',
    body: [invoice('F-1', '905112', { NumeroManifiesto: -905112 })],
    status: 422,
    errores: [
      'Factura #1 (Nfactura F-1): NumeroManifiesto debe ser el número del manifiesto: de 1 a 20 dígitos, sin letras, espacios ni signos (se recibió -905112)',
    ],
  },
  {
    name: 'more than 200 errors → 200 listed and a count of the rest',
    body: Array.from({ length: 250 }, (_, i) => invoice(`F-${i + 1}`, '905112', { Cliente: null })),
    status: 422,
    errores: [
      ...Array.from({ length: 200 }, (_, i) => `Factura #${i + 1} (Nfactura F-${i + 1}): falta el campo Cliente`),
      '… y 50 errores más',
    ],
  },
]

export interface LenientScenario {
  name: string
  changes: Record<string, unknown>
  column: string
  stored: unknown
}

export const lenientScenarios: LenientScenario[] = [
  {
    name: 'a string field sent as a number keeps its decimal text',
    changes: { Clienteid: 40112233 },
    column: 'cliente_id',
    stored: '40112233',
  },
  {
    name: 'a numeric field sent as a numeric string is that number',
    changes: { Total: '2300.18' },
    column: 'total',
    stored: 2300.18,
  },
  {
    name: 'an integer field sent as a string is that integer',
    changes: { DiasCred: '45' },
    column: 'dias_cred',
    stored: 45,
  },
  { name: 'Total 0 is present, not missing', changes: { Total: 0 }, column: 'total', stored: 0 },
  { name: 'an optional field may be null', changes: { Vendedor: null }, column: 'vendedor', stored: null },
  {
    name: 'a Cliente of exactly 1,000 characters is kept whole',
    changes: { Cliente: 'C'.repeat(1000) },
    column: 'length(cliente)',
    stored: 1000,
  },
  {
    name: 'a Cliente of 1,000 emoji (2,000 UTF-16 units) is within the limit',
    changes: { Cliente: '😀'.repeat(1000) },
    column: 'length(cliente)',
    stored: 1000,
  },
  {
    name: 'an Nfactura of exactly 50 characters',
    changes: { Nfactura: 'N'.repeat(50) },
    column: 'length(nfactura)',
    stored: 50,
  },
  {
    name: 'an extra field of exactly 1,000 characters is kept',
    changes: { Observaciones: 'o'.repeat(1000) },
    column: 'count(*)',
    stored: 1,
  },
  {
    name: 'a NumeroManifiesto of 20 digits, leading zeros included',
    changes: { NumeroManifiesto: '00000000000000905112' },
    column: '(SELECT numero FROM manifests WHERE id = manifest_id)',
    stored: '00000000000000905112',
  },
  {
    name: 'a NumeroManifiesto sent as a number is its digits',
    changes: { NumeroManifiesto: 905112 },
    column: '(SELECT numero FROM manifests WHERE id = manifest_id)',
    stored: '905112',
  },
]

/** The batch of a leniency row: the example invoice F-1 with the row's changes. */
export const lenientBatch = (scenario: LenientScenario): Invoice[] => [invoice('F-1', '905112', scenario.changes)]
