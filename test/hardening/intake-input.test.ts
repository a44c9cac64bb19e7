import assert from 'node:assert/strict'
import { test } from 'node:test'
import { databaseState, invoice, postBatch, type Answer, type Invoice } from '../support/batches.ts'
import { withService, type TestService } from '../support/service.ts'

const INTAKE = { config: { rateLimits: { insertPerMinute: 1000, generalPerMinute: 1000 } } }
const BODY_INVALID = 'El cuerpo de la solicitud debe ser un arreglo JSON no vacío de facturas.'

/** The example invoice with one line changed. */
function withLine(nfactura: string, changes: Record<string, unknown>): Invoice {
  const base = invoice(nfactura)
  const lines = structuredClone(base.LineasFactura) as Array<Record<string, unknown>>
  Object.assign(lines[1]!, changes)
  return { ...base, LineasFactura: lines }
}

/** JSON text with `value` written verbatim as the invoice field (numbers JSON.stringify cannot write). */
function withRawField(nfactura: string, field: string, value: string): string {
  return JSON.stringify([{ ...invoice(nfactura), [field]: '@@' }]).replace('"@@"', value)
}

async function postBytes(service: TestService, bytes: Buffer): Promise<{ status: number; body: Answer }> {
  const response = await service.client('/api/v1/facturas/insertar', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: bytes,
  })
  return { status: response.status, body: (await response.json()) as Answer }
}

interface Refusal {
  name: string
  body: unknown | (() => Buffer)
  /** The exact `errores` of a step-3 refusal, or the exact message of a step-2 one. */
  errores?: string[]
  message?: string
}

const refusals: Refusal[] = [
  // Defect 3: numbers that cannot be represented, or are absurd.
  {
    name: 'FactorConversion 0.0004',
    body: [withLine('F-1', { FactorConversion: 0.0004 })],
    errores: [
      'Factura #1 (Nfactura F-1): línea #2: FactorConversion debe ser un entero de 1 a 1000000 (unidades por caja) (se recibió 0.0004)',
    ],
  },
  {
    name: 'FactorConversion 0',
    body: [withLine('F-1', { FactorConversion: 0 })],
    errores: [
      'Factura #1 (Nfactura F-1): línea #2: FactorConversion debe ser un entero de 1 a 1000000 (unidades por caja) (se recibió 0)',
    ],
  },
  {
    name: 'FactorConversion "0.5" as text',
    body: [withLine('F-1', { FactorConversion: '0.5' })],
    errores: [
      'Factura #1 (Nfactura F-1): línea #2: FactorConversion debe ser un entero de 1 a 1000000 (unidades por caja) (se recibió "0.5")',
    ],
  },
  {
    name: 'Total 5e12',
    body: [invoice('F-1', '905112', { Total: 5e12 })],
    errores: ['Factura #1 (Nfactura F-1): Total debe ser un número de 0 a 1000000000000 (se recibió 5000000000000)'],
  },
  {
    name: 'Total 1e400 (Infinity once parsed)',
    body: withRawField('F-1', 'Total', '1e400'),
    errores: [
      'Factura #1 (Nfactura F-1): Total debe ser un número de 0 a 1000000000000 (se recibió un número demasiado grande)',
    ],
  },
  {
    name: 'Total "1e400" as text',
    body: [invoice('F-1', '905112', { Total: '1e400' })],
    errores: ['Factura #1 (Nfactura F-1): Total debe ser un número de 0 a 1000000000000 (se recibió "1e400")'],
  },
  {
    name: 'DiasCred 1e400',
    body: withRawField('F-1', 'DiasCred', '1e400'),
    errores: [
      'Factura #1 (Nfactura F-1): DiasCred debe ser un entero exacto de hasta 15 dígitos (se recibió un número demasiado grande)',
    ],
  },
  {
    name: 'DiasCred 1e20 (not exact)',
    body: [invoice('F-1', '905112', { DiasCred: 1e20 })],
    errores: [
      'Factura #1 (Nfactura F-1): DiasCred debe ser un entero exacto de hasta 15 dígitos (se recibió 100000000000000000000)',
    ],
  },
  {
    name: 'a line Total of 1e303',
    body: [withLine('F-1', { Total: 1e303 })],
    errores: [
      'Factura #1 (Nfactura F-1): línea #2: Total debe ser un número de -1000000000000 a 1000000000000 (se recibió 1e+303)',
    ],
  },
  {
    name: 'CantidadFracciones 1e400',
    body: () => Buffer.from(JSON.stringify([withLine('F-1', { CantidadFracciones: '@@' })]).replace('"@@"', '1e400')),
    errores: [
      'Factura #1 (Nfactura F-1): línea #2: CantidadFracciones debe ser un número de -1000000000000 a 1000000000000 (se recibió un número demasiado grande)',
    ],
  },
  {
    name: 'Nfactura sent as 1.5',
    body: [invoice('x', '905112', { Nfactura: 1.5 })],
    errores: [
      'Factura #1: Nfactura debe ser texto de hasta 50 caracteres, o un número entero exacto de hasta 15 dígitos (se recibió 1.5)',
    ],
  },
  {
    name: 'Nfactura sent as a 20-digit number',
    body: withRawField('x', 'Nfactura', '12345678901234567890'),
    errores: [
      'Factura #1: Nfactura debe ser texto de hasta 50 caracteres, o un número entero exacto de hasta 15 dígitos (se recibió 12345678901234567000)',
    ],
  },
  {
    name: 'NumeroManifiesto sent as 1e16',
    body: [invoice('F-1', '905112', { NumeroManifiesto: 1e16 })],
    errores: [
      'Factura #1 (Nfactura F-1): NumeroManifiesto debe ser el número del manifiesto: de 1 a 20 dígitos, sin letras, espacios ni signos (se recibió 10000000000000000)',
    ],
  },
  // Defect 4: text that is not valid Unicode.
  {
    name: 'a lone surrogate in Nfactura',
    body: () => Buffer.from(JSON.stringify([invoice('SUR-@@')]).replace('@@', '\\ud800')),
    errores: ['Factura #1: Nfactura: texto con un carácter Unicode inválido (un sustituto suelto)'],
  },
  {
    name: 'two invoices with lone surrogates in Nfactura (once a 500 that asked for a resend forever)',
    body: () =>
      Buffer.from(
        JSON.stringify([invoice('SUR-@@'), invoice('SUR-##')])
          .replace('@@', '\\ud800')
          .replace('##', '\\udfff'),
      ),
    errores: [
      'Factura #1: Nfactura: texto con un carácter Unicode inválido (un sustituto suelto)',
      'Factura #2: Nfactura: texto con un carácter Unicode inválido (un sustituto suelto)',
    ],
  },
  {
    name: 'a lone surrogate in a field the interface does not list',
    body: () => Buffer.from(JSON.stringify([invoice('F-1', '905112', { Barrio: 'COL. @@' })]).replace('@@', '\\udc00')),
    errores: ['Factura #1 (Nfactura F-1): Barrio: texto con un carácter Unicode inválido (un sustituto suelto)'],
  },
  {
    name: 'a lone surrogate in a line field',
    body: () => Buffer.from(JSON.stringify([withLine('F-1', { ProductoDesc: 'SALSA @@' })]).replace('@@', '\\ud83d')),
    errores: [
      'Factura #1 (Nfactura F-1): línea #2: ProductoDesc: texto con un carácter Unicode inválido (un sustituto suelto)',
    ],
  },
  {
    name: 'Latin-1 bytes instead of UTF-8 (PULPERÍA)',
    body: () => {
      const text = JSON.stringify([invoice('F-1', '905112', { Cliente: 'PULPERÍA' })])
      return Buffer.from(text, 'latin1')
    },
    message: `${BODY_INVALID} El cuerpo no es texto UTF-8 válido: el byte @OFFSET no forma parte de un carácter UTF-8. Envíe el lote codificado en UTF-8.`,
  },
]

for (const scenario of refusals) {
  test(`hardening, intake: ${scenario.name} → 422 naming it, nothing written`, () =>
    withService(INTAKE, async (service) => {
      const before = databaseState(service.db)
      const { status, body } =
        typeof scenario.body === 'function'
          ? await postBytes(service, (scenario.body as () => Buffer)())
          : await postBatch(service, scenario.body)
      assert.equal(status, 422, JSON.stringify(body))
      if (scenario.errores) {
        assert.deepEqual(body.errores, scenario.errores)
      } else {
        const bytes = (scenario.body as () => Buffer)()
        const offset = bytes.indexOf(Buffer.from('PULPER', 'latin1')) + 6
        assert.deepEqual(body, { success: false, message: scenario.message!.replace('@OFFSET', String(offset)) })
      }
      assert.deepEqual(databaseState(service.db), before)
    }))
}

test('hardening, intake: ten invoices of L 10^12 in one manifest are summed without overflow (status and lists)', () =>
  withService(INTAKE, async (service) => {
    const batch = Array.from({ length: 10 }, (_, i) => invoice(`MAX-${i + 1}`, '905112', { Total: 1e12 }))
    assert.equal((await postBatch(service, batch)).status, 200)
    const status = await service.client('/api/v1/manifiestos/905112/estado')
    assert.equal(status.status, 200)
    assert.equal(((await status.json()) as Answer).resumen.total_importe, 1e13)
    const list = await service.fetch('/api/v1/operador/manifiestos', {
      headers: { OperatorKey: service.config.auth.operatorKey as string },
    })
    assert.equal(list.status, 200)
    assert.equal(((await list.json()) as Answer[])[0]!.total_importe, 1e13)
  }))

test('hardening: a line stored with a fractional FactorConversion (before the rule) still gives a readable listing', () =>
  withService(INTAKE, async (service) => {
    assert.equal((await postBatch(service, [invoice('F-1')])).status, 200)
    service.db.sqlite.exec('UPDATE invoice_lines SET factor_conversion = 0.0004 WHERE numero_linea = 2')
    const headers = {
      OperatorKey: service.config.auth.operatorKey as string,
      Operador: 'Ana',
      'Content-Type': 'application/json',
    }
    const reason = await service.fetch('/api/v1/operador/conceptos', {
      method: 'POST',
      headers,
      body: JSON.stringify({ codigo: 'DANADO', descripcion: 'Producto dañado' }),
    })
    assert.equal(reason.status, 201)
    const registered = await service.fetch('/api/v1/operador/devoluciones', {
      method: 'POST',
      headers,
      body: JSON.stringify({
        factura: 'F-1',
        concepto: 'DANADO',
        fecha: '2026-11-22',
        lineas: [{ numeroLinea: 2, cajas: 1 }],
        aprobar: true,
      }),
    })
    assert.equal(registered.status, 201)
    const listing = await service.client('/api/v1/devoluciones/listar', { headers: { Fecha: '22/11/2026' } })
    const text = await listing.text()
    assert.equal(listing.status, 200)
    const [listed] = JSON.parse(text) as Answer[]
    assert.equal(listed!.lineasDevolucion[0].cantidad, 1, 'a box of an unusable factor counts one unit')
  }))
