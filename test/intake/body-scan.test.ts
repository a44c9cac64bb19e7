import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync } from 'node:zlib'
import {
  BODY_CHUNK_BYTES,
  chunkRanges,
  findChunkedBody,
  insertBodyChunks,
  readOriginalBytes,
} from '../../src/batches/body-chunks.ts'
import { closeDatabase, openDatabase } from '../../src/db/database.ts'
import { migrateDatabase } from '../../src/db/migrate.ts'
import { bodyBuffer, placeOf, scanBody } from '../../src/intake/body/body-scan.ts'
import { insertBatchRow } from '../support/fixtures.ts'
import { DERIVED_VALUES } from '../../src/app/derived-values.ts'

/** Objects and arrays in a parsed value: what the scan must count as containers. */
function containersIn(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0
  const children = Array.isArray(value) ? value : Object.values(value)
  return 1 + children.reduce((sum: number, child) => sum + containersIn(child), 0)
}

/** Texts rich in what a scanner can get wrong: quotes, backslashes, brackets and commas inside strings. */
const tricky = fc
  .array(fc.constantFrom('"', '\\', '{', '}', '[', ']', ',', 'a', 'ñ', '😀', '\u0000'), { maxLength: 8 })
  .map((parts) => parts.join(''))
const value = fc.letrec((tie) => ({
  leaf: fc.oneof(tricky, fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null)),
  node: fc.oneof(
    { depthSize: 'small' },
    tie('leaf'),
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(tricky, tie('node'), { maxKeys: 4 }),
  ),
})).node
const element = fc.oneof(fc.dictionary(tricky, value, { maxKeys: 5 }), fc.array(value, { maxLength: 4 }))

test('body scan: each top-level object or array is found byte for byte, whatever the strings and the formatting', async () => {
  fc.assert(
    fc.asyncProperty(
      fc.array(element, { maxLength: 12 }),
      fc.constantFrom(undefined, 1, 2, '\t'),
      async (elements, indent) => {
        const body = Buffer.from(` ${JSON.stringify(elements, null, indent)}\n`)
        const scan = await scanBody(body)
        assert.ok(scan.layout)
        assert.equal(scan.layout.count, elements.length)
        elements.forEach((expected, i) => {
          assert.equal(
            JSON.stringify(JSON.parse(body.subarray(scan.layout!.starts[i], scan.layout!.ends[i]).toString('utf8'))),
            JSON.stringify(expected),
          )
        })
        assert.equal(scan.containers, containersIn(elements))
        assert.equal(scan.bytes, body.length)
      },
    ),
    { numRuns: 400, seed: 15 },
  )
})

test('body chunks: concatenated they are the body, and an invoice straddling two chunks is read whole', async () => {
  const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'manifiesto-chunks-')), 'm.db'))
  try {
    migrateDatabase(db, DERIVED_VALUES)
    const batchId = insertBatchRow(db)
    const invoices = Array.from({ length: 700 }, (_, i) => ({
      Nfactura: `F-${i}`,
      texto: `${i % 7 === 0 ? '{"no":[1,2]}' : 'x'}${'ñ'.repeat(2000)}`,
    }))
    const body = Buffer.from(`[\n${invoices.map((invoice) => `  ${JSON.stringify(invoice)}`).join(',\n')}\n]`)
    const ranges = chunkRanges(body.length)
    assert.ok(ranges.length >= 3)
    assert.deepEqual(Buffer.concat(ranges.map(([start, end]) => body.subarray(start, end))), body)
    insertBodyChunks(
      db,
      batchId,
      ranges.map(([start, end]) => brotliCompressSync(body.subarray(start, end))),
    )
    assert.equal(findChunkedBody(db, batchId), undefined, 'a body whose size is not recorded is not trusted whole')
    db.sqlite.prepare('UPDATE batches SET body_bytes = ? WHERE id = ?').run(body.length, batchId)
    assert.deepEqual(findChunkedBody(db, batchId), body)
    const layout = (await scanBody(body)).layout!
    const straddling = invoices.findIndex(
      (_, i) =>
        Math.floor(layout.starts[i]! / BODY_CHUNK_BYTES) !== Math.floor((layout.ends[i]! - 1) / BODY_CHUNK_BYTES),
    )
    assert.ok(straddling > 0, 'some invoice crosses a chunk boundary')
    for (const i of [0, straddling, invoices.length - 1]) {
      assert.deepEqual(
        JSON.parse(readOriginalBytes(db, batchId, placeOf(layout, i), new Map()).toString('utf8')),
        invoices[i],
      )
    }
    db.sqlite.prepare('DELETE FROM batch_body_chunks WHERE batch_id = ? AND chunk = 1').run(batchId)
    assert.equal(findChunkedBody(db, batchId), undefined, 'a body missing a chunk (pruned) is not answered')
  } finally {
    closeDatabase(db)
  }
})

const scenarios: Array<
  [string, string, { containers: number; commas: number; maxDepth: number; count: number | null }]
> = [
  [
    'commas and brackets inside strings are not counted',
    '[{"a":"x,{[,"},{"b":"\\\\"}]',
    { containers: 3, commas: 1, maxDepth: 2, count: 2 },
  ],
  [
    'an escaped quote does not end a string',
    '[{"a":"say \\"hi\\", [no]"}]',
    { containers: 2, commas: 0, maxDepth: 2, count: 1 },
  ],
  ['top-level scalars are not listed', '[1,"dos",{"tres":3}]', { containers: 2, commas: 2, maxDepth: 2, count: 1 }],
  [
    'an unterminated string: counted up to it, no layout',
    '[{},{},"abc',
    { containers: 3, commas: 2, maxDepth: 2, count: null },
  ],
  ['an unclosed array: no layout', '[{},{}', { containers: 3, commas: 1, maxDepth: 2, count: null }],
  ['deep nesting is measured', '[[[[{}]]]]', { containers: 5, commas: 0, maxDepth: 5, count: 1 }],
]
for (const [name, body, expected] of scenarios) {
  test(`body scan: ${name}`, async () => {
    const scan = await scanBody(Buffer.from(body))
    assert.deepEqual(
      { containers: scan.containers, commas: scan.commas, maxDepth: scan.maxDepth, count: scan.layout?.count ?? null },
      expected,
    )
  })
}

test('body scan: a lone surrogate can only come from a \\uD800–\\uDFFF escape in a string', async () => {
  const cases: Array<[string, boolean]> = [
    ['[{"a":"😀 ñ"}]', false],
    ['[{"a":"\\ud83d\\ude00"}]', true],
    ['[{"a":"\\uD800"}]', true],
    ['[{"\\udc00":1}]', true],
    ['[{"a":"\\\\ud800"}]', false],
    ['[{"a":"\\u00f1"}]', false],
  ]
  for (const [body, expected] of cases)
    assert.equal((await scanBody(Buffer.from(body))).mayHoldLoneSurrogate, expected, body)
})

/**
 * The scan's specification: a byte at a time (the scan reads string bytes sixteen at a time, and a
 * body in parts), the pieces' commas included.
 */
function scanByteByByte(body: Uint8Array, pieceBytes: number) {
  let depth = 0
  let maxDepth = 0
  let containers = 0
  let commas = 0
  let surrogateEscape = false
  let longestString = 0
  const starts: number[] = []
  const ends: number[] = []
  const pieceEnds: number[] = []
  let pieceStart = 0
  for (let i = 0; i < body.length; i++) {
    const char = String.fromCharCode(body[i]!)
    if (char === '"') {
      const opened = i
      for (i++; i < body.length && body[i] !== 0x22; i++) {
        if (body[i] !== 0x5c) continue
        if (body[i + 1] === 0x75 && (body[i + 2] === 0x64 || body[i + 2] === 0x44)) surrogateEscape = true
        i++
      }
      if (i >= body.length)
        return {
          containers,
          commas,
          maxDepth,
          mayHoldLoneSurrogate: surrogateEscape,
          longestString,
          places: null,
          pieceEnds,
        }
      longestString = Math.max(longestString, i - opened - 1)
    } else if (char === ',') {
      commas++
      if (depth === 1 && i + 1 - pieceStart >= pieceBytes) {
        pieceEnds.push(i)
        pieceStart = i + 1
      }
    } else if (char === '{' || char === '[') {
      containers++
      if (depth === 1) starts.push(i)
      maxDepth = Math.max(maxDepth, ++depth)
    } else if (char === '}' || char === ']') {
      if (--depth === 1) ends.push(i + 1)
    }
  }
  return {
    containers,
    commas,
    maxDepth,
    mayHoldLoneSurrogate: surrogateEscape,
    longestString,
    places: depth === 0 ? { starts, ends } : null,
    pieceEnds,
  }
}

test("body scan: any bytes, read into the scan's memory or anywhere else, in parts of any size, are scanned as a byte-by-byte reading does", async () => {
  // Runs of these, JSON or not: quotes and backslashes land at every position of a 16-byte read,
  // escapes straddle reads, strings end at the body's last bytes or never.
  const piece = fc.oneof(
    fc.constantFrom(
      '"',
      '\\',
      '\\"',
      '\\\\',
      '\\u',
      '\\ud8',
      '\\uD',
      'u',
      'd',
      '{',
      '}',
      '[',
      ']',
      ',',
      ':',
      ' ',
      'ñ',
      '😀',
    ),
    fc.string({ maxLength: 9 }),
    fc.string({ maxLength: 40 }),
  )
  await fc.assert(
    fc.asyncProperty(
      fc.array(piece, { maxLength: 40 }),
      fc.boolean(),
      fc.integer({ min: 1, max: 64 }),
      fc.integer({ min: 1, max: 24 }),
      async (pieces, inPlace, partBytes, pieceBytes) => {
        const text = Buffer.from(`[${pieces.join('')}`)
        const body = inPlace ? bodyBuffer(text.length) : Buffer.alloc(text.length)
        text.copy(body)
        const scan = await scanBody(body, { partBytes, pieceBytes })
        const expected = scanByteByByte(body, pieceBytes)
        assert.deepEqual(
          {
            containers: scan.containers,
            commas: scan.commas,
            maxDepth: scan.maxDepth,
            mayHoldLoneSurrogate: scan.mayHoldLoneSurrogate,
            longestString: scan.longestStringBytes,
            places: scan.layout && { starts: [...scan.layout.starts], ends: [...scan.layout.ends] },
            pieceEnds: scan.pieceEnds,
          },
          expected,
        )
      },
    ),
    { numRuns: 3000, seed: 24 },
  )
})

test("body scan: a body read into the scan's memory is in shared memory, and a part of it scans as itself, whatever follows it", async () => {
  const buffer = bodyBuffer(64)
  assert.ok(buffer.buffer instanceof SharedArrayBuffer, 'the compression worker reads bodies from shared memory')
  buffer.fill('ud"}],')
  const whole = Buffer.from('[{"a":"}"},[1]]')
  whole.copy(buffer)
  const scan = await scanBody(buffer.subarray(0, whole.length))
  assert.deepEqual(
    {
      count: scan.layout?.count,
      starts: [...scan.layout!.starts],
      ends: [...scan.layout!.ends],
      containers: scan.containers,
      commas: scan.commas,
    },
    { count: 2, starts: [1, 11], ends: [10, 14], containers: 3, commas: 1 },
  )
  // A string cut after its backslash: the `ud"]` that follows in memory is not the body's.
  Buffer.from('["\\ud"]').copy(buffer)
  const cut = await scanBody(buffer.subarray(0, 3))
  assert.deepEqual({ layout: cut.layout, surrogate: cut.mayHoldLoneSurrogate }, { layout: null, surrogate: false })
})
