import { defineRoute, type Route } from '../http/route.ts'
import { SearchAnswer, SearchQuery } from './search.schemas.ts'
import { searchEverything, type SearchDeps } from './search.service.ts'

export function searchRoutes(deps: SearchDeps): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/buscar',
      access: 'operator',
      operationId: 'buscar',
      rateGroup: 'operator',
      right: 'leer',
      tag: 'operador: facturas',
      summary: 'Busca facturas, manifiestos y devoluciones de sus almacenes, abiertos o cerrados',
      description:
        'La búsqueda de la barra de la consola. Cada palabra de q se busca al comienzo de una palabra del número de factura, del nombre o código del cliente, del RTN, ' +
        'de la ruta o del número de manifiesto, sin distinguir mayúsculas ni acentos y en cualquier orden ("mejia espinal" encuentra "FARMACIA DILCIA ESPINAL MEJÍA"). ' +
        'Tres grupos con sus primeros resultados (limite por grupo) y si hay más.',
      query: SearchQuery,
      responses: { 200: { description: 'Los resultados, por grupo', schema: SearchAnswer } },
      handle: ({ actor, query }) => ({ status: 200, body: searchEverything(deps, actor, query.q, query.limite) }),
    }),
  ]
}
