import { createHash } from 'node:crypto'
import { chunkRanges, BODY_CHUNK_BYTES, type OriginalPlace } from '../../batches/body-chunks.ts'
import type { TimeSlices } from '../../core/time-slices.ts'
import type { BodyCompressor, Compression } from './body-compressor.ts'
import { checkBatchBytes, parseBatchBody } from './body-parse.ts'
import { bodyBuffer, placeOf, scanBody, type BodyLayout } from './body-scan.ts'

/**
 * A batch's body, from the request's bytes to what steps 2–8 need of it: the bytes (read into the
 * memory step 2's scan works in, hashed while they arrive), step 2's parse, each invoice's place
 * in the bytes (its original as kept), and the bytes' chunks compressed to be kept with the batch
 * (in a worker, while steps 2–4 run).
 */
export interface BatchBody {
  bytes: Buffer
  /** sha256 of the bytes: step 6 recognises the same bytes sent again before anything is parsed. */
  hash: string
  /**
   * Step 2: a non-empty JSON array, scanned and parsed a part at a time (`slices`); what the scan
   * saw of every invoice at once, for step 3.
   * @throws DomainError INVALID_INPUT (422) with the body-invalid answer.
   */
  parse(slices: TimeSlices): Promise<ParsedBody>
  /** Where invoice `index` (0-based) lies in the bytes. Only after `parse`. */
  placeOf(index: number): OriginalPlace
  /** The compressed chunks to keep with the batch (started by `receiveBatchBody` with a compressor). */
  chunks(): Promise<Buffer[]>
  /** The batch was refused: its compression stops (its chunks are never asked for). */
  discard(): void
}

export interface ParsedBody {
  batch: unknown[]
  /** What the bytes tell of every invoice at once: nesting, lone surrogates, the longest string. */
  hints: { maxDepth: number; mayHoldLoneSurrogate: boolean; longestStringBytes: number }
}

/** What reading the body needs of the request (src/http/route.ts's RouteRequest). */
export interface BodySource {
  /** The body's announced length (null: chunked or gzip, unknown until read). */
  bodyBytes: number | null
  readBody(inspect: (chunk: Buffer) => void, allocate: (size: number) => Buffer): Promise<Buffer>
}

/**
 * Reads a batch's body within the route's limits while hashing it; with a `compressor` (a batch
 * that may be kept: insertar), its worker boots while the body arrives and compresses the chunks
 * from the moment the body is complete.
 */
export async function receiveBatchBody(source: BodySource, compressor: BodyCompressor | null): Promise<BatchBody> {
  // A body of one chunk is compressed without the worker (booting it would take longer).
  if (compressor !== null && !(source.bodyBytes !== null && source.bodyBytes <= BODY_CHUNK_BYTES)) compressor.warm()
  const hash = createHash('sha256')
  const bytes = await source.readBody((chunk) => hash.update(chunk), bodyBuffer)
  // The chunks are fixed slices of the bytes: nothing has to be parsed first, and on a fresh
  // service the worker, still booting, would otherwise finish after steps 2–4.
  const compression: Compression | null = compressor?.compress(bytes, chunkRanges(bytes.length)) ?? null
  let layout: BodyLayout | null = null
  return {
    bytes,
    hash: hash.digest('hex'),
    async parse(slices) {
      const scan = await scanBody(bytes, { slices })
      checkBatchBytes(bytes, scan)
      if (slices.due()) await slices.next()
      const batch = await parseBatchBody(bytes, scan, slices)
      layout = scan.layout
      return {
        batch,
        hints: {
          maxDepth: scan.maxDepth,
          mayHoldLoneSurrogate: scan.mayHoldLoneSurrogate,
          longestStringBytes: scan.longestStringBytes,
        },
      }
    },
    placeOf(index) {
      if (layout === null) throw new Error('el cuerpo del lote no se analizó')
      return placeOf(layout, index)
    },
    chunks() {
      if (compression === null) throw new Error('el cuerpo de este lote no se comprime (simulación)')
      return compression.chunks
    },
    discard() {
      compression?.cancel()
    },
  }
}
