import assert from 'node:assert/strict'
import { test } from 'node:test'
import { brotliDecompressSync } from 'node:zlib'
import { BODY_CHUNK_BYTES, chunkRanges } from '../../src/batches/body-chunks.ts'
import { BodyCompressor } from '../../src/intake/body/body-compressor.ts'

const body = (size: number) => {
  const shared = Buffer.from(new SharedArrayBuffer(size))
  for (let i = 0; i < size; i++) shared[i] = 0x61 + (i % 26)
  return shared
}

/** A compressor of the test's own, closed (its worker stopped) whatever the test does. */
async function withCompressor(work: (compressor: BodyCompressor) => Promise<void>): Promise<void> {
  const compressor = new BodyCompressor()
  try {
    await work(compressor)
  } finally {
    await compressor.close()
  }
}

const scenarios: Array<[string, (compressor: BodyCompressor) => void]> = [
  ['in the worker, from shared memory', () => {}],
  [
    'on the main thread when the worker stops under it (the batch is not lost)',
    (compressor) => void compressor.close(),
  ],
]
for (const [name, meanwhile] of scenarios) {
  test(`body compressor: ${name}, the chunks decompress to the body`, () =>
    withCompressor(async (compressor) => {
      const bytes = body(2_500_000)
      const pending = compressor.compress(bytes, chunkRanges(bytes.length)).chunks
      meanwhile(compressor)
      const chunks = await pending
      assert.equal(chunks.length, 3)
      assert.deepEqual(Buffer.concat(chunks.map((chunk) => brotliDecompressSync(chunk))), bytes)
    }))
}

test('body compressor: a body outside shared memory is copied to the worker', () =>
  withCompressor(async (compressor) => {
    compressor.warm()
    const bytes = Buffer.from('[{"Nfactura":"F-1"}]')
    const [chunk] = await compressor.compress(bytes, chunkRanges(bytes.length)).chunks
    assert.deepEqual(brotliDecompressSync(chunk!), bytes)
  }))

test('body compressor: a cancelled compression rejects without compressing on the main thread, and the worker goes on with the next', () =>
  withCompressor(async (compressor) => {
    const refused = body(8_000_000)
    const cancelled = compressor.compress(refused, chunkRanges(refused.length))
    cancelled.cancel()
    await assert.rejects(cancelled.chunks, /cancelado/)
    const bytes = Buffer.from('[{"Nfactura":"F-2"}]')
    const [chunk] = await compressor.compress(bytes, chunkRanges(bytes.length)).chunks
    assert.deepEqual(brotliDecompressSync(chunk!), bytes)
  }))

test('body compressor: a body of one chunk, with no worker running, is compressed here without starting one; cancelled, it rejects', () =>
  withCompressor(async (compressor) => {
    const bytes = body(BODY_CHUNK_BYTES)
    const ranges = chunkRanges(bytes.length)
    assert.equal(ranges.length, 1)
    const [chunk] = await compressor.compress(bytes, ranges).chunks
    assert.deepEqual(brotliDecompressSync(chunk!), bytes)
    assert.equal(compressor.running, false, 'no worker for one chunk')

    const refused = compressor.compress(bytes, ranges)
    refused.cancel()
    await assert.rejects(refused.chunks, /cancelado/)

    const twoChunks = body(bytes.length + 1)
    await compressor.compress(twoChunks, chunkRanges(twoChunks.length)).chunks
    assert.equal(compressor.running, true, 'more than one chunk goes to the worker')
  }))
