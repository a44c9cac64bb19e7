import { createHash } from 'node:crypto'
import type { Logger } from 'pino'
import { bodyOf } from '../batches/batches.service.ts'
import {
  findBatchesWithSameNumbers,
  findProcessedBatchByBody,
  setBatchContentHash,
  type BatchRow,
} from '../batches/batches.store.ts'
import type { Database } from '../db/database.ts'
import { DomainError } from '../core/errors.ts'
import { parseJsonText } from '../core/json-text.ts'
import * as answers from './intake.answers.ts'
import type { BatchDuplicate, Resumen } from './intake.schemas.ts'
import type { ReceivedInvoice } from '../invoices/received-invoice.ts'
import { BatchContentHash, batchContentHash } from './intake.structure.ts'
import { scanBody } from './body/body-scan.ts'
import { parseBatchBody } from './body/body-parse.ts'
import type { TimeSlices } from '../core/time-slices.ts'

/**
 * Step 6: an identical batch already processed today is answered from its record (contract
 * §3a: identical = the same canonical content; key order and formatting do not count). Done in
 * two ways, cheapest first:
 * - the same bytes: recognised from the body's hash before anything is parsed;
 * - the same content in other bytes: only a batch of the day with the same invoice numbers in
 *   the same order can have it, so the canonical content hash (a few hundred ms for 10,000
 *   invoices) is computed only then, for this batch and for that one (from its kept body, once).
 *   Both are computed ahead of step 6, in slices (`contentHashesAhead`): step 6 runs with the
 *   steps up to the commit, which never let the event loop in.
 */

/** The duplicate answer for a body whose exact bytes were processed today, or null. */
export function duplicateOfBody(db: Database, bodyHash: string, receivedDate: string): BatchDuplicate | null {
  const earlier = findProcessedBatchByBody(db, bodyHash, receivedDate)
  return earlier ? duplicateAnswer(earlier) : null
}

export interface ContentCheck {
  numbersHash: string
  /** This batch's canonical content hash, when an earlier batch made it worth computing. */
  contentHash: string | null
  duplicate: BatchDuplicate | null
}

/**
 * The duplicate answer for a batch whose content (not bytes) was processed today.
 * @throws DomainError UNAVAILABLE when a batch of the same content is still being processed
 * (only possible if two processes shared the database).
 */
export function duplicateOfContent(
  db: Database,
  log: Logger,
  batch: readonly unknown[],
  invoices: readonly ReceivedInvoice[],
  receivedDate: string,
  ahead: ContentHashes | null,
): ContentCheck {
  const numbersHash = numbersHashOf(invoices)
  const candidates = findBatchesWithSameNumbers(db, receivedDate, numbersHash)
  if (candidates.length === 0) return { numbersHash, contentHash: null, duplicate: null }
  const contentHash = ahead?.batch ?? batchContentHash(batch)
  for (const candidate of candidates) {
    if (contentHashOf(db, log, candidate, ahead?.earlier.get(candidate.id)) !== contentHash) continue
    if (candidate.estado === 'received') {
      throw new DomainError(
        'UNAVAILABLE',
        'Un lote idéntico se está procesando en este momento; reenvíe en unos segundos.',
      )
    }
    return { numbersHash, contentHash, duplicate: duplicateAnswer(candidate) }
  }
  return { numbersHash, contentHash, duplicate: null }
}

/** Step 6's content hashes, computed ahead of it. */
export interface ContentHashes {
  /** This batch's. */
  batch: string
  /** Those of the earlier batches of the day with the same numbers and no recorded hash, by id (null: its body is gone). */
  earlier: ReadonlyMap<number, string | null>
}

/**
 * Step 6's content hashes, ahead of it and in slices: null when no earlier batch of the day has
 * the same invoice numbers (step 6 then computes none). Nothing is recorded here (a dry run
 * stores nothing): step 6 records the earlier batches' hashes.
 */
export async function contentHashesAhead(
  db: Database,
  batch: readonly unknown[],
  invoices: readonly ReceivedInvoice[],
  receivedDate: string,
  slices: TimeSlices,
): Promise<ContentHashes | null> {
  const candidates = findBatchesWithSameNumbers(db, receivedDate, numbersHashOf(invoices))
  if (candidates.length === 0) return null
  const earlier = new Map<number, string | null>()
  for (const candidate of candidates) {
    if (candidate.content_hash !== null || candidate.estado === 'received') continue
    const body = bodyOf(db, candidate.id)
    earlier.set(
      candidate.id,
      body === undefined ? null : await contentHashInSlices(await parseKeptBody(body, slices), slices),
    )
  }
  return { batch: await contentHashInSlices(batch, slices), earlier }
}

function numbersHashOf(invoices: readonly ReceivedInvoice[]): string {
  return sha256(invoices.map((invoice) => invoice.nfactura).join('\n'))
}

async function contentHashInSlices(batch: readonly unknown[], slices: TimeSlices): Promise<string> {
  const hash = new BatchContentHash()
  for (const invoice of batch) {
    hash.add(invoice)
    if (slices.due()) await slices.next()
  }
  return hash.digest()
}

/** A kept body of a processed batch (a valid one), parsed as step 2 parses a body. */
async function parseKeptBody(body: Buffer, slices: TimeSlices): Promise<unknown[]> {
  return parseBatchBody(body, await scanBody(body, { slices }), slices)
}

/**
 * An earlier batch's content hash: recorded, or computed ahead (`computed`), or from its kept body
 * now; recorded once computed.
 */
function contentHashOf(
  db: Database,
  log: Logger,
  batch: BatchRow & { content_hash: string | null },
  computed: string | null | undefined,
): string | null {
  if (batch.content_hash !== null) return batch.content_hash
  const body = computed === undefined ? bodyOf(db, batch.id) : null
  const hash = computed ?? (body ? batchContentHash(parseJsonText(body.toString('utf8')) as unknown[]) : null)
  if (hash === null) {
    log.warn(
      { batch_uuid: batch.uuid },
      'el cuerpo del lote no se guardó: no se puede comparar su contenido con un lote nuevo',
    )
    return null
  }
  setBatchContentHash(db, batch.id, hash)
  return hash
}

function duplicateAnswer(earlier: BatchRow): BatchDuplicate {
  return answers.duplicate(earlier.uuid, JSON.parse(earlier.summary!) as Resumen)
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}
