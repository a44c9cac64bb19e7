import sampleBatch from '../../docs/ejemplos/lote.json' with { type: 'json' }
import { INTERNAL_ERROR_MESSAGE } from '../http/error-response.ts'
import type { Examples } from '../http/route.ts'

/**
 * Examples of insertar's and validar's requests and answers for the API reference, copied from
 * real answers of the service to the sample batch (docs/ejemplos/lote.json, the one the Spanish
 * guide sends) on 2026-11-22; test/http/examples.test.ts sends it again and compares.
 */
export const SAMPLE_BATCH: Examples = {
  lote: {
    summary:
      'Lote de ejemplo: 2 facturas del manifiesto 905112 (docs/ejemplos/lote.json; ponga la fecha de hoy en FechaFactura)',
    value: sampleBatch,
  },
}

const UUID = '6ed29421-73ad-45a9-b4a3-4dbbc57a582a'
const RESUMEN_2 = {
  recibidas: 2,
  insertadas: 2,
  actualizadas: 0,
  sin_cambios: 0,
  pendientes_revision: 0,
  rechazadas: 0,
}

export const INSERT_200: Examples = {
  procesado: {
    summary: 'Lote procesado sin rechazos',
    value: {
      success: true,
      message: 'Lote procesado: 2 factura(s) recibidas, 2 insertadas.',
      batch_uuid: UUID,
      manifiestos: ['905112'],
      resumen: RESUMEN_2,
    },
  },
  duplicado: {
    summary: 'El mismo lote reenviado el mismo día: no se reprocesa',
    value: {
      success: true,
      message: 'Este lote ya fue procesado hoy y no se reprocesó; se devuelve el resumen del procesamiento original.',
      batch_uuid: UUID,
      resumen: RESUMEN_2,
    },
  },
}

export const INSERT_422: Examples = {
  cuerpo: {
    summary: 'El cuerpo no es un arreglo JSON no vacío',
    value: { success: false, message: 'El cuerpo de la solicitud debe ser un arreglo JSON no vacío de facturas.' },
  },
  estructura: {
    summary: 'Falta un campo obligatorio',
    value: {
      success: false,
      message:
        'La estructura del lote es inválida (1 error); no se insertó nada. Corrija las facturas indicadas y reenvíe el lote.',
      errores: ['Factura #1 (Nfactura F-1): falta el campo Almacen'],
    },
  },
  fechas: {
    summary: 'Una FechaFactura futura: no se insertó nada del lote',
    value: {
      success: false,
      message:
        'Lote rechazado: 1 manifiesto(s) tienen facturas con fechas inválidas. No se insertó ninguna factura del lote.',
      motivo: 'FECHAS_INVALIDAS',
      accion_requerida:
        'Corrija la FechaFactura de las facturas indicadas en cada manifiesto rechazado y reenvíe el lote completo (los manifiestos válidos tampoco se insertaron).',
      resumen: { total_recibidas: 1, total_rechazadas: 1, total_validas: 0, insertadas: 0 },
      manifiestos_rechazados: [
        {
          manifiesto: '905113',
          motivo: 'FECHA_FACTURA_FUTURA',
          detalle: {
            instruccion:
              'FechaFactura no puede ser posterior a hoy (2026-11-22, hora de Honduras). Corrija la fecha y reenvíe el lote.',
            facturas_futuras: { 'F-1': '2026-11-23' },
            hoy_servidor: '2026-11-22',
          },
          total_facturas: 1,
          facturas: ['F-1'],
        },
      ],
      manifiestos_validos: [],
    },
  },
  almacen: {
    summary: 'Un manifiesto rechazado (almacén no registrado); el otro se procesó',
    value: {
      success: false,
      message:
        '1 manifiesto(s) rechazados: tienen facturas de almacenes no registrados. Los otros 1 manifiesto(s) del lote se procesaron. Corrija los rechazados y envíelos en un lote nuevo.',
      motivo: 'ALMACENES_DESCONOCIDOS',
      batch_uuid: '37fe0dec-1791-4afa-93ca-b5e3a78f00c4',
      manifiestos: ['905114', '905115'],
      resumen: { recibidas: 2, insertadas: 1, actualizadas: 0, sin_cambios: 0, pendientes_revision: 0, rechazadas: 1 },
      manifiestos_rechazados: [
        {
          manifiesto: '905114',
          total_facturas: 1,
          motivo: 'ALMACENES_DESCONOCIDOS',
          almacenes_desconocidos: [{ almacen: 'XXX', facturas: ['F-1'], cantidad: 1 }],
        },
      ],
    },
  },
}

export const INSERT_500: Examples = {
  interno: {
    summary: 'Error interno: el lote quedó fallido y puede reenviarse',
    value: { success: false, message: INTERNAL_ERROR_MESSAGE, batch_uuid: UUID },
  },
}

export const INSERT_503: Examples = {
  ocupado: {
    summary: 'Ya se están recibiendo intake.maxConcurrentBatches lotes: reenvíe tras Retry-After',
    value: {
      success: false,
      message: 'El servidor ya está recibiendo 2 lote(s) a la vez; reenvíe este lote en unos segundos.',
    },
  },
}

/**
 * insertar's examples as validar answers them: `simulacion: true`, and a null batch_uuid where
 * insertar created a batch (the duplicate answer names the original, which exists).
 */
export function simulatedExamples(examples: Examples): Examples {
  return Object.fromEntries(
    Object.entries(examples).map(([name, { summary, value }]) => {
      const answer = { ...(value as Record<string, unknown>) }
      if ('batch_uuid' in answer && name !== 'duplicado') answer.batch_uuid = null
      return [name, { summary, value: { ...answer, simulacion: true } }]
    }),
  )
}
