import Type, { type Static } from 'typebox'
import { ConflictSummary } from '../conflicts/conflicts.schemas.ts'
import { ReissueSummary } from '../reissues/reissues.schemas.ts'
import { LineProduct, ReturnView } from '../returns/returns.schemas.ts'

export const InvoiceView = Type.Object({
  factura: Type.String(),
  manifiesto: Type.String(),
  manifiesto_estado: Type.String(),
  plazo_devoluciones: Type.Union([Type.String(), Type.Null()], {
    description:
      'Último momento para registrar devoluciones de su manifiesto, hora de Honduras (YYYY-MM-DD 23:59:59); null: sin plazo',
  }),
  admite_devoluciones: Type.Boolean({
    description: 'Se le pueden registrar devoluciones ahora: su manifiesto está abierto y en plazo, y no fue anulada',
  }),
  anulada: Type.Boolean({
    description: 'Confirmada como re-emisión: no cuenta en los totales de su manifiesto ni admite devoluciones',
  }),
  reemision: Type.Union([ReissueSummary, Type.Null()], {
    description: 'Si se detectó como posible re-emisión de otra factura',
  }),
  almacen: Type.String(),
  clienteid: Type.String(),
  cliente: Type.String(),
  fecha_factura: Type.String({ description: 'La fecha que significa FechaFactura, YYYY-MM-DD' }),
  total: Type.Number(),
  recibida_en: Type.String(),
  actualizada_en: Type.Union([Type.String(), Type.Null()]),
  lineas: Type.Array(
    Type.Object({
      ...LineProduct,
      factorConversion: Type.Number(),
      unidades: Type.Number(),
      devueltas: Type.Number({ description: 'En devoluciones pendientes y aprobadas' }),
      disponibles: Type.Number(),
      total: Type.Number(),
    }),
  ),
  devoluciones: Type.Array(ReturnView),
  conflicto_pendiente: Type.Union([ConflictSummary, Type.Null()]),
  original: Type.Unknown({
    description: 'La factura exactamente como se recibió, con los campos que la interfaz no lista',
  }),
})
export type InvoiceView = Static<typeof InvoiceView>

export const InvoiceParams = Type.Object({
  nfactura: Type.String({ minLength: 1, maxLength: 100, description: 'Nfactura' }),
})
