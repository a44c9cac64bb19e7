import Type from 'typebox'
import { defineRoute, type Route } from '../http/route.ts'
import { errorResponse } from '../http/schemas.ts'
import { BatchListQuery, BatchParams, BatchView } from './batches.schemas.ts'
import { batchNotFoundMessage, getBatch, getBatchPayload, listBatches, type BatchDeps } from './batches.service.ts'

const TAG = 'operador: lotes'
const notFoundBatch = (raw: Record<string, string>) => batchNotFoundMessage(raw.uuid ?? '')

export function batchRoutes(deps: BatchDeps): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/lotes',
      access: 'operator',
      operationId: 'listarLotes',
      rateGroup: 'operator',
      right: 'leer_lotes',
      tag: TAG,
      summary: 'Lotes recibidos en una fecha (por defecto hoy)',
      query: BatchListQuery,
      responses: { 200: { description: 'Lotes, en orden de llegada', schema: Type.Array(BatchView) } },
      handle: ({ actor, query }) => ({ status: 200, body: listBatches(deps, actor, query.fecha) }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/lotes/:uuid',
      access: 'operator',
      operationId: 'obtenerLote',
      rateGroup: 'operator',
      right: 'leer_lotes',
      tag: TAG,
      summary: 'Un lote por su batch_uuid',
      params: BatchParams,
      paramsNotFound: notFoundBatch,
      responses: { 200: { description: 'El lote', schema: BatchView }, 404: errorResponse('No existe el lote') },
      handle: ({ actor, params }) => ({ status: 200, body: getBatch(deps, actor, params.uuid) }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/lotes/:uuid/payload',
      access: 'operator',
      operationId: 'descargarCuerpoLote',
      rateGroup: 'operator',
      right: 'leer_lotes',
      tag: TAG,
      summary: 'El cuerpo del lote exactamente como se recibió, byte por byte',
      params: BatchParams,
      paramsNotFound: notFoundBatch,
      responses: {
        200: { description: 'Los bytes recibidos (application/json)' },
        404: errorResponse('No existe el lote, o su cuerpo ya se eliminó por la regla de retención'),
      },
      handle: ({ params }) => ({
        status: 200,
        bytes: getBatchPayload(deps, params.uuid),
        contentType: 'application/json; charset=utf-8',
      }),
    }),
  ]
}
