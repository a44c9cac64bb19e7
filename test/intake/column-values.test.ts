import assert from 'node:assert/strict'
import { test } from 'node:test'
import { columnValue, compileColumnValues, INVOICE_FIELDS, LINE_FIELDS } from '../../src/invoices/invoice-fields.ts'

// Every kind of value a field can hold after step 3, and some it cannot (the compiled writer must
// still answer exactly what columnValue answers).
const VALUES: unknown[] = [
  undefined,
  null,
  '',
  'texto',
  'ñandú 🚚',
  '12.50',
  '-0',
  '1e3',
  0,
  -0,
  7,
  12.5,
  -3.25,
  1e21,
  123456789012,
  true,
  { a: 1 },
]

for (const [name, fields] of [
  ['invoice', INVOICE_FIELDS],
  ['line', LINE_FIELDS],
] as const) {
  test(`column values (${name}): the compiled writer answers what columnValue answers for every field and value`, () => {
    const write = compileColumnValues(fields)
    for (let shift = 0; shift < VALUES.length; shift++) {
      // Each field gets a different value on each pass; some are absent altogether.
      const object: Record<string, unknown> = {}
      fields.forEach((spec, index) => {
        const value = VALUES[(index + shift) % VALUES.length]
        if (value !== undefined) object[spec.name] = value
      })
      const params: unknown[] = ['before']
      write(object, params, 1)
      assert.deepEqual(params, ['before', ...fields.map((spec) => columnValue(spec, object[spec.name]))])
      assert.ok(
        params.slice(1).some((value) => value !== null),
        'some field holds a value',
      )
    }
  })
}
