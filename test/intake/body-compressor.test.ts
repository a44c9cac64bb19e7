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
      const pending = compressor.compress(bytes, chunkRanges(bytes.length))
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
    const [chunk] = await compressor.compress(bytes, chunkRanges(bytes.length))
    assert.deepEqual(brotliDecompressSync(chunk!), bytes)
  } finally {
    await compressor.close()
  }
})
