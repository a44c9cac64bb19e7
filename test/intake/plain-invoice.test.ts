import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Compile } from 'typebox/compile'
import { INVOICE_FIELDS, LINE_FIELDS, LINES_FIELD, MAX_AMOUNT, MAX_FACTOR } from '../../src/invoices/invoice-fields.ts'
import { InvoiceSchema } from '../../src/intake/intake.schemas.ts'
import { isPlainInvoice } from '../../src/intake/plain-invoice.ts'
import { EXAMPLE_BATCH, type Invoice } from '../support/batches.ts'

const schema = Compile(InvoiceSchema)

// Every kind of value a field may be sent with, in and out of each kind's limits.
const VALUES: unknown[] = [
  undefined,
  null,
  '',
  'texto',
  ' ',
  '7',
  '12.50',
  '-3',
  '1e3',
  0,
  -0,
  7,
  -3,
  12.5,
  -3.25,
  0.5,
  MAX_AMOUNT,
  MAX_AMOUNT + 1,
  -MAX_AMOUNT,
  -MAX_AMOUNT - 1,
  MAX_FACTOR,
  MAX_FACTOR + 1,
  Number.MAX_SAFE_INTEGER,
  2 ** 53,
  NaN,
  Infinity,
  -Infinity,
  true,
  false,
  {},
  [],
  ['7'],
  // A long text and a lone surrogate half: a limit or pattern added to the schema must fail here.
  'x'.repeat(100_000),
  '\ud800',
]

/** The example's first invoice with `field` set to `value` (removed for undefined), in the header or in its second line. */
function withValue(where: 'header' | 'line', field: string, value: unknown): Invoice {
  const invoice = structuredClone(EXAMPLE_BATCH[0]!)
  const lines = invoice[LINES_FIELD] as Invoice[]
  lines.push({ ...structuredClone(lines[0]!), NumeroLinea: 99 })
  const target = where === 'header' ? invoice : lines[1]!
  if (value === undefined) delete target[field]
  else target[field] = value
  return invoice
}

test('plain invoice: the example batch is plain, so real batches take the quick path', () => {
  for (const invoice of EXAMPLE_BATCH) assert.equal(isPlainInvoice(invoice), true)
})

test('plain invoice: it accepts only what the schema accepts, for every field, in the header and in a line, with every kind of value', () => {
  let plain = 0
  let leftToSchema = 0
  for (const [where, fields] of [
    ['header', INVOICE_FIELDS],
    ['line', LINE_FIELDS],
  ] as const) {
    for (const spec of fields) {
      for (const value of VALUES) {
        const invoice = withValue(where, spec.name, value)
        const accepted = schema.Check(invoice)
        if (isPlainInvoice(invoice)) {
          plain += 1
          assert.ok(accepted, `${where} ${spec.name} = ${String(value)}: plain, but the schema refuses it`)
        } else if (accepted) {
          leftToSchema += 1
        }
      }
    }
  }
  // Both answers happen (about half the cases each way): the quick check is not always no, and
  // the other accepted forms (numeric text, whole numbers in text fields) remain the schema's.
  assert.ok(plain > 400 && leftToSchema > 300, `${plain} plain, ${leftToSchema} left to the schema`)
})

test('plain invoice: scenarios (what the quick check says, and what the schema then decides)', () => {
  const rows: Array<[string, Invoice, boolean, boolean]> = [
    // [case, invoice, plain, accepted by the schema]
    ['Total 0', withValue('header', 'Total', 0), true, true],
    ['Total negative', withValue('header', 'Total', -1), false, false],
    ['Total as numeric text', withValue('header', 'Total', '125.50'), false, true],
    ['Nfactura as a whole number', withValue('header', 'Nfactura', 1234), false, true],
    ['Nfactura empty', withValue('header', 'Nfactura', ''), false, false],
    ['optional text null', withValue('header', 'Vendedor', null), true, true],
    ['optional text absent', withValue('header', 'Vendedor', undefined), true, true],
    ['DiasCred 1.5', withValue('header', 'DiasCred', 1.5), false, false],
    ['line FactorConversion 0', withValue('line', 'FactorConversion', 0), false, false],
    ['line FactorConversion "12"', withValue('line', 'FactorConversion', '12'), false, true],
    ['line without ProductoId', withValue('line', 'ProductoId', undefined), false, false],
    ['no lines', { ...EXAMPLE_BATCH[0]!, [LINES_FIELD]: [] }, false, false],
    ['lines not an array', { ...EXAMPLE_BATCH[0]!, [LINES_FIELD]: {} }, false, false],
    ['a line that is null', { ...EXAMPLE_BATCH[0]!, [LINES_FIELD]: [null] }, false, false],
    ['a line that is an array', { ...EXAMPLE_BATCH[0]!, [LINES_FIELD]: [[]] }, false, false],
    ['an unknown field of any kind', { ...EXAMPLE_BATCH[0]!, CampoNuevo: { a: [1] } }, true, true],
  ]
  for (const [name, invoice, plain, accepted] of rows) {
    assert.deepEqual([isPlainInvoice(invoice), schema.Check(invoice)], [plain, accepted], name)
  }
  for (const value of [null, [], 'factura', 7]) assert.equal(isPlainInvoice(value), false, JSON.stringify(value))
})
