import assert from 'node:assert/strict'
import { test } from 'node:test'
import { brotliDecompressSync } from 'node:zlib'
import { BodyWorker, type BodyJob } from '../../src/batches/body-worker.ts'
import { scanBody } from '../../src/intake/body-layout.ts'

/** A batch-like body of about `invoices` × 1.5 KB in shared memory, as src/http/body.ts reads one. */
function sharedBody(invoices: number): Buffer {
  const text = JSON.stringify(Array.from({ length: invoices }, (_, i) => ({ Nfactura: `F-${i}`, Cliente: `CLIENTE "${i}" \\ ñ`, texto: 'x'.repeat(1500) })))
  const body = Buffer.from(new SharedArrayBuffer(Buffer.byteLength(text)))
  body.write(text)
  return body
}

async function assertDoneRight(job: BodyJob, body: Buffer): Promise<void> {
  assert.deepEqual(await job.scan(), scanBody(body))
  const chunks = await job.chunks()
  assert.equal(chunks.length, Math.ceil(body.length / (1024 * 1024)))
  assert.deepEqual(Buffer.concat(chunks.map((chunk) => brotliDecompressSync(chunk))), body)
}

const scenarios: Array<[string, (worker: BodyWorker, body: Buffer) => BodyJob]> = [
  ['a whole body, compressed in the worker from shared memory', (worker, body) => worker.compress(body)],
  ['a whole body outside shared memory (copied to the worker)', (worker, body) => worker.compress(Buffer.from(body))],
  [
    'a body followed as it arrives, told of its bytes in pieces of every size',
    (worker, body) => {
      const job = worker.follow(body)
      for (const bytes of [1, 70_000, 1_100_000, 1_100_001, 2_500_000, body.length]) job.arrived(Math.min(bytes, body.length))
      return job
    },
  ],
  [
    'on the main thread when the worker stops under it (the batch is not lost)',
    (worker, body) => {
      const job = worker.compress(body)
      void worker.close()
      return job
    },
  ],
]
for (const [name, start] of scenarios) {
  test(`body worker: ${name}: the scan is the body's, the chunks decompress to the body`, async () => {
    const worker = new BodyWorker()
    try {
      const body = sharedBody(2500)
      assert.ok(body.length > 3 * 1024 * 1024)
      await assertDoneRight(start(worker, body), body)
    } finally {
      await worker.close()
    }
  })
}

test('body worker: a cancelled job is dropped, and the next one is done right', async () => {
  const worker = new BodyWorker()
  try {
    const body = sharedBody(2500)
    const arriving = worker.follow(body)
    arriving.arrived(1_500_000)
    arriving.failed()
    const done = worker.compress(body)
    done.cancel()
    await assertDoneRight(worker.compress(body), body)
  } finally {
    await worker.close()
  }
})
