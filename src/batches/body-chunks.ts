import { brotliCompress, brotliDecompressSync, constants } from 'node:zlib'
import { promisify } from 'node:util'
import { all, first, run, type Database } from '../db/database.ts'
import type { BodyLayout } from '../intake/body-layout.ts'

/**
 * A batch's body is kept once, as received, in chunks of whole invoices compressed with brotli
 * (`batch_body_chunks`): the chunks concatenated are the body byte for byte (the payload
 * download), and each stored invoice points at its own bytes in them (its `original`). The
 * JSON of a realistic invoice takes ~550 bytes this way, instead of ~5.5 KB as text beside a
 * compressed copy of the whole body.
 */

/** Invoices per chunk: reading one invoice's original decompresses ~1.4 MB at most (~2 ms). */
export const INVOICES_PER_CHUNK = 256

/** Where one invoice's bytes are: chunk number, offset in the decompressed chunk, length. */
export interface OriginalPlace {
  chunk: number
  offset: number
  length: number
}

/**
 * Cuts the body into chunks of INVOICES_PER_CHUNK invoices: each chunk runs from its first
 * invoice's first byte to the next chunk's (the first also holds the bytes before the first
 * invoice, the last those after the last one), so the chunks concatenated are the body.
 */
export function chunkRanges(layout: BodyLayout, bodyLength: number): Array<[number, number]> {
  const ranges: Array<[number, number]> = []
  for (let first = 0; first < layout.count; first += INVOICES_PER_CHUNK) {
    const next = first + INVOICES_PER_CHUNK
    ranges.push([first === 0 ? 0 : layout.starts[first]!, next < layout.count ? layout.starts[next]! : bodyLength])
  }
  return ranges
}

/** Where invoice `index` (0-based position in the batch) lies in the chunks of `chunkRanges`. */
export function placeOf(layout: BodyLayout, index: number): OriginalPlace {
  const chunk = Math.floor(index / INVOICES_PER_CHUNK)
  const chunkStart = chunk === 0 ? 0 : layout.starts[chunk * INVOICES_PER_CHUNK]!
  return { chunk, offset: layout.starts[index]! - chunkStart, length: layout.ends[index]! - layout.starts[index]! }
}

const compress = promisify(brotliCompress)
/** Quality 4 with a size hint: ~10× smaller JSON at ~200 MB/s, the best ratio this fast. */
const BROTLI = (size: number) => ({ params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: size } })

/** The body's chunks being compressed in the thread pool. */
export class ChunkCompression {
  readonly done: Promise<Buffer[]>
  private cancelled = false

  /**
   * One chunk at a time, so one thread of the pool works beside the main thread (the server
   * has two cores) instead of four threads slowing the request that is being parsed.
   */
  constructor(body: Buffer, ranges: ReadonlyArray<[number, number]>) {
    this.done = (async () => {
      const compressed: Buffer[] = []
      for (const [start, end] of ranges) {
        if (this.cancelled) return []
        compressed.push(await compress(body.subarray(start, end), BROTLI(end - start)))
      }
      return compressed
    })()
    // A batch refused before its chunks are awaited must not leave an unhandled rejection.
    this.done.catch(() => {})
  }

  /** The batch was refused or answered as a duplicate: the remaining chunks are not compressed. */
  cancel(): void {
    this.cancelled = true
  }
}

export function insertBodyChunks(db: Database, batchId: number, chunks: readonly Buffer[]): void {
  for (let chunk = 0; chunk < chunks.length; chunk++) {
    run(db, db.query.insertInto('batch_body_chunks').values({ batch_id: batchId, chunk, data: chunks[chunk]! }))
  }
}

/** The body of a batch as received, from its chunks; undefined when it has none. */
export function findChunkedBody(db: Database, batchId: number): Buffer | undefined {
  const rows = all(db, db.query.selectFrom('batch_body_chunks').select(['chunk', 'data']).where('batch_id', '=', batchId).orderBy('chunk'))
  if (rows.length === 0) return undefined
  return Buffer.concat(rows.map((row) => brotliDecompressSync(row.data)))
}

/**
 * One invoice's bytes from its batch's chunks. The last few decompressed chunks are kept per
 * database: step 8 reads the stored originals of a resent batch's invoices one after another.
 */
export function readOriginalBytes(db: Database, batchId: number, place: OriginalPlace): Buffer {
  const chunk = decompressedChunk(db, batchId, place.chunk)
  return chunk.subarray(place.offset, place.offset + place.length)
}

const RECENT_CHUNKS = 4
const recentChunks = new WeakMap<Database, Map<string, Buffer>>()

function decompressedChunk(db: Database, batchId: number, chunk: number): Buffer {
  let recent = recentChunks.get(db)
  if (!recent) recentChunks.set(db, (recent = new Map()))
  const key = `${batchId}:${chunk}`
  const cached = recent.get(key)
  if (cached) return cached
  const row = first(db, db.query.selectFrom('batch_body_chunks').select('data').where('batch_id', '=', batchId).where('chunk', '=', chunk))
  if (!row) throw new Error(`falta el fragmento ${chunk} del cuerpo del lote ${batchId}`)
  const data = brotliDecompressSync(row.data)
  if (recent.size >= RECENT_CHUNKS) recent.delete(recent.keys().next().value!)
  recent.set(key, data)
  return data
}

/**
 * Deletes the chunks of these batches that no stored invoice points at (their bodies' retention
 * ended; the invoices' originals stay). @returns how many were deleted.
 */
export function deleteUnreferencedChunks(db: Database, batchIds: readonly number[]): number {
  let deleted = 0
  const unreferenced = db.sqlite.prepare(
    `DELETE FROM batch_body_chunks WHERE batch_id = ? AND NOT EXISTS (
       SELECT 1 FROM invoices i WHERE i.batch_id = batch_body_chunks.batch_id AND i.original_chunk = batch_body_chunks.chunk)`,
  )
  for (const batchId of batchIds) deleted += unreferenced.run(batchId).changes
  return deleted
}
