import Type from 'typebox'
import { DecisionBody } from '../conflicts/conflicts.schemas.ts'
import { defineRoute, type Route } from '../http/route.ts'
import { errorResponse } from '../http/schemas.ts'
import { ReissueListQuery, ReissueParams, ReissueView } from './reissues.schemas.ts'
import {
  confirmReissue,
  discardReissue,
  listReissues,
  reissueNotFoundMessage,
  type ReissueDeps,
} from './reissues.service.ts'

const TAG = 'operador: re-emisiones'
const notFound = (raw: Record<string, string>) => reissueNotFoundMessage(raw.id ?? '')
const decisionErrors = {
  403: errorResponse('Su rol no permite decidir posibles re-emisiones'),
  404: errorResponse('No existe la posible re-emisión (o su factura es de un almacén que no es suyo)'),
  422: errorResponse(
    'Ya decidida, manifiesto cerrado, o (al confirmar) la factura tiene devoluciones pendientes o aprobadas',
  ),
}

export function reissueRoutes(deps: ReissueDeps): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/reemisiones',
      access: 'operator',
      operationId: 'listarReemisiones',
      rateGroup: 'operator',
      right: 'leer',
      tag: TAG,
      summary:
        'Posibles re-emisiones: facturas nuevas idénticas a una ya registrada de otro manifiesto, con las dos facturas',
      description:
        'Una persona ve las re-emisiones cuya factura nueva es de sus almacenes. Si la factura que repite es de un almacén que no tiene, ' +
        'de ella solo se dice que existe: identica_a.oculta es true y sus demás campos son null (otra factura de otro almacén). La clave de integración lo ve todo.',
      query: ReissueListQuery,
      responses: { 200: { description: 'Posibles re-emisiones, por id', schema: Type.Array(ReissueView) } },
      handle: ({ actor, query }) => ({ status: 200, body: listReissues(deps, actor, query.estado) }),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/operador/reemisiones/:id/confirmar',
      access: 'operator',
      operationId: 'confirmarReemision',
      rateGroup: 'operator',
      right: 'decidir_conflicto',
      tag: TAG,
      summary:
        'Confirma la re-emisión: la factura nueva se anula (sale de los totales de su manifiesto y no admite devoluciones)',
      params: ReissueParams,
      paramsNotFound: notFound,
      body: { description: 'Nota opcional', schema: DecisionBody },
      responses: { 200: { description: 'Re-emisión confirmada', schema: ReissueView }, ...decisionErrors },
      handle: ({ actor, params, body }) => ({ status: 200, body: confirmReissue(deps, actor, params.id, body.nota) }),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/operador/reemisiones/:id/descartar',
      access: 'operator',
      operationId: 'descartarReemision',
      rateGroup: 'operator',
      right: 'decidir_conflicto',
      tag: TAG,
      summary: 'Descarta la sospecha: es un pedido repetido legítimo y la factura queda como está',
      params: ReissueParams,
      paramsNotFound: notFound,
      body: { description: 'Nota opcional', schema: DecisionBody },
      responses: { 200: { description: 'Sospecha descartada', schema: ReissueView }, ...decisionErrors },
      handle: ({ actor, params, body }) => ({ status: 200, body: discardReissue(deps, actor, params.id, body.nota) }),
    }),
  ]
}
