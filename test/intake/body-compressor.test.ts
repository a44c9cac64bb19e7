import assert from 'node:assert/strict'
import { test } from 'node:test'
import { brotliDecompressSync } from 'node:zlib'
import { chunkRanges } from '../../src/batches/body-chunks.ts'
import { BodyCompressor } from '../../src/batches/body-compressor.ts'

const body = (size: number) => {
  const shared = Buffer.from(new SharedArrayBuffer(size))
  for (let i = 0; i < size; i++) shared[i] = 0x61 + (i % 26)
  return shared
}

const scenarios: Array<[string, (compressor: BodyCompressor) => void]> = [
  ['in the worker, from shared memory', () => {}],
  ['on the main thread when the worker stops under it (the batch is not lost)', (compressor) => void compressor.close()],
]
for (const [name, meanwhile] of scenarios) {
  test(`body compressor: ${name}, the chunks decompress to the body`, async () => {
    const compressor = new BodyCompressor()
    try {
      const bytes = body(2_500_000)
      const pending = compressor.compress(bytes, chunkRanges(bytes.length)).chunks
      meanwhile(compressor)
      const chunks = await pending
      assert.equal(chunks.length, 3)
      assert.deepEqual(Buffer.concat(chunks.map((chunk) => brotliDecompressSync(chunk))), bytes)
    } finally {
      await compressor.close()
    }
  })
}

test('body compressor: a body outside shared memory is copied to the worker', async () => {
  const compressor = new BodyCompressor()
  try {
    const bytes = Buffer.from('[{"Nfactura":"F-1"}]')
    const [chunk] = await compressor.compress(bytes, chunkRanges(bytes.length)).chunks
    assert.deepEqual(brotliDecompressSync(chunk!), bytes)
  } finally {
    await compressor.close()
  }
})

test('body compressor: a cancelled compression rejects without compressing on the main thread, and the worker goes on with the next', async () => {
  const compressor = new BodyCompressor()
  try {
    const refused = body(8_000_000)
    const cancelled = compressor.compress(refused, chunkRanges(refused.length))
    cancelled.cancel()
    await assert.rejects(cancelled.chunks, /cancelado/)
    const bytes = Buffer.from('[{"Nfactura":"F-2"}]')
    const [chunk] = await compressor.compress(bytes, chunkRanges(bytes.length)).chunks
    assert.deepEqual(brotliDecompressSync(chunk!), bytes)
  } finally {
    await compressor.close()
  }
})
