import Type from 'typebox'
import { defineRoute, type Route } from '../http/route.ts'
import { errorResponse, OPERATOR_ERRORS } from '../http/schemas.ts'
import { ReturnView } from '../returns/returns.schemas.ts'
import type { ReturnsDeps } from '../returns/returns.service.ts'
import { getInvoice } from './invoices.service.ts'

const InvoiceView = Type.Object({
  factura: Type.String(),
  manifiesto: Type.String(),
  manifiesto_estado: Type.String(),
  almacen: Type.String(),
  clienteid: Type.String(),
  cliente: Type.String(),
  fecha_factura: Type.String({ description: 'La fecha que significa FechaFactura, YYYY-MM-DD' }),
  total: Type.Number(),
  recibida_en: Type.String(),
  actualizada_en: Type.Union([Type.String(), Type.Null()]),
  lineas: Type.Array(
    Type.Object({
      numeroLinea: Type.Integer(),
      productoId: Type.String(),
      producto: Type.String(),
      uniVenta: Type.Union([Type.String(), Type.Null()]),
      factorConversion: Type.Number(),
      unidades: Type.Number(),
      devueltas: Type.Number({ description: 'En devoluciones pendientes y aprobadas' }),
      disponibles: Type.Number(),
      total: Type.Number(),
    }),
  ),
  devoluciones: Type.Array(ReturnView),
  conflicto_pendiente: Type.Union([
    Type.Object({ id: Type.String(), campos_con_cambio: Type.Array(Type.String()), recibido_en: Type.String(), batch_uuid: Type.String() }),
    Type.Null(),
  ]),
  original: Type.Unknown({ description: 'La factura exactamente como se recibió, con los campos que la interfaz no lista' }),
})

export function invoiceRoutes(deps: ReturnsDeps): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/facturas/:nfactura',
      access: 'operator',
      tag: 'operador: facturas',
      summary: 'Una factura: líneas con unidades devueltas y disponibles, devoluciones, conflicto pendiente y el original',
      params: Type.Object({ nfactura: Type.String({ minLength: 1, maxLength: 100 }) }),
      responses: { 200: { description: 'La factura', schema: InvoiceView }, ...OPERATOR_ERRORS, 404: errorResponse('No existe la factura') },
      handle: ({ params }) => ({ status: 200, body: getInvoice(deps, params.nfactura) }),
    }),
  ]
}
