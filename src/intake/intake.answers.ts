import type { ClientContract } from '../config/contract.ts'
import type { ManifestDateVerdict } from './intake.dates.ts'
import type { ApplyOutcome } from './intake.apply.ts'
import type { Advertencia, BatchDuplicate, BatchProcessed, RejectedManifest, Resumen } from './intake.schemas.ts'
import type { ReceivedInvoice } from '../invoices/received-invoice.ts'

/**
 * The bodies of interface-v1 §4.1, built in one place. 422 bodies are returned without
 * `success`/`message` order concerns: the error mapper adds `success:false` and `message`.
 */

export const BODY_INVALID_MESSAGE = 'El cuerpo de la solicitud debe ser un arreglo JSON no vacío de facturas.'

export function structureInvalid(errors: string[], total: number, complete: boolean) {
  const count = complete ? (total === 1 ? '1 error' : `${total} errores`) : `al menos ${total} errores`
  return {
    message: `La estructura del lote es inválida (${count}); no se insertó nada. Corrija las facturas indicadas y reenvíe el lote.`,
    details: { errores: errors },
  }
}

type ValidManifests = ClientContract['intake']['validManifests']

export function datesInvalid(
  manifests: ReadonlyMap<string, readonly ReceivedInvoice[]>,
  verdicts: ReadonlyMap<string, ManifestDateVerdict>,
  received: number,
  validManifests: ValidManifests,
) {
  const rejected = [...verdicts].map(([numero, verdict]) => {
    const invoices = manifests.get(numero)!
    return {
      manifiesto: numero,
      motivo: verdict.motivo,
      detalle: verdict.detalle,
      total_facturas: invoices.length,
      facturas: invoices.map((invoice) => invoice.nfactura),
    }
  })
  const valid = [...manifests].filter(([numero]) => !verdicts.has(numero))
  const rejectedCount = rejected.reduce((sum, entry) => sum + entry.total_facturas, 0)
  return {
    message: `Lote rechazado: ${rejected.length} manifiesto(s) tienen facturas con fechas inválidas. No se insertó ninguna factura del lote.`,
    details: {
      motivo: 'FECHAS_INVALIDAS',
      accion_requerida:
        'Corrija la FechaFactura de las facturas indicadas en cada manifiesto rechazado y reenvíe el lote completo (los manifiestos válidos tampoco se insertaron).',
      resumen: {
        total_recibidas: received,
        total_rechazadas: rejectedCount,
        total_validas: received - rejectedCount,
        insertadas: 0,
      },
      manifiestos_rechazados: rejected,
      ...(validManifests === 'numbers'
        ? { manifiestos: valid.map(([numero]) => numero) }
        : {
            manifiestos_validos: valid.map(([numero, invoices]) => ({
              manifiesto: numero,
              total_facturas: invoices.length,
            })),
          }),
    },
  }
}

export function oldManifests(
  manifests: ReadonlyMap<string, readonly ReceivedInvoice[]>,
  old: ReadonlyMap<string, string>,
  today: string,
  received: number,
  validManifests: ValidManifests,
) {
  const rejected = [...old].map(([numero, createdOn]) => {
    const invoices = manifests.get(numero)!
    return {
      manifiesto: numero,
      fecha_original: createdOn,
      fecha_intento: today,
      total_facturas: invoices.length,
      facturas_afectadas: invoices.map((invoice) => invoice.nfactura),
      instruccion: `El manifiesto ${numero} se creó el ${createdOn} y desde otro día ya no acepta facturas nuevas. Envíe esas facturas con un número de manifiesto nuevo.`,
    }
  })
  const valid = [...manifests].filter(([numero]) => !old.has(numero))
  const rejectedCount = rejected.reduce((sum, entry) => sum + entry.total_facturas, 0)
  return {
    message: `Lote rechazado: incluye facturas para ${rejected.length} manifiesto(s) creados en días anteriores, que ya no aceptan facturas. No se insertó ninguna factura del lote.`,
    details: {
      motivo: 'MANIFIESTOS_FECHA_INVALIDA',
      accion_requerida:
        'Envíe las facturas de los manifiestos rechazados con un número de manifiesto nuevo, y reenvíe los manifiestos no afectados en un lote aparte.',
      resumen: {
        total_recibidas: received,
        total_rechazadas: rejectedCount,
        total_validas: received - rejectedCount,
        insertadas: 0,
      },
      manifiestos_rechazados: rejected,
      ...(validManifests === 'numbers'
        ? { manifiestos: valid.map(([numero]) => numero) }
        : {
            manifiestos_no_afectados: valid.map(([numero, invoices]) => ({
              manifiesto: numero,
              total_facturas: invoices.length,
              facturas: invoices.map((invoice) => invoice.nfactura),
              nota: 'Manifiesto válido, rechazado solo por venir en el mismo lote que manifiestos de días anteriores: reenvíelo en un lote aparte.',
            })),
          }),
    },
  }
}

export function processed(batchUuid: string, manifests: readonly string[], outcome: ApplyOutcome): BatchProcessed {
  const { resumen, advertencias } = outcome
  return {
    success: true as const,
    message: `Lote procesado: ${resumen.recibidas} factura(s) recibidas, ${resumen.insertadas} insertadas${
      resumen.pendientes_revision > 0 ? `, ${resumen.pendientes_revision} pendientes de revisión` : ''
    }.`,
    batch_uuid: batchUuid,
    manifiestos: [...manifests],
    resumen,
    ...withWarnings(advertencias),
  }
}

const STEP8_MESSAGES: Record<RejectedManifest['motivo'] | 'MOTIVOS_MIXTOS', string> = {
  ALMACENES_DESCONOCIDOS: 'tienen facturas de almacenes no registrados',
  MANIFIESTO_CERRADO: 'están cerrados y no aceptan facturas',
  FACTURAS_DUPLICADAS_EN_OTRO_MANIFIESTO: 'tienen facturas que ya existen en otro manifiesto',
  FACTURAS_YA_EXISTENTES: 'tienen facturas que ya están registradas en ese mismo manifiesto',
  FACTURAS_DUPLICADAS_EXACTAS:
    'tienen facturas idénticas a facturas ya registradas, con otro número (posibles re-emisiones)',
  MOTIVOS_MIXTOS: 'fueron rechazados por motivos distintos (ver el motivo de cada uno)',
}

export function manifestsRejected(batchUuid: string, manifests: readonly string[], outcome: ApplyOutcome) {
  const reasons = new Set(outcome.rejected.map((entry) => entry.motivo))
  const motivo = reasons.size === 1 ? [...reasons][0]! : 'MOTIVOS_MIXTOS'
  const accepted = manifests.length - outcome.rejected.length
  // All or nothing matters to the message only when valid manifests were left out with the rejected ones.
  const rest =
    outcome.storedNothing && accepted > 0
      ? `El lote se acepta completo o no se acepta: no se insertó ningún manifiesto, tampoco los otros ${accepted} válido(s). Corrija los rechazados y reenvíe el lote.`
      : `${accepted > 0 ? `Los otros ${accepted} manifiesto(s) del lote se procesaron.` : 'Ningún manifiesto del lote se procesó.'} Corrija los rechazados y envíelos en un lote nuevo.`
  return {
    message: `${outcome.rejected.length} manifiesto(s) rechazados: ${STEP8_MESSAGES[motivo]}. ${rest}`,
    details: {
      motivo,
      batch_uuid: batchUuid,
      manifiestos: [...manifests],
      resumen: outcome.resumen,
      manifiestos_rechazados: outcome.rejected,
      ...withWarnings(outcome.advertencias),
    },
  }
}

export function duplicate(batchUuid: string, resumen: Resumen): BatchDuplicate {
  return {
    success: true as const,
    message: 'Este lote ya fue procesado hoy y no se reprocesó; se devuelve el resumen del procesamiento original.',
    batch_uuid: batchUuid,
    resumen,
  }
}

function withWarnings(advertencias: readonly Advertencia[]): { advertencias?: Advertencia[] } {
  return advertencias.length > 0 ? { advertencias: [...advertencias] } : {}
}
