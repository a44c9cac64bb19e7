import { defineRoute, type Route } from '../http/route.ts'
import { errorResponse } from '../http/schemas.ts'
import { InvoiceParams, InvoiceView } from './lookup.schemas.ts'
import { getInvoice, type InvoiceDeps } from './lookup.service.ts'

export function invoiceRoutes(deps: InvoiceDeps): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/facturas/:nfactura',
      access: 'operator',
      operationId: 'obtenerFactura',
      rateGroup: 'operator',
      right: 'leer',
      tag: 'operador: facturas',
      summary:
        'Una factura: líneas con unidades devueltas y disponibles, devoluciones, conflicto pendiente y el original',
      params: InvoiceParams,
      responses: {
        200: { description: 'La factura', schema: InvoiceView },
        404: errorResponse('No existe la factura'),
      },
      handle: ({ actor, params }) => ({ status: 200, body: getInvoice(deps, actor, params.nfactura) }),
    }),
  ]
}
