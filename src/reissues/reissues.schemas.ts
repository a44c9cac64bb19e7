import Type, { type Static } from 'typebox'
import { NumericId } from '../schemas/vocabulary.ts'

export const ReissueState = Type.Union([Type.Literal('pending'), Type.Literal('confirmed'), Type.Literal('discarded')])

/** The new invoice of a possible re-issue: what the warehouse needs to compare the two. */
const ReissueInvoice = Type.Object({
  factura: Type.String(),
  manifiesto: Type.String(),
  fecha_factura: Type.String({ description: 'YYYY-MM-DD' }),
  almacen: Type.String(),
  clienteid: Type.String(),
  cliente: Type.String(),
  total: Type.Number(),
  anulada: Type.Boolean({
    description: 'Confirmada como re-emisión: no cuenta en los totales de su manifiesto ni admite devoluciones',
  }),
})

const hidden = 'null si es otra factura de otro almacén (oculta)'

/**
 * The stored invoice a possible re-issue repeats. It may be of a warehouse the person does not
 * have: then only its existence is said (`oculta`), nothing of it — number, manifest, date,
 * warehouse, client, amount.
 */
const ReissueOriginal = Type.Object({
  oculta: Type.Boolean({
    description:
      'true: es otra factura de otro almacén, que usted no tiene; de ella solo se sabe que existe y los demás campos son null',
  }),
  factura: Type.Union([Type.String(), Type.Null()], { description: `Nfactura; ${hidden}` }),
  manifiesto: Type.Union([Type.String(), Type.Null()], { description: hidden }),
  fecha_factura: Type.Union([Type.String(), Type.Null()], { description: `YYYY-MM-DD; ${hidden}` }),
  almacen: Type.Union([Type.String(), Type.Null()], { description: hidden }),
  clienteid: Type.Union([Type.String(), Type.Null()], { description: hidden }),
  cliente: Type.Union([Type.String(), Type.Null()], { description: hidden }),
  total: Type.Union([Type.Number(), Type.Null()], { description: hidden }),
  anulada: Type.Union([Type.Boolean(), Type.Null()], { description: hidden }),
})
export type ReissueOriginal = Static<typeof ReissueOriginal>

export const ReissueView = Type.Object({
  id: Type.String(),
  estado: ReissueState,
  detectada_en: Type.String({ description: 'YYYY-MM-DD HH:mm:ss, hora de Honduras' }),
  batch_uuid: Type.String({ description: 'El lote que trajo la factura' }),
  dias_diferencia: Type.Integer({ description: 'Días entre las FechaFactura de las dos facturas' }),
  factura: Type.Object(ReissueInvoice.properties, { description: 'La factura nueva, posible copia' }),
  identica_a: Type.Object(ReissueOriginal.properties, {
    description:
      'La factura ya registrada que repite (mismo cliente, productos, unidades y total); si es de un almacén que usted no tiene, solo que existe (oculta)',
  }),
  decidida_por: Type.Union([Type.String(), Type.Null()]),
  decidida_en: Type.Union([Type.String(), Type.Null()]),
  nota: Type.Union([Type.String(), Type.Null()]),
})
export type ReissueView = Static<typeof ReissueView>

/** A possible re-issue on the views of its invoice and manifest. */
export const ReissueSummary = Type.Object({
  id: Type.String(),
  estado: ReissueState,
  identica_a: Type.Union([Type.String(), Type.Null()], {
    description: 'Nfactura de la factura que repite; null si es otra factura de otro almacén (original_oculta)',
  }),
  manifiesto_original: Type.Union([Type.String(), Type.Null()], {
    description: 'null si es otra factura de otro almacén (original_oculta)',
  }),
  original_oculta: Type.Boolean({
    description:
      'true: la factura que repite es otra factura de otro almacén, que usted no tiene; de ella solo se sabe que existe',
  }),
})
export type ReissueSummary = Static<typeof ReissueSummary>

export const ReissueListQuery = Type.Object({ estado: Type.Optional(ReissueState) })
export const ReissueParams = Type.Object({ id: NumericId('Id de la posible re-emisión') })
