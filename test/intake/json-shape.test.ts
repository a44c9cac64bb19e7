import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { JsonShape } from '../../src/intake/json-shape.ts'

function naive(bytes: Uint8Array): { commas: number; containers: number } {
  let commas = 0
  let containers = 0
  for (const byte of bytes) {
    if (byte === 0x2c) commas++
    else if (byte === 0x7b || byte === 0x5b) containers++
  }
  return { commas, containers }
}

/** Bytes rich in the counted ones and their near neighbours (0x0c, 0x3b, 0x5c, 0x7c…), at any alignment. */
const bytes = fc.array(fc.oneof(fc.constantFrom(0x2c, 0x7b, 0x5b, 0x0c, 0x3b, 0x7d, 0x5d, 0x5c, 0x7c, 0xac, 0xfb, 0xdb), fc.integer({ min: 0, max: 255 })), { maxLength: 400 })

test('json shape: counted four bytes at a time, chunks of any size and alignment give the byte-by-byte counts', () => {
  fc.assert(
    fc.property(bytes, fc.nat({ max: 3 }), fc.array(fc.integer({ min: 1, max: 37 }), { minLength: 1, maxLength: 20 }), (values, offset, sizes) => {
      const backing = new Uint8Array(values.length + 3)
      backing.set(values, offset)
      const body = backing.subarray(offset, offset + values.length)
      const shape = new JsonShape()
      for (let start = 0, i = 0; start < body.length; i++) {
        const size = sizes[i % sizes.length]!
        shape.add(body.subarray(start, start + size))
        start += size
      }
      assert.deepEqual({ commas: shape.commas, containers: shape.containers }, naive(body))
      assert.equal(shape.bytes, body.length)
    }),
    { numRuns: 500, seed: 7 },
  )
})
