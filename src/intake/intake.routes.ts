import { randomUUID } from 'node:crypto'
import Type from 'typebox'
import { DomainError } from '../errors.ts'
import { UploadSlots } from '../http/upload-slots.ts'
import { INTERNAL_ERROR_MESSAGE } from '../http/error-response.ts'
import { defineRoute, type Route } from '../http/route.ts'
import { errorResponse } from '../http/schemas.ts'
import {
  BatchBodyInvalid,
  BatchDatesInvalid,
  BatchDatesInvalidV2,
  BatchDuplicate,
  BatchInternalError,
  BatchManifestsRejected,
  BatchOldManifests,
  BatchOldManifestsV2,
  BatchProcessed,
  BatchSchema,
  BatchStructureInvalid,
} from './intake.schemas.ts'
import { receiveBatch, type IntakeDeps } from './intake.service.ts'
import { JsonShape } from './json-shape.ts'

export interface IntakeRouteDeps extends IntakeDeps {
  /** intake.maxConcurrentBatches: batch bodies received at once. */
  uploads: UploadSlots
}

export function intakeRoutes(deps: IntakeRouteDeps): Route[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/facturas/insertar',
      access: 'client',
      operationId: 'insertarFacturas',
      rateGroup: 'insert',
      tag: 'facturas',
      summary: 'Recibe un lote de facturas',
      description:
        'Pasos: autenticación, cuerpo (arreglo no vacío), estructura, fechas, manifiestos de días anteriores, lote duplicado, ' +
        'registro del lote y procesamiento por manifiesto (interface-v1 §4.1). Reenviar el mismo lote el mismo día es seguro: ' +
        'se responde con el resumen original. Con el contrato v2 (clientContract "v2"): el lote se acepta completo o nada (si un ' +
        'manifiesto se rechaza en el paso 8 no se inserta ninguno, y el mismo lote reenviado se procesa de nuevo); una factura ya ' +
        'registrada en el mismo manifiesto lo rechaza con FACTURAS_YA_EXISTENTES (sin actualizaciones ni conflictos); y las ' +
        'respuestas FECHAS_INVALIDAS y MANIFIESTOS_FECHA_INVALIDA nombran los manifiestos válidos en `manifiestos`.',
      body: { description: 'Arreglo JSON no vacío de facturas', schema: BatchSchema, raw: true },
      responses: {
        200: { description: 'Lote procesado sin rechazos, o lote ya procesado hoy (duplicado)', schema: Type.Union([BatchProcessed, BatchDuplicate]) },
        422: {
          description:
            'Cuerpo inválido, estructura inválida, fechas inválidas, manifiestos de días anteriores o manifiestos rechazados ' +
            '(FECHAS_INVALIDAS y MANIFIESTOS_FECHA_INVALIDA tienen una forma por contrato: v1 con manifiestos_validos / ' +
            'manifiestos_no_afectados, v2 con manifiestos)',
          schema: Type.Union([BatchBodyInvalid, BatchStructureInvalid, BatchDatesInvalid, BatchDatesInvalidV2, BatchOldManifests, BatchOldManifestsV2, BatchManifestsRejected]),
        },
        500: { description: 'Error interno; el lote queda fallido y puede reenviarse', schema: BatchInternalError },
        503: errorResponse('Ya se están recibiendo intake.maxConcurrentBatches lotes (reenvíe tras Retry-After), la base de datos es inutilizable, o no hay ApiKey configurada'),
      },
      handle: async ({ readBody, logContext, clientIp, keyFingerprint }) => {
        const release = deps.uploads.acquire()
        try {
          const uuid = randomUUID()
          logContext.batchUuid = uuid
          const shape = new JsonShape()
          const body = await readBody((chunk) => shape.add(chunk))
          try {
            return { status: 200, body: await receiveBatch(deps, { uuid, body, shape, clientIp, keyFingerprint }) }
          } catch (error) {
            if (error instanceof DomainError) throw error
            throw new DomainError('INTERNAL', INTERNAL_ERROR_MESSAGE, { batch_uuid: uuid }, {}, { cause: error })
          }
        } finally {
          release()
        }
      },
    }),
  ]
}
