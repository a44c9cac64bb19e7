import { Worker } from 'node:worker_threads'
import { brotliCompressSync, constants } from 'node:zlib'
import type { BodyWatcher } from '../http/body.ts'
import { BodyScanner, scanBody, type BodyScan } from '../intake/body-layout.ts'
import { chunkRanges } from './body-chunks.ts'

/**
 * A batch's body, worked on in a worker thread while the main thread does something else: scanned
 * (src/intake/body-layout.ts) as its bytes arrive (`follow`), then compressed into its chunks
 * while the main thread parses and checks it. The methods are called once the whole body is there;
 * what the worker does not do (the scan of a body it did not follow) or cannot do (it failed) is
 * done here on the main thread: slower, but nothing is lost.
 */
export interface BodyJob {
  /** The body's scan. */
  scan(): Promise<BodyScan>
  /** The body's chunks (`chunkRanges`), each compressed with brotli. */
  chunks(): Promise<Buffer[]>
  /** Nothing more is needed from it (a duplicate, a refused batch): the worker drops it. */
  cancel(): void
}

/**
 * The thread that scans and compresses batch bodies. zlib's asynchronous API cannot overlap
 * compression with parsing: it hands each piece of output back to the main thread, which is busy in
 * JSON.parse for hundreds of milliseconds. The worker reads the body from shared memory
 * (src/http/body.ts reads bodies into a SharedArrayBuffer) with no copy.
 *
 * The worker starts with the first batch and stops after a minute without one, so an idle service
 * holds no second JavaScript heap; it keeps the process alive only while it has work.
 */
export class BodyWorker {
  private worker: Worker | null = null
  /** The jobs of the current worker (a stopping worker fails only its own). */
  private pending = new Map<number, PendingJob>()
  private nextId = 1
  private idleTimer: NodeJS.Timeout | null = null
  private loaded = false

  constructor(private readonly idleMs = 60_000) {}

  /** Starts the worker now (while a body is still arriving), so it is ready when the body is. */
  warm(): void {
    this.ensureWorker()
  }

  /**
   * Whether the worker is up, its code loaded: only then is a body worth following as it arrives.
   * A worker still starting would scan it later than the main thread can.
   */
  get ready(): boolean {
    return this.worker !== null && this.loaded
  }

  /**
   * Follows a body as it arrives into shared memory (readBody's `arriving`): the worker scans each
   * new part as it is told of it.
   */
  follow(body: Buffer): BodyJob & BodyWatcher {
    // Told at most once per MiB: a message per network chunk would cost more than it saves.
    const step = 1024 * 1024
    let told = 0
    const job = this.start(body, { scan: true, available: 0 })
    return {
      ...job,
      arrived: (bytes) => {
        if (bytes - told < step && bytes !== body.length) return
        told = bytes
        job.tell({ type: 'arrived', bytes })
      },
      failed: () => job.cancel(),
    }
  }

  /** A body that is all there and was not followed: the worker compresses it, the scan is the main thread's. */
  compress(body: Buffer): BodyJob {
    return this.start(body, { scan: false, available: body.length })
  }

  /** Stops the worker (the service is closing); the work under way falls back to the main thread. */
  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer)
    const worker = this.worker
    this.worker = null
    if (worker) await worker.terminate()
  }

  private start(body: Buffer, options: { scan: boolean; available: number }): BodyJob & { tell: (message: object) => void } {
    const worker = this.ensureWorker()
    if (this.idleTimer) clearTimeout(this.idleTimer)
    const id = this.nextId++
    const ranges = chunkRanges(body.length)
    const pending = this.pending
    const scanned = deferred<BodyScan>()
    const compressed = deferred<Buffer[]>()
    pending.set(id, {
      scanned: scanned.resolve,
      compressed: compressed.resolve,
      failed: (error) => {
        scanned.reject(error)
        compressed.reject(error)
      },
    })
    const shared = body.buffer instanceof SharedArrayBuffer
    // A body outside shared memory (not read from a request) is copied to the worker.
    const source = shared ? { buffer: body.buffer, byteOffset: body.byteOffset, byteLength: body.byteLength } : { buffer: new Uint8Array(body), byteOffset: 0, byteLength: body.byteLength }
    // While it has work the worker keeps the process alive; idle, it never does.
    worker.ref()
    worker.postMessage({ type: 'start', id, ...source, ...options, ranges })
    const tell = (message: object) => {
      if (pending.has(id)) worker.postMessage({ ...message, id })
    }
    return {
      tell,
      scan: async () => (options.scan ? scanned.promise.catch(() => scanBody(body)) : scanBody(body)),
      chunks: () => compressed.promise.catch(() => ranges.map(([start, end]) => brotliCompressSync(body.subarray(start, end), brotliOptions(end - start)))),
      cancel: () => {
        tell({ type: 'cancel' })
        this.settled(pending, id)?.failed(new Error('trabajo cancelado'))
      },
    }
  }

  /** Takes a job out of its worker's pending ones; the worker unrefs and may stop when none is left. */
  private settled(pending: Map<number, PendingJob>, id: number): PendingJob | undefined {
    const job = pending.get(id)
    if (job === undefined) return undefined
    pending.delete(id)
    if (pending.size === 0 && pending === this.pending && this.worker) {
      this.worker.unref()
      this.scheduleStop()
    }
    return job
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker
    // A small heap: the worker holds a chunk's output at a time (the body is shared memory).
    const worker = new Worker(WORKER_SOURCE, { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 16 } })
    const pending: Map<number, PendingJob> = (this.pending = new Map())
    this.loaded = false
    worker.on('message', (message: WorkerMessage) => {
      if ('loaded' in message) {
        if (this.worker === worker) this.loaded = true
        return
      }
      if ('scan' in message) {
        pending.get(message.id)?.scanned(message.scan)
        return
      }
      const job = this.settled(pending, message.id)
      if ('chunks' in message) job?.compressed(message.chunks.map((chunk) => Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)))
      else job?.failed(new Error(`no se pudo procesar el cuerpo del lote: ${message.error}`))
    })
    const failAll = (error: Error) => {
      if (this.worker === worker) this.worker = null
      for (const job of pending.values()) job.failed(error)
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

/** A promise with its settling functions at hand; nobody waiting for its failure is no error. */
function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: Error) => void
  const promise = new Promise<T>((resolveWith, rejectWith) => {
    resolve = resolveWith
    reject = rejectWith
  })
  promise.catch(() => {})
  return { promise, resolve, reject }
}

interface PendingJob {
  scanned: (scan: BodyScan) => void
  compressed: (chunks: Buffer[]) => void
  failed: (error: Error) => void
}

type WorkerMessage = { loaded: true } | { id: number; scan: BodyScan } | { id: number; chunks: Uint8Array[] } | { id: number; error: string }

/** Quality 1 with a size hint and a 1 MiB window (a chunk's size): JSON shrinks ~7×, at ~400 MB/s. */
function brotliOptions(size: number) {
  return { params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_LGWIN]: 20, [constants.BROTLI_PARAM_SIZE_HINT]: size } }
}

/** The process's one body worker: every service of the process shares it. */
export const bodyWorker = new BodyWorker()

/**
 * The worker, as source text so that it runs from the single executable too (no file of its own).
 * It runs the scanner's own code (its source text: the class names nothing outside itself;
 * `__name` is what a transpiler that keeps class names may call in it) and `brotliOptions`' options.
 * Jobs interleave: a body still arriving never holds up another one, and each chunk is compressed
 * in its own turn, so a cancel is seen between two chunks.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads')
const { brotliCompressSync, constants } = require('node:zlib')
const __name = (target) => target
const BodyScanner = ${BodyScanner.toString()}
const jobs = new Map()
parentPort.on('message', (message) => {
  const { id } = message
  if (message.type === 'start') {
    const body = Buffer.from(message.buffer, message.byteOffset, message.byteLength)
    jobs.set(id, { body, ranges: message.ranges, available: message.available, scanner: message.scan ? new BodyScanner() : null, chunks: [] })
    if (!message.scan) {
      setImmediate(() => attempt(id, compressNext))
      return
    }
  } else if (message.type === 'arrived') {
    const job = jobs.get(id)
    if (job) job.available = message.bytes
  } else if (message.type === 'cancel') {
    jobs.delete(id)
    return
  }
  attempt(id, scanArrived)
})
function attempt(id, work) {
  const job = jobs.get(id)
  if (!job) return
  try {
    work(id, job)
  } catch (error) {
    jobs.delete(id)
    parentPort.postMessage({ id, error: String((error && error.message) || error) })
  }
}
parentPort.postMessage({ loaded: true })
function scanArrived(id, job) {
  if (job.scanner === null) return
  job.scanner.advance(job.body, job.available)
  if (job.available < job.body.length) return
  const scan = job.scanner.finish(job.body.length)
  job.scanner = null
  parentPort.postMessage({ id, scan }, scan.layout ? [scan.layout.starts.buffer, scan.layout.ends.buffer] : [])
  setImmediate(() => attempt(id, compressNext))
}
function compressNext(id, job) {
  if (job.chunks.length === job.ranges.length) {
    jobs.delete(id)
    parentPort.postMessage({ id, chunks: job.chunks })
    return
  }
  const [start, end] = job.ranges[job.chunks.length]
  job.chunks.push(brotliCompressSync(job.body.subarray(start, end), {
    params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_LGWIN]: 20, [constants.BROTLI_PARAM_SIZE_HINT]: end - start },
  }))
  setImmediate(() => attempt(id, compressNext))
}
`
