import { createHash, randomUUID } from 'node:crypto'
import Type from 'typebox'
import { DatabaseFileGoneError, DomainError } from '../core/errors.ts'
import { UploadSlots } from '../http/upload-slots.ts'
import { INTERNAL_ERROR_MESSAGE } from '../http/error-response.ts'
import { defineRoute, type Reply, type Route, type RouteRequest } from '../http/route.ts'
import { ErrorBody, errorResponse } from '../http/schemas.ts'
import { bodyCompressor } from '../batches/body-compressor.ts'
import { BODY_CHUNK_BYTES } from '../batches/body-chunks.ts'
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
  SimulatedBodyInvalid,
  SimulatedDatesInvalid,
  SimulatedDuplicate,
  SimulatedInternalError,
  SimulatedManifestsRejected,
  SimulatedOldManifests,
  SimulatedProcessed,
  SimulatedStructureInvalid,
} from './intake.schemas.ts'
import { receiveBatch, simulateBatch, type IncomingBatch, type IntakeDeps } from './intake.service.ts'
import { bodyBuffer } from './body-layout.ts'
import { INSERT_200, INSERT_422, INSERT_500, INSERT_503, SAMPLE_BATCH, simulatedExamples } from './intake.examples.ts'

export interface IntakeRouteDeps extends IntakeDeps {
  /** intake.maxConcurrentBatches: batch bodies received at once (insertar and validar together). */
  uploads: UploadSlots
}

const BODY = { description: 'Arreglo JSON no vacío de facturas; puede llegar comprimido con gzip (Content-Encoding: gzip o x-gzip): se descomprime mientras llega y server.maxBodyMB limita su tamaño descomprimido', schema: BatchSchema, raw: true, examples: SAMPLE_BATCH }
const BUSY = { ...errorResponse('Ya se están recibiendo intake.maxConcurrentBatches lotes (reenvíe tras Retry-After), la base de datos es inutilizable, o no hay ApiKey configurada'), examples: INSERT_503 }

export function intakeRoutes(deps: IntakeRouteDeps): Route[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/facturas/insertar',
      access: 'client',
      operationId: 'insertarFacturas',
      rateGroup: 'insert',
      tag: 'cliente: facturas',
      summary: 'Recibe un lote de facturas',
      description:
        'Pasos: autenticación, cuerpo (arreglo no vacío), estructura, fechas, manifiestos de días anteriores, lote duplicado, ' +
        'registro del lote y procesamiento por manifiesto (interface-v1 §4.1). Reenviar el mismo lote el mismo día es seguro: ' +
        'se responde con el resumen original. Para probar un lote sin guardarlo, use POST /api/v1/facturas/validar. Con el contrato v2 ' +
        '(clientContract "v2"): el lote se acepta completo o nada (si un ' +
        'manifiesto se rechaza en el paso 8 no se inserta ninguno, y el mismo lote reenviado se procesa de nuevo); una factura ya ' +
        'registrada en el mismo manifiesto lo rechaza con FACTURAS_YA_EXISTENTES (sin actualizaciones ni conflictos); y las ' +
        'respuestas FECHAS_INVALIDAS y MANIFIESTOS_FECHA_INVALIDA nombran los manifiestos válidos en `manifiestos`. ' +
        'El lote puede llegar comprimido con gzip (Content-Encoding: gzip): se descomprime mientras llega, server.maxBodyMB limita ' +
        'su tamaño descomprimido (413), un gzip dañado o incompleto es un 422, otra codificación (br, deflate…) un 415, y el cuerpo ' +
        'que se guarda del lote es el JSON descomprimido.',
      body: BODY,
      responses: {
        200: { description: 'Lote procesado sin rechazos, o lote ya procesado hoy (duplicado)', schema: Type.Union([BatchProcessed, BatchDuplicate]), examples: INSERT_200 },
        422: {
          description:
            'Cuerpo inválido (también un gzip que no se puede descomprimir), estructura inválida, fechas inválidas, manifiestos de días anteriores o manifiestos rechazados ' +
            '(FECHAS_INVALIDAS y MANIFIESTOS_FECHA_INVALIDA tienen una forma por contrato: v1 con manifiestos_validos / ' +
            'manifiestos_no_afectados, v2 con manifiestos)',
          schema: Type.Union([BatchBodyInvalid, BatchStructureInvalid, BatchDatesInvalid, BatchDatesInvalidV2, BatchOldManifests, BatchOldManifestsV2, BatchManifestsRejected]),
          examples: INSERT_422,
        },
        500: { description: 'Error interno; el lote queda fallido y puede reenviarse', schema: BatchInternalError, examples: INSERT_500 },
        503: BUSY,
      },
      handle: (request) =>
        receiving(deps, request, { logUuid: true, compress: true, internalDetails: (uuid) => ({ batch_uuid: uuid }) }, (incoming) => receiveBatch(deps, incoming)),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/facturas/validar',
      access: 'client',
      operationId: 'validarFacturas',
      rateGroup: 'validate',
      tag: 'cliente: facturas',
      summary: 'Simula un lote: responde lo que insertar respondería ahora, sin guardar nada',
      description:
        'Recibe exactamente lo mismo que POST /api/v1/facturas/insertar y responde exactamente lo que insertar respondería en este ' +
        'momento (mismo estado HTTP, mismos mensajes y conteos, también la respuesta de lote duplicado), pero no guarda nada: ni lote, ' +
        'ni facturas, ni conflictos, ni auditoría, ni avisos. La respuesta lleva además "simulacion": true, y batch_uuid es null donde ' +
        'insertar crearía un lote. Sirve para probar la integración sin tocar los datos ni gastar el límite de insertar. Como el estado ' +
        'puede cambiar entre la simulación y el envío real (otro lote, un manifiesto cerrado), la respuesta de insertar es la que vale. ' +
        'Acepta el lote comprimido con gzip (Content-Encoding: gzip) como insertar.',
      body: BODY,
      responses: {
        200: { description: 'El lote se procesaría sin rechazos, o ya se procesó hoy (duplicado, con el batch_uuid original)', schema: Type.Union([SimulatedProcessed, SimulatedDuplicate]), examples: simulatedExamples(INSERT_200) },
        422: {
          description:
            'Insertar lo rechazaría: cuerpo inválido, estructura inválida, fechas inválidas, manifiestos de días anteriores o manifiestos ' +
            'rechazados (con "simulacion": true); o la solicitud misma es inválida (un parámetro de consulta repetido, sin leer el lote, ' +
            'o un cuerpo gzip que no se puede descomprimir)',
          schema: Type.Union([ErrorBody, SimulatedBodyInvalid, SimulatedStructureInvalid, SimulatedDatesInvalid, SimulatedOldManifests, SimulatedManifestsRejected]),
          examples: simulatedExamples(INSERT_422),
        },
        500: { description: 'Error interno; no se guardó nada', schema: SimulatedInternalError, examples: simulatedExamples(INSERT_500) },
        503: BUSY,
      },
      handle: (request) =>
        receiving(deps, request, { logUuid: false, compress: false, internalDetails: () => ({ batch_uuid: null, simulacion: true }) }, (incoming) => simulateBatch(deps, incoming)),
    }),
  ]
}

interface Receiving {
  /** Whether the request's log line carries the batch's uuid (only when a batch may be stored). */
  logUuid: boolean
  /** Whether the body will be compressed to be kept (insertar): the compressing worker starts while it arrives. */
  compress: boolean
  /** What a 500 adds to its body. */
  internalDetails: (uuid: string) => Record<string, unknown>
}

/**
 * What insertar and validar share around their service: an upload slot for the body (the same
 * slots for both, so they bound the memory of all batch bodies together), the body read within
 * server.maxBodyMB and server.bodyTimeoutSeconds while its hash is computed, and an unexpected
 * failure turned into the 500 the interface describes.
 */
async function receiving(
  deps: IntakeRouteDeps,
  request: RouteRequest<unknown, unknown>,
  options: Receiving,
  work: (incoming: IncomingBatch) => unknown,
): Promise<Reply> {
  const release = deps.uploads.acquire()
  try {
    const uuid = randomUUID()
    // The worker boots while the body arrives; a body of one chunk is compressed without it.
    if (options.compress && !(request.bodyBytes !== null && request.bodyBytes <= BODY_CHUNK_BYTES)) bodyCompressor.warm()
    const hash = createHash('sha256')
    // Into memory the scan of step 2 reads in place (src/intake/body-layout.ts).
    const body = await request.readBody((chunk) => hash.update(chunk), bodyBuffer)
    const bodyHash = hash.digest('hex')
    // The log names the batch the answer names: the original one for a duplicate, none for a
    // batch refused before it was recorded (steps 2–5).
    const logAnswered = (answered: unknown) => {
      if (options.logUuid && typeof answered === 'string') request.logContext.batchUuid = answered
    }
    try {
      const answer = await work({ uuid, body, bodyHash, clientIp: request.clientIp, keyFingerprint: request.keyFingerprint })
      logAnswered((answer as { batch_uuid?: unknown }).batch_uuid)
      return { status: 200, body: answer }
    } catch (error) {
      if (error instanceof DomainError) {
        logAnswered(error.details.batch_uuid)
        throw error
      }
      // Nothing was stored: the batch may be sent again once the database is restored.
      if (error instanceof DatabaseFileGoneError) throw error
      logAnswered(uuid)
      throw new DomainError('INTERNAL', INTERNAL_ERROR_MESSAGE, options.internalDetails(uuid), {}, { cause: error })
    }
  } finally {
    release()
  }
}
