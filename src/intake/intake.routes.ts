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
  BatchDuplicate,
  BatchInternalError,
  BatchManifestsRejected,
  BatchOldManifests,
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
        'se responde con el resumen original.',
      body: { description: 'Arreglo JSON no vacío de facturas', schema: BatchSchema, raw: true },
      responses: {
        200: { description: 'Lote procesado sin rechazos, o lote ya procesado hoy (duplicado)', schema: Type.Union([BatchProcessed, BatchDuplicate]) },
        422: {
          description: 'Cuerpo inválido, estructura inválida, fechas inválidas, manifiestos de días anteriores o manifiestos rechazados',
          schema: Type.Union([BatchBodyInvalid, BatchStructureInvalid, BatchDatesInvalid, BatchOldManifests, BatchManifestsRejected]),
        },
        500: { description: 'Error interno; el lote queda fallido y puede reenviarse', schema: BatchInternalError },
        503: errorResponse('Ya se están recibiendo intake.maxConcurrentBatches lotes (reenvíe tras Retry-After), la base de datos es inutilizable, o no hay ApiKey configurada'),
      },
      handle: async ({ readBody, logContext, clientIp, keyFingerprint }) => {
        const release = deps.uploads.acquire()
        try {
          const uuid = randomUUID()
          const shape = new JsonShape()
          const body = await readBody((chunk) => shape.add(chunk))
          // The log names the batch the answer names: the original one for a duplicate, none
          // for a batch refused before it was recorded (steps 2–5).
          try {
            const answer = await receiveBatch(deps, { uuid, body, shape, clientIp, keyFingerprint })
            logContext.batchUuid = answer.batch_uuid
            return { status: 200, body: answer }
          } catch (error) {
            if (error instanceof DomainError) {
              const answered = error.details.batch_uuid
              if (typeof answered === 'string') logContext.batchUuid = answered
              throw error
            }
            logContext.batchUuid = uuid
            throw new DomainError('INTERNAL', INTERNAL_ERROR_MESSAGE, { batch_uuid: uuid }, {}, { cause: error })
          }
        } finally {
          release()
        }
      },
    }),
  ]
}
