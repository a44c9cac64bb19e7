import { gunzipSync } from 'node:zlib'
import Type from 'typebox'
import { formatLocalDateTime, today, type Clock } from '../clock.ts'
import type { Config } from '../config.ts'
import type { Database } from '../db/database.ts'
import { notFound } from '../errors.ts'
import { defineRoute, type Route } from '../http/route.ts'
import { errorResponse, OPERATOR_ERRORS } from '../http/schemas.ts'
import { findBatchesReceivedOn, findBatchRecord, findPayload, type BatchRecord } from './batches.store.ts'

const BatchView = Type.Object({
  batch_uuid: Type.String(),
  recibido_en: Type.String(),
  estado: Type.Union([Type.Literal('received'), Type.Literal('processed'), Type.Literal('failed')]),
  facturas: Type.Integer(),
  http_status: Type.Union([Type.Integer(), Type.Null()]),
  resumen: Type.Unknown({ description: 'El resumen que se respondió, o null' }),
  fallo: Type.Union([Type.String(), Type.Null()]),
  terminado_en: Type.Union([Type.String(), Type.Null()]),
  ip: Type.String(),
  clave: Type.String({ description: 'Huella de la ApiKey usada (nunca la clave)' }),
  cuerpo: Type.Object({
    guardado: Type.Boolean(),
    bytes: Type.Union([Type.Integer(), Type.Null()]),
    eliminado_en: Type.Union([Type.String(), Type.Null()], { description: 'Cuándo lo eliminó la regla de retención' }),
  }),
})
const UuidParams = Type.Object({ uuid: Type.String({ pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' }) })
const notFoundBatch = (raw: Record<string, string>) => `No existe el lote ${raw.uuid ?? ''}.`

export function batchRoutes(deps: { db: Database; clock: Clock; config: Config }): Route[] {
  const { db, clock } = deps
  const view = (record: BatchRecord) => ({
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
  })
  const requireBatch = (uuid: string) => {
    const record = findBatchRecord(db, uuid)
    if (!record) throw notFound(notFoundBatch({ uuid }))
    return record
  }
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/lotes',
      access: 'operator',
      tag: 'operador: lotes',
      summary: 'Lotes recibidos en una fecha (por defecto hoy)',
      query: Type.Object({ fecha: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD, hora de Honduras' })) }),
      responses: { 200: { description: 'Lotes, en orden de llegada', schema: Type.Array(BatchView) }, ...OPERATOR_ERRORS },
      handle: ({ query }) => ({ status: 200, body: findBatchesReceivedOn(db, query.fecha ?? today(clock).toString()).map(view) }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/lotes/:uuid',
      access: 'operator',
      tag: 'operador: lotes',
      summary: 'Un lote por su batch_uuid',
      params: UuidParams,
      paramsNotFound: notFoundBatch,
      responses: { 200: { description: 'El lote', schema: BatchView }, ...OPERATOR_ERRORS, 404: errorResponse('No existe el lote') },
      handle: ({ params }) => ({ status: 200, body: view(requireBatch(params.uuid)) }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/lotes/:uuid/payload',
      access: 'operator',
      tag: 'operador: lotes',
      summary: 'El cuerpo del lote exactamente como se recibió, byte por byte',
      params: UuidParams,
      paramsNotFound: notFoundBatch,
      responses: {
        200: { description: 'Los bytes recibidos (application/json)' },
        ...OPERATOR_ERRORS,
        404: errorResponse('No existe el lote, o su cuerpo ya se eliminó por la regla de retención'),
      },
      handle: ({ params }) => {
        const record = requireBatch(params.uuid)
        const payload = findPayload(db, record.id)
        if (!payload) {
          throw notFound(
            record.payload_pruned_at === null
              ? `El cuerpo del lote ${params.uuid} no se guardó.`
              : `El cuerpo del lote ${params.uuid} se eliminó el ${formatLocalDateTime(clock, record.payload_pruned_at)} por la regla de retención (intake.rawPayloadRetentionDays = ${deps.config.intake.rawPayloadRetentionDays} días); el registro del lote y su resumen se conservan.`,
          )
        }
        return { status: 200, bytes: gunzipSync(payload.data), contentType: 'application/json; charset=utf-8' }
      },
    }),
  ]
}
