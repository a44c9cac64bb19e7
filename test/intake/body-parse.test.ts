import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import fc from 'fast-check'
import { scanBody } from '../../src/intake/body/body-scan.ts'
import { isArrayOfElements, parseBatchBody } from '../../src/intake/body/body-parse.ts'
import { BODY_INVALID_MESSAGE } from '../../src/intake/intake.answers.ts'
import { parseJsonText } from '../../src/core/json-text.ts'
import { TimeSlices } from '../../src/core/time-slices.ts'
import { invalidUtf8Offset } from '../../src/core/unicode.ts'

/** Step 2 as it was before the element-wise parse: the whole body, parsed at once. */
function parsedWhole(body: Buffer): unknown[] | 'invalid' {
  try {
    const parsed = parseJsonText(body.toString('utf8'))
    return Array.isArray(parsed) && parsed.length > 0 ? parsed : 'invalid'
  } catch {
    return 'invalid'
  }
}

/** Step 2 as it is; `pieceBytes` small cuts a body that is not a plain array of objects at many commas. */
async function parsedByStep2(body: Buffer, pieceBytes?: number): Promise<unknown[] | 'invalid'> {
  try {
    return await parseBatchBody(body, await scanBody(body, { pieceBytes }), new TimeSlices())
  } catch (error) {
    assert.equal((error as Error).message, BODY_INVALID_MESSAGE)
    return 'invalid'
  }
}

const text = fc
  .array(fc.constantFrom('"', '\\', '{', '}', '[', ']', ',', ' ', 'a', 'ñ', '😀'), { maxLength: 6 })
  .map((parts) => parts.join(''))
const value = fc.letrec((tie) => ({
  leaf: fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null)),
  node: fc.oneof(
    { depthSize: 'small' },
    tie('leaf'),
    fc.array(tie('node'), { maxLength: 3 }),
    fc.dictionary(text, tie('node'), { maxKeys: 3 }),
  ),
})).node
/** Mostly objects, as a batch is; sometimes arrays or scalars, which step 3 refuses. */
const element = fc.oneof(
  { arbitrary: fc.dictionary(text, value, { maxKeys: 4 }), weight: 6 },
  { arbitrary: fc.array(value, { maxLength: 3 }), weight: 1 },
  { arbitrary: value, weight: 1 },
)
const space = fc.constantFrom('', ' ', '\n', '\r\n\t', '\u00a0', '\f')
/** Damage that a broken client or a cut connection does to a body. */
const damage = fc.oneof(
  fc.record({ at: fc.nat(), insert: fc.constantFrom(',', '[', ']', '{', '}', '"', '1', 'x', ' ', '\u00a0', ',,') }),
  fc.record({ at: fc.nat(), remove: fc.integer({ min: 1, max: 3 }) }),
)

test('step 2: parsing element by element or by pieces answers exactly what parsing the whole body answers, for any body', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(element, { maxLength: 6 }),
      fc.constantFrom(undefined, 1, '\t'),
      space,
      space,
      fc.boolean(),
      fc.option(damage, { nil: undefined }),
      fc.integer({ min: 1, max: 12 }),
      async (elements, indent, before, after, bom, harm, pieceBytes) => {
        let body = Buffer.from(`${bom ? '\ufeff' : ''}${before}${JSON.stringify(elements, null, indent)}${after}`)
        if (harm !== undefined) {
          const at = harm.at % (body.length + 1)
          body =
            'insert' in harm
              ? Buffer.concat([body.subarray(0, at), Buffer.from(harm.insert), body.subarray(at)])
              : Buffer.concat([body.subarray(0, at), body.subarray(at + harm.remove)])
        }
        // Bytes that are not UTF-8 are refused before parsing (checkBatchBytes).
        fc.pre(invalidUtf8Offset(body) === -1)
        assert.deepEqual(await parsedByStep2(body, pieceBytes), parsedWhole(body))
      },
    ),
    { numRuns: 3000, seed: 2026 },
  )
})

/** Which way step 2 parses it: element by element (every real batch), or by pieces. */
type Path = 'elements' | 'pieces'
const scenarios: Array<[string, string, 'invalid' | unknown[], Path]> = [
  ['a plain batch', '[{"a":1},{"b":[2]}]', [{ a: 1 }, { b: [2] }], 'elements'],
  [
    'a byte-order mark and whitespace around the array',
    '\ufeff \n[ {"a":1} ,\r\n\t{"b":2} ]\n',
    [{ a: 1 }, { b: 2 }],
    'elements',
  ],
  ['arrays among the objects (step 3 names them)', '[{"a":1},[2,{"c":3}]]', [{ a: 1 }, [2, { c: 3 }]], 'elements'],
  ['an element that is not JSON', '[{"a":1},{"b":01}]', 'invalid', 'elements'],
  ['a scalar among the objects (step 3 names it)', '[{"a":1},7]', [{ a: 1 }, 7], 'pieces'],
  ['two objects without a comma', '[{"a":1}{"b":2}]', 'invalid', 'pieces'],
  ['two commas between objects', '[{"a":1},,{"b":2}]', 'invalid', 'pieces'],
  ['a trailing comma', '[{"a":1},]', 'invalid', 'pieces'],
  ['text after the array', '[{"a":1}] x', 'invalid', 'pieces'],
  ['a second array after the first', '[{"a":1}][{"b":2}]', 'invalid', 'pieces'],
  ['an object, not an array', '{"a":{"b":1}}', 'invalid', 'pieces'],
  ['a no-break space between elements (not JSON whitespace)', '[{"a":1},\u00a0{"b":2}]', 'invalid', 'pieces'],
  ['an empty array', '[ ]', 'invalid', 'pieces'],
  [
    'only scalars (cut at every comma with pieces of one byte)',
    ' [1.5, "a,b", null, [2], true] ',
    [1.5, 'a,b', null, [2], true],
    'pieces',
  ],
  ['scalars with two commas between them', '[1,,2]', 'invalid', 'pieces'],
  ['scalars with a leading comma', '[,1]', 'invalid', 'pieces'],
  ['scalars with a trailing comma', '[1,2,]', 'invalid', 'pieces'],
  ['a scalar, not an array', '7', 'invalid', 'pieces'],
]
for (const [name, text, expected, path] of scenarios) {
  test(`step 2: ${name}`, async () => {
    const body = Buffer.from(text)
    const { layout } = await scanBody(body)
    assert.equal(layout !== null && isArrayOfElements(body, layout) ? 'elements' : 'pieces', path)
    assert.deepEqual(await parsedByStep2(body), expected)
    assert.deepEqual(await parsedByStep2(body, 1), expected)
    assert.deepEqual(parsedWhole(body), expected)
  })
}

test('step 2: a supplier-shaped batch is parsed element by element', async () => {
  const body = Buffer.from(
    JSON.stringify(JSON.parse(readFileSync(new URL('../fixtures/batch-small.json', import.meta.url), 'utf8')), null, 2),
  )
  const { layout } = await scanBody(body)
  assert.ok(layout !== null && isArrayOfElements(body, layout))
})
