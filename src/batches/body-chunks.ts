import { brotliDecompressSync } from 'node:zlib'
import { all, first, run, type Database } from '../db/database.ts'

/**
 * A batch's body is kept once, as received, in chunks of BODY_CHUNK_BYTES compressed with brotli
 * (`batch_body_chunks`, compressed by src/intake/body/body-compressor.ts): the chunks concatenated
 * are the body byte for byte (the payload download), and each stored invoice points at its own
 * bytes in it (its `original`: offset and length in the body). The JSON of a realistic invoice
 * takes ~550 bytes this way, instead of ~5.5 KB as text beside a compressed copy of the body.
 */

/** Chunk i holds the body's bytes i·1 MiB up to (i+1)·1 MiB: an invoice is read by decompressing one or two. */
export const BODY_CHUNK_BYTES = 1024 * 1024

/** Where one invoice's bytes are in its batch's body. */
export interface OriginalPlace {
  offset: number
  length: number
}

/** The body's chunks as [start, end) byte ranges. */
export function chunkRanges(bodyLength: number): Array<[number, number]> {
  const ranges: Array<[number, number]> = []
  for (let start = 0; start < bodyLength; start += BODY_CHUNK_BYTES)
    ranges.push([start, Math.min(bodyLength, start + BODY_CHUNK_BYTES)])
  return ranges
}

export function insertBodyChunks(db: Database, batchId: number, chunks: readonly Buffer[]): void {
  for (let chunk = 0; chunk < chunks.length; chunk++) {
    run(db, db.query.insertInto('batch_body_chunks').values({ batch_id: batchId, chunk, data: chunks[chunk]! }))
  }
}

/**
 * The body of a batch as received, from its chunks; undefined when it has none, or only some
 * (the retention deleted those no invoice needed).
 */
export function findChunkedBody(db: Database, batchId: number): Buffer | undefined {
  const rows = all(
    db,
    db.query.selectFrom('batch_body_chunks').select(['chunk', 'data']).where('batch_id', '=', batchId).orderBy('chunk'),
  )
  if (rows.length === 0 || rows.some((row, i) => row.chunk !== i)) return undefined
  const body = Buffer.concat(rows.map((row) => brotliDecompressSync(row.data)))
  const expected = first(db, db.query.selectFrom('batches').select('body_bytes').where('id', '=', batchId))?.body_bytes
  return body.length === expected ? body : undefined
}

/**
 * Decompressed chunks kept while many originals are read (step 8 comparing a resent batch's
 * invoices, in whatever order they come); dropped with the work that made it.
 */
export type ChunkCache = Map<string, Buffer>

/**
 * One invoice's bytes from its batch's chunks (one, or two when it straddles a boundary). The
 * chunks decompressed go into `cache`, for the next invoices read with it (step 8 comparing a
 * resent batch's invoices, in whatever order they come); it is dropped with the work that made it.
 */
export function readOriginalBytes(db: Database, batchId: number, place: OriginalPlace, cache: ChunkCache): Buffer {
  const firstChunk = Math.floor(place.offset / BODY_CHUNK_BYTES)
  const lastChunk = Math.floor((place.offset + place.length - 1) / BODY_CHUNK_BYTES)
  const start = place.offset - firstChunk * BODY_CHUNK_BYTES
  if (firstChunk === lastChunk)
    return decompressedChunk(db, batchId, firstChunk, cache).subarray(start, start + place.length)
  const parts: Buffer[] = []
  for (let chunk = firstChunk; chunk <= lastChunk; chunk++) parts.push(decompressedChunk(db, batchId, chunk, cache))
  return Buffer.concat(parts).subarray(start, start + place.length)
}

/**
 * Forgets the chunks of `cache` that no invoice read later needs, when they are read in the order
 * they are stored (by batch, then offset): every other batch's, and this batch's before `offset`.
 */
export function forgetChunksBefore(cache: ChunkCache, batchId: number, offset: number): void {
  const firstChunk = Math.floor(offset / BODY_CHUNK_BYTES)
  for (const key of cache.keys()) {
    const [batch, chunk] = key.split(':').map(Number)
    if (batch !== batchId || chunk! < firstChunk) cache.delete(key)
  }
}

function decompressedChunk(db: Database, batchId: number, chunk: number, cache: ChunkCache): Buffer {
  const key = `${batchId}:${chunk}`
  const cached = cache.get(key)
  if (cached) return cached
  const row = first(
    db,
    db.query.selectFrom('batch_body_chunks').select('data').where('batch_id', '=', batchId).where('chunk', '=', chunk),
  )
  if (!row) throw new Error(`falta el fragmento ${chunk} del cuerpo del lote ${batchId}`)
  const data = brotliDecompressSync(row.data)
  cache.set(key, data)
  return data
}

/**
 * Deletes the chunks of these batches that no stored invoice's bytes fall in (their bodies'
 * retention ended; the invoices' originals stay). @returns how many were deleted.
 */
export function deleteUnreferencedChunks(db: Database, batchIds: readonly number[]): number {
  let deleted = 0
  const unreferenced = db.sqlite.prepare(
    `DELETE FROM batch_body_chunks WHERE batch_id = ? AND NOT EXISTS (
       SELECT 1 FROM invoices i WHERE i.batch_id = batch_body_chunks.batch_id AND i.original_offset IS NOT NULL
         AND i.original_offset < (batch_body_chunks.chunk + 1) * ${BODY_CHUNK_BYTES}
         AND i.original_offset + i.original_length > batch_body_chunks.chunk * ${BODY_CHUNK_BYTES})`,
  )
  for (const batchId of batchIds) deleted += unreferenced.run(batchId).changes
  return deleted
}
