import { Worker } from 'node:worker_threads'
import { brotliCompressSync, constants } from 'node:zlib'

/** A body's compression under way. */
export interface Compression {
  chunks: Promise<Buffer[]>
  cancel(): void
}

/**
 * Compresses batch bodies in a worker thread, while the main thread parses and checks them.
 * zlib's asynchronous API cannot do this: it hands each piece of output back to the main thread,
 * which is busy in JSON.parse for hundreds of milliseconds, so the thread pool would sit idle.
 * The worker reads the body from shared memory (src/http/body.ts allocates bodies in a
 * SharedArrayBuffer), compresses it with brotli in chunks, and answers with the chunks.
 *
 * The worker starts with the first batch and stops after a minute without one, so an idle
 * service holds no second JavaScript heap; it keeps the process alive only while it has work.
 */
export class BodyCompressor {
  private worker: Worker | null = null
  /** The jobs of the current worker (a stopping worker fails only its own). */
  private pending = new Map<number, { resolve: (chunks: Buffer[]) => void; reject: (error: Error) => void }>()
  private nextId = 1
  private idleTimer: NodeJS.Timeout | null = null

  constructor(private readonly idleMs = 60_000) {}

  /** Starts the worker now (while a body is still arriving), so it is ready when the body is. */
  warm(): void {
    this.ensureWorker()
  }

  /** Whether the worker thread is up. */
  get running(): boolean {
    return this.worker !== null
  }

  /**
   * The body's bytes `ranges` (offsets into `body`), each compressed with brotli. Should the
   * worker fail, they are compressed here on the main thread: slower, but the batch is not lost.
   * A body refused meanwhile is `cancel`led: the worker skips the chunks it has not begun, and
   * `chunks` rejects (nothing is compressed here for it).
   *
   * One range with no worker running is compressed here instead, once the caller's synchronous
   * work is done (a 1 MiB chunk in ~5 ms, a 100-invoice batch in ~2): booting the worker takes
   * longer than that, and batches come hours apart, so most would wait for it (measured: 12–20 ms
   * of a 100-invoice batch's ~45).
   */
  compress(body: Buffer, ranges: ReadonlyArray<readonly [number, number]>): Compression {
    if (this.worker === null && ranges.length <= 1) return compressionHere(body, ranges)
    const worker = this.ensureWorker()
    if (this.idleTimer) clearTimeout(this.idleTimer)
    const id = this.nextId++
    const shared = body.buffer instanceof SharedArrayBuffer
    // A body outside shared memory (not read from a request) is copied to the worker.
    const source = shared
      ? { buffer: body.buffer, byteOffset: body.byteOffset, byteLength: body.byteLength }
      : { buffer: new Uint8Array(body), byteOffset: 0, byteLength: body.byteLength }
    // Read by the worker before each chunk: set, it stops there.
    const cancelled = new Int32Array(new SharedArrayBuffer(4))
    const done = new Promise<Buffer[]>((resolve, reject) => this.pending.set(id, { resolve, reject }))
    // While it has work the worker keeps the process alive; idle, it never does.
    worker.ref()
    worker.postMessage({ id, ...source, ranges, cancelled })
    const chunks = done.catch((error: unknown) => {
      if (Atomics.load(cancelled, 0) === 1) throw error
      return compressHere(body, ranges)
    })
    // A cancelled compression is never awaited: its failure must not go unhandled.
    chunks.catch(() => {})
    return { chunks, cancel: () => Atomics.store(cancelled, 0, 1) }
  }

  /** Stops the worker (the service is closing); a compression under way fails. */
  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer)
    const worker = this.worker
    this.worker = null
    if (worker) await worker.terminate()
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker
    // A small heap: the worker only holds a chunk's output at a time (the body is shared memory).
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 16 },
    })
    const pending = (this.pending = new Map())
    worker.on('message', (message: { id: number; chunks?: Uint8Array[]; error?: string }) => {
      const waiting = pending.get(message.id)
      pending.delete(message.id)
      if (message.chunks)
        waiting?.resolve(message.chunks.map((chunk) => Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)))
      else waiting?.reject(new Error(`no se pudo comprimir el cuerpo del lote: ${message.error}`))
      if (pending.size === 0) {
        worker.unref()
        this.scheduleStop()
      }
    })
    const failAll = (error: Error) => {
      if (this.worker === worker) this.worker = null
      for (const waiting of pending.values()) waiting.reject(error)
      pending.clear()
    }
    worker.on('error', failAll)
    worker.on('exit', (code) => failAll(new Error(`el proceso de compresión terminó (código ${code})`)))
    // After its listeners (adding one refs it again).
    worker.unref()
    this.worker = worker
    this.scheduleStop()
    return worker
  }

  private scheduleStop(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer)
    this.idleTimer = setTimeout(() => {
      if (this.pending.size === 0) void this.close()
    }, this.idleMs)
    this.idleTimer.unref()
  }
}

/**
 * Quality 1 and a 1 MiB window (a chunk's size): the supplier's JSON shrinks ~7.3×, at ~470 MB/s.
 * Quality 3 shrinks it ~8.5× at ~260 MB/s, quality 4 ~9.6× at ~155 MB/s. The compression runs
 * beside steps 2–4, and on a two-core server a fresh service's 1,000-invoice batch waits for its
 * chunks: quality 3 made it ~7 ms slower than quality 1, and 4 slower still, for ~110 and ~190
 * bytes less per stored invoice (of ~2,600).
 */
const BROTLI_QUALITY = 1
const BROTLI_WINDOW_BITS = 20

/** A compression of `compress` that runs here on the next microtask, unless cancelled first. */
function compressionHere(body: Buffer, ranges: ReadonlyArray<readonly [number, number]>): Compression {
  let cancelled = false
  const chunks = Promise.resolve().then(() => {
    if (cancelled) throw new Error('no se pudo comprimir el cuerpo del lote: cancelado')
    return compressHere(body, ranges)
  })
  // A cancelled compression is never awaited: its failure must not go unhandled.
  chunks.catch(() => {})
  return {
    chunks,
    cancel: () => {
      cancelled = true
    },
  }
}

/** On the main thread (one small body, or the worker failed). */
function compressHere(body: Buffer, ranges: ReadonlyArray<readonly [number, number]>): Buffer[] {
  return ranges.map(([start, end]) => brotliCompressSync(body.subarray(start, end), brotliOptions(end - start)))
}

/** The same settings in the worker and here, with the chunk's size as a hint. */
function brotliOptions(size: number) {
  return {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [constants.BROTLI_PARAM_LGWIN]: BROTLI_WINDOW_BITS,
      [constants.BROTLI_PARAM_SIZE_HINT]: size,
    },
  }
}

/**
 * The worker, as source text so that it runs from the single executable too (no file of its own),
 * with the settings of `brotliOptions`.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads')
const { brotliCompressSync, constants } = require('node:zlib')
parentPort.on('message', ({ id, buffer, byteOffset, byteLength, ranges, cancelled }) => {
  try {
    const body = Buffer.from(buffer, byteOffset, byteLength)
    const chunks = []
    for (const [start, end] of ranges) {
      if (Atomics.load(cancelled, 0) === 1) return parentPort.postMessage({ id, error: 'cancelado' })
      chunks.push(brotliCompressSync(body.subarray(start, end), {
        params: { [constants.BROTLI_PARAM_QUALITY]: ${BROTLI_QUALITY}, [constants.BROTLI_PARAM_LGWIN]: ${BROTLI_WINDOW_BITS}, [constants.BROTLI_PARAM_SIZE_HINT]: end - start },
      }))
    }
    parentPort.postMessage({ id, chunks })
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) })
  }
})
`
