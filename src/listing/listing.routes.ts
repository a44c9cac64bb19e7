import Type from 'typebox'
import { defineRoute, type Route } from '../http/route.ts'
import { errorResponse } from '../http/schemas.ts'
import { LISTING_200 } from './listing.examples.ts'
import { ListedReturn, ListingHeaders, ListingQuery } from './listing.schemas.ts'
import { listReturnsForClient, type ListingDeps } from './listing.service.ts'

/** The client's returns listing (interface-v1 §4.2): the only route of the supplier's side of returns. */
export function listingRoutes(deps: ListingDeps): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/devoluciones/listar',
      access: 'client',
      operationId: 'listarDevoluciones',
      rateGroup: 'returns',
      tag: 'cliente: devoluciones',
      summary: 'Devoluciones aprobadas de un día o de un rango de días',
      description:
        'Arreglo sin objeto envolvente; [] si no hay. Pida las páginas 1, 2, 3… hasta que una tenga menos de 1000 elementos ' +
        '(1000 por página en todo el rango). Los números marcados con 6 decimales fijos se escriben así (150.000000). ' +
        'Con FechaHasta, el rango de Fecha a FechaHasta (incluidos, a lo sumo 31 días por defecto). ' +
        'Contrato v1 (clientContract "v1"): las devoluciones procesadas (aprobadas) en esos días; cantidad en cajas para líneas CJ. ' +
        'Contrato v2: las devoluciones de facturas emitidas en esos días, solo de manifiestos cuyo plazo de devoluciones ya cerró ' +
        '(el paquete completo de cada manifiesto, de una vez; los manifiestos sin plazo, en seguida); cantidad siempre en unidades.',
      headers: ListingHeaders,
      query: ListingQuery,
      responses: {
        200: { description: 'Una página de devoluciones', schema: Type.Array(ListedReturn), examples: LISTING_200 },
        422: {
          ...errorResponse(
            'Falta el encabezado Fecha; Fecha, FechaHasta o pagina con formato inválido; FechaHasta anterior a Fecha; o un rango de más de returns.listing.maxRangeDays días',
          ),
          examples: {
            falta: {
              summary: 'Sin el encabezado Fecha',
              value: {
                success: false,
                message: 'Falta el encabezado Fecha: una fecha real en formato dd/MM/yyyy, por ejemplo 22/11/2026.',
              },
            },
            formato: {
              summary: 'Fecha en otro formato',
              value: {
                success: false,
                message:
                  'El encabezado Fecha tiene un formato inválido ("2026-11-22"): debe ser una fecha real en formato dd/MM/yyyy, por ejemplo 22/11/2026.',
              },
            },
          },
        },
      },
      handle: ({ headers, query }) => ({
        status: 200,
        json: listReturnsForClient(deps, { from: headers.Fecha, to: headers.FechaHasta, page: query.pagina ?? 1 }),
      }),
    }),
  ]
}
