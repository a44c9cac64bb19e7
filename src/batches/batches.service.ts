import { gunzipSync } from 'node:zlib'
import { formatLocalDateTime, today, toStoredInstant, type Clock } from '../core/clock.ts'
import type { Config } from '../config/config.ts'
import type { Database } from '../db/database.ts'
import { notFound } from '../core/errors.ts'
import { findChunkedBody } from './body-chunks.ts'
import type { BatchView } from './batches.schemas.ts'
import { scopeOf, type Actor } from '../access/actor.ts'
import {
  deletePayloadsReceivedBefore,
  findBatchContents,
  failReceivedBatches,
  findBatchesReceivedOn,
  findBatchRecord,
  findPayload,
  type BatchRecord,
} from './batches.store.ts'

export interface BatchDeps {
  db: Database
  clock: Clock
  config: Config
}

/**
 * Batches received on a local date (today by default), in order of arrival, each with the
 * manifests and the count of the invoices it brought into the actor's warehouses.
 */
export function listBatches(deps: BatchDeps, actor: Actor, fecha: string | undefined): BatchView[] {
  return withContents(deps, actor, findBatchesReceivedOn(deps.db, fecha ?? today(deps.clock).toString()))
}

/** @throws DomainError NOT_FOUND */
export function getBatch(deps: BatchDeps, actor: Actor, uuid: string): BatchView {
  return withContents(deps, actor, [requireBatch(deps, uuid)])[0]!
}

function withContents(deps: BatchDeps, actor: Actor, records: BatchRecord[]): BatchView[] {
  const contents = findBatchContents(
    deps.db,
    records.map((record) => record.id),
    scopeOf(actor),
  )
  return records.map((record) => {
    const content = contents.get(record.id)!
    return {
      ...toView(deps.clock, record),
      manifiestos: content.manifests,
      facturas_de_sus_almacenes: content.invoices,
    }
  })
}

/**
 * The batch's body exactly as received, byte for byte.
 * @throws DomainError NOT_FOUND when the batch is unknown, or its body was not kept or was pruned.
 */
export function getBatchPayload(deps: BatchDeps, uuid: string): Buffer {
  const record = requireBatch(deps, uuid)
  const payload = record.payload_bytes === null ? undefined : bodyOf(deps.db, record.id)
  if (!payload) {
    throw notFound(
      record.payload_pruned_at === null
        ? `El cuerpo del lote ${uuid} no se guardó.`
        : `El cuerpo del lote ${uuid} se eliminó el ${formatLocalDateTime(deps.clock, record.payload_pruned_at)} por la regla de retención (intake.rawPayloadRetentionDays = ${deps.config.intake.rawPayloadRetentionDays} días); el registro del lote y su resumen se conservan.`,
    )
  }
  return payload
}

/** A batch's body as received: from its chunks, or (received before migration 8) one gzip. */
export function bodyOf(db: Database, batchId: number): Buffer | undefined {
  const legacy = findPayload(db, batchId)
  return legacy ? gunzipSync(legacy.data) : findChunkedBody(db, batchId)
}

export function batchNotFoundMessage(uuid: string): string {
  return `No existe el lote ${uuid}.`
}

function requireBatch(deps: BatchDeps, uuid: string): BatchRecord {
  const record = findBatchRecord(deps.db, uuid)
  if (!record) throw notFound(batchNotFoundMessage(uuid))
  return record
}

function toView(clock: Clock, record: BatchRecord): Omit<BatchView, 'manifiestos' | 'facturas_de_sus_almacenes'> {
  return {
    batch_uuid: record.uuid,
    recibido_en: formatLocalDateTime(clock, record.received_at),
    estado: record.estado,
    facturas: record.invoice_count,
    http_status: record.http_status,
    resumen: record.summary === null ? null : (JSON.parse(record.summary) as unknown),
    fallo: record.failure,
    terminado_en: record.finished_at === null ? null : formatLocalDateTime(clock, record.finished_at),
    ip: record.client_ip,
    clave: record.key_fingerprint,
    cuerpo: {
      guardado: record.payload_bytes !== null,
      bytes: record.payload_bytes,
      eliminado_en: record.payload_pruned_at === null ? null : formatLocalDateTime(clock, record.payload_pruned_at),
    },
  }
}

const DAY_MS = 24 * 60 * 60 * 1000

/** At start: a batch still `received` was interrupted by a crash or kill; it is marked failed. */
export function failInterruptedBatches(deps: Pick<BatchDeps, 'db' | 'clock'>): number {
  return failReceivedBatches(
    deps.db,
    'interrumpido: el servicio se detuvo mientras se procesaba',
    toStoredInstant(deps.clock.now()),
  )
}

/**
 * Deletes raw bodies older than the retention (contract §3: the batch record and its summary
 * stay). Runs at start and then daily. @returns how many bodies were removed.
 */
export function pruneRawPayloads(deps: Pick<BatchDeps, 'db' | 'clock'>, retentionDays: number): number {
  const now = deps.clock.now()
  const cutoff = toStoredInstant(now.minusMillis(retentionDays * DAY_MS))
  return deletePayloadsReceivedBefore(deps.db, cutoff, toStoredInstant(now))
}
