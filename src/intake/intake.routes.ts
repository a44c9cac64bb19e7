import Type from 'typebox'
import { defineRoute, type Route } from '../http/route.ts'
import { ErrorBody, errorResponse } from '../http/schemas.ts'
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
import { insertBatch, validateBatch, type IntakeDeps } from './intake.service.ts'
import { INSERT_200, INSERT_422, INSERT_500, INSERT_503, SAMPLE_BATCH, simulatedExamples } from './intake.examples.ts'

const BODY = {
  description:
    'Arreglo JSON no vacío de facturas; puede llegar comprimido con gzip (Content-Encoding: gzip o x-gzip): se descomprime mientras llega y server.maxBodyMB limita su tamaño descomprimido',
  schema: BatchSchema,
  raw: true,
  examples: SAMPLE_BATCH,
}
const BUSY = {
  ...errorResponse(
    'Ya se están recibiendo intake.maxConcurrentBatches lotes (reenvíe tras Retry-After), la base de datos es inutilizable, o no hay ApiKey configurada',
  ),
  examples: INSERT_503,
}

export function intakeRoutes(deps: IntakeDeps): Route[] {
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
        200: {
          description: 'Lote procesado sin rechazos, o lote ya procesado hoy (duplicado)',
          schema: Type.Union([BatchProcessed, BatchDuplicate]),
          examples: INSERT_200,
        },
        422: {
          description:
            'Cuerpo inválido (también un gzip que no se puede descomprimir), estructura inválida, fechas inválidas, manifiestos de días anteriores o manifiestos rechazados ' +
            '(FECHAS_INVALIDAS y MANIFIESTOS_FECHA_INVALIDA tienen una forma por contrato: v1 con manifiestos_validos / ' +
            'manifiestos_no_afectados, v2 con manifiestos)',
          schema: Type.Union([
            BatchBodyInvalid,
            BatchStructureInvalid,
            BatchDatesInvalid,
            BatchDatesInvalidV2,
            BatchOldManifests,
            BatchOldManifestsV2,
            BatchManifestsRejected,
          ]),
          examples: INSERT_422,
        },
        500: {
          description: 'Error interno; el lote queda fallido y puede reenviarse',
          schema: BatchInternalError,
          examples: INSERT_500,
        },
        503: BUSY,
      },
      handle: async (request) => ({ status: 200, body: await insertBatch(deps, request) }),
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
        200: {
          description:
            'El lote se procesaría sin rechazos, o ya se procesó hoy (duplicado, con el batch_uuid original)',
          schema: Type.Union([SimulatedProcessed, SimulatedDuplicate]),
          examples: simulatedExamples(INSERT_200),
        },
        422: {
          description:
            'Insertar lo rechazaría: cuerpo inválido, estructura inválida, fechas inválidas, manifiestos de días anteriores o manifiestos ' +
            'rechazados (con "simulacion": true); o la solicitud misma es inválida (un parámetro de consulta repetido, sin leer el lote, ' +
            'o un cuerpo gzip que no se puede descomprimir)',
          schema: Type.Union([
            ErrorBody,
            SimulatedBodyInvalid,
            SimulatedStructureInvalid,
            SimulatedDatesInvalid,
            SimulatedOldManifests,
            SimulatedManifestsRejected,
          ]),
          examples: simulatedExamples(INSERT_422),
        },
        500: {
          description: 'Error interno; no se guardó nada',
          schema: SimulatedInternalError,
          examples: simulatedExamples(INSERT_500),
        },
        503: BUSY,
      },
      handle: async (request) => ({ status: 200, body: await validateBatch(deps, request) }),
    }),
  ]
}
