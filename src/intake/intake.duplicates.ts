import { createHash } from 'node:crypto'
import type { Logger } from 'pino'
import { bodyOf } from '../batches/batches.service.ts'
import { findBatchesWithSameNumbers, findProcessedBatchByBody, setBatchContentHash, type BatchRow } from '../batches/batches.store.ts'
import type { Database } from '../db/database.ts'
import { DomainError } from '../errors.ts'
import { parseJsonText } from '../json-text.ts'
import * as answers from './intake.answers.ts'
import type { BatchDuplicate, Resumen } from './intake.schemas.ts'
import { batchContentHash, type ReceivedInvoice } from './intake.structure.ts'

/**
 * Step 6: an identical batch already processed today is answered from its record (contract
 * §3a: identical = the same canonical content; key order and formatting do not count). Done in
 * two ways, cheapest first:
 * - the same bytes: recognised from the body's hash before anything is parsed;
 * - the same content in other bytes: only a batch of the day with the same invoice numbers in
 *   the same order can have it, so the canonical content hash (a few hundred ms for 10,000
 *   invoices) is computed only then, for this batch and for that one (from its kept body, once).
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
export function duplicateOfContent(db: Database, log: Logger, batch: readonly unknown[], invoices: readonly ReceivedInvoice[], receivedDate: string): ContentCheck {
  const numbersHash = sha256(invoices.map((invoice) => invoice.nfactura).join('\n'))
  const candidates = findBatchesWithSameNumbers(db, receivedDate, numbersHash)
  if (candidates.length === 0) return { numbersHash, contentHash: null, duplicate: null }
  const contentHash = batchContentHash(batch)
  for (const candidate of candidates) {
    if (contentHashOf(db, log, candidate) !== contentHash) continue
    if (candidate.estado === 'received') {
      throw new DomainError('UNAVAILABLE', 'Un lote idéntico se está procesando en este momento; reenvíe en unos segundos.')
    }
    return { numbersHash, contentHash, duplicate: duplicateAnswer(candidate) }
  }
  return { numbersHash, contentHash, duplicate: null }
}

/** An earlier batch's content hash: recorded, or computed from its kept body and recorded. */
function contentHashOf(db: Database, log: Logger, batch: BatchRow & { content_hash: string | null }): string | null {
  if (batch.content_hash !== null) return batch.content_hash
  const body = bodyOf(db, batch.id)
  if (body === undefined) {
    log.warn({ batch_uuid: batch.uuid }, 'el cuerpo del lote no se guardó: no se puede comparar su contenido con un lote nuevo')
    return null
  }
  const hash = batchContentHash(parseJsonText(body.toString('utf8')) as unknown[])
  setBatchContentHash(db, batch.id, hash)
  return hash
}

function duplicateAnswer(earlier: BatchRow): BatchDuplicate {
  return answers.duplicate(earlier.uuid, JSON.parse(earlier.summary!) as Resumen)
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}
