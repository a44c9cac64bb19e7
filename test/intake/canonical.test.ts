import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { CanonicalWriter, canonicalJson, NestingTooDeepError } from '../../src/invoices/canonical-json.ts'

const cases: Array<{ name: string; value: unknown; text: string }> = [
  {
    name: 'keys sorted at every level',
    value: { b: 1, a: { d: [{ z: 1, y: 2 }], c: null } },
    text: '{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}',
  },
  {
    name: 'numbers in shortest form',
    value: JSON.parse('{"x": 450.0, "y": 1e2, "z": -0.50}'),
    text: '{"x":450,"y":100,"z":-0.5}',
  },
  { name: 'integer-like keys sort as text', value: { 10: 'a', 9: 'b', a: 'c' }, text: '{"10":"a","9":"b","a":"c"}' },
  { name: 'strings escaped as JSON', value: { 'a"b': 'línea\nnueva' }, text: '{"a\\"b":"línea\\nnueva"}' },
  {
    name: 'constructor is an ordinary key',
    value: JSON.parse('{"constructor": {"x": 1}, "a": 2}'),
    text: '{"a":2,"constructor":{"x":1}}',
  },
]

for (const scenario of cases) {
  test(`canonical JSON: ${scenario.name}`, () => {
    assert.equal(canonicalJson(scenario.value), scenario.text)
    assert.equal(new CanonicalWriter().write(scenario.value), scenario.text)
  })
}

test('canonical JSON: the fast writer writes exactly what the reference writes, for any JSON, with shapes shared across values', () => {
  const key = fc.constantFrom('a', 'b', 'c', 'Total', '__proto__', 'constructor', '1', '10', 'é', '"')
  const objects = fc.dictionary(key, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 })
  fc.assert(
    fc.property(
      fc.array(fc.oneof(fc.jsonValue({ maxDepth: 6 }), objects, fc.string({ unit: 'binary' })), {
        minLength: 1,
        maxLength: 8,
      }),
      (values) => {
        const writer = new CanonicalWriter() // one writer for all: shapes found for one value serve the next
        for (const value of values) {
          const parsed = JSON.parse(JSON.stringify(value)) as unknown // objects as JSON.parse makes them (own __proto__)
          assert.equal(writer.write(parsed), canonicalJson(parsed))
        }
      },
    ),
    { numRuns: 1000, seed: 42 },
  )
})

test('canonical JSON: objects with the same key count, first and last key but other keys get their own shape', () => {
  const writer = new CanonicalWriter()
  assert.equal(writer.write({ a: 1, m: 2, z: 3 }), '{"a":1,"m":2,"z":3}')
  assert.equal(writer.write({ a: 1, b: 2, z: 3 }), '{"a":1,"b":2,"z":3}')
  assert.equal(writer.write(JSON.parse('{"a": 1, "__proto__": 2, "z": 3}')), '{"__proto__":2,"a":1,"z":3}')
})

test('canonical JSON: nesting past 64 levels is refused by both', () => {
  let deep: unknown = 1
  for (let i = 0; i < 65; i++) deep = [deep]
  assert.throws(() => canonicalJson(deep), NestingTooDeepError)
  assert.throws(() => new CanonicalWriter().write(deep), NestingTooDeepError)
})
