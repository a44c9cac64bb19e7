import Type, { type Static } from 'typebox'
import { NumericId } from '../http/vocabulary.ts'

export const ReissueState = Type.Union([Type.Literal('pending'), Type.Literal('confirmed'), Type.Literal('discarded')])

/** One invoice of a possible re-issue: what the warehouse needs to compare the two. */
const ReissueInvoice = Type.Object({
  factura: Type.String(),
  manifiesto: Type.String(),
  fecha_factura: Type.String({ description: 'YYYY-MM-DD' }),
  almacen: Type.String(),
  clienteid: Type.String(),
  cliente: Type.String(),
  total: Type.Number(),
  anulada: Type.Boolean({ description: 'Confirmada como re-emisión: no cuenta en los totales de su manifiesto ni admite devoluciones' }),
})

export const ReissueView = Type.Object({
  id: Type.String(),
  estado: ReissueState,
  detectada_en: Type.String({ description: 'YYYY-MM-DD HH:mm:ss, hora de Honduras' }),
  batch_uuid: Type.String({ description: 'El lote que trajo la factura' }),
  dias_diferencia: Type.Integer({ description: 'Días entre las FechaFactura de las dos facturas' }),
  factura: Type.Object(ReissueInvoice.properties, { description: 'La factura nueva, posible copia' }),
  identica_a: Type.Object(ReissueInvoice.properties, { description: 'La factura ya registrada que repite (mismo cliente, productos, unidades y total)' }),
  decidida_por: Type.Union([Type.String(), Type.Null()]),
  decidida_en: Type.Union([Type.String(), Type.Null()]),
  nota: Type.Union([Type.String(), Type.Null()]),
})
export type ReissueView = Static<typeof ReissueView>

/** A possible re-issue on the views of its invoice and manifest. */
export const ReissueSummary = Type.Object({
  id: Type.String(),
  estado: ReissueState,
  identica_a: Type.String({ description: 'Nfactura de la factura que repite' }),
  manifiesto_original: Type.String(),
})
export type ReissueSummary = Static<typeof ReissueSummary>

export const ReissueListQuery = Type.Object({ estado: Type.Optional(ReissueState) })
export const ReissueParams = Type.Object({ id: NumericId('Id de la posible re-emisión') })
