import Type from 'typebox'
import { defineRoute, type Route } from '../http/route.ts'
import { errorResponse } from '../http/schemas.ts'
import { ConflictDetail, ConflictListQuery, ConflictParams, ConflictView, DecisionBody } from './conflicts.schemas.ts'
import { acceptConflict, discardConflict, getConflict, listConflicts, type ConflictDeps } from './conflicts.service.ts'

const TAG = 'operador: conflictos'
const notFound = (raw: Record<string, string>) => `No existe el conflicto ${raw.id ?? ''}.`
const decisionErrors = {
  404: errorResponse('No existe el conflicto'),
  422: errorResponse('Ya decidido, o manifiesto cerrado'),
}

export function conflictRoutes(deps: ConflictDeps): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/conflictos',
      access: 'operator',
      operationId: 'listarConflictos',
      rateGroup: 'operator',
      right: 'decidir_conflicto',
      tag: TAG,
      summary: 'Versiones de facturas retenidas para revisión',
      query: ConflictListQuery,
      responses: { 200: { description: 'Conflictos, por id', schema: Type.Array(ConflictView) } },
      handle: ({ actor, query }) => ({ status: 200, body: listConflicts(deps, actor, query.estado) }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/conflictos/:id',
      access: 'operator',
      operationId: 'obtenerConflicto',
      rateGroup: 'operator',
      right: 'decidir_conflicto',
      tag: TAG,
      summary: 'Un conflicto: las dos versiones, los campos con cambio y las líneas que difieren',
      description:
        'Para comparar lado a lado: existente y entrante tal como llegaron, campos_con_cambio (campos de la factura; LineasFactura si alguna línea difiere) ' +
        'y lineas_con_cambio: cada línea distinta, emparejada por NumeroLinea, con los campos que cambiaron.',
      params: ConflictParams,
      paramsNotFound: notFound,
      responses: {
        200: { description: 'El conflicto', schema: ConflictDetail },
        404: errorResponse('No existe el conflicto'),
      },
      handle: ({ actor, params }) => ({ status: 200, body: getConflict(deps, actor, params.id) }),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/operador/conflictos/:id/aceptar',
      access: 'operator',
      operationId: 'aceptarConflicto',
      rateGroup: 'operator',
      right: 'decidir_conflicto',
      tag: TAG,
      summary: 'Acepta la versión entrante: reemplaza la guardada, líneas incluidas',
      params: ConflictParams,
      paramsNotFound: notFound,
      body: { description: 'Nota opcional', schema: DecisionBody },
      responses: { 200: { description: 'Conflicto aceptado', schema: ConflictView }, ...decisionErrors },
      handle: ({ actor, params, body }) => ({ status: 200, body: acceptConflict(deps, actor, params.id, body.nota) }),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/operador/conflictos/:id/descartar',
      access: 'operator',
      operationId: 'descartarConflicto',
      rateGroup: 'operator',
      right: 'decidir_conflicto',
      tag: TAG,
      summary: 'Descarta la versión entrante: la guardada se queda',
      params: ConflictParams,
      paramsNotFound: notFound,
      body: { description: 'Nota opcional', schema: DecisionBody },
      responses: { 200: { description: 'Conflicto descartado', schema: ConflictView }, ...decisionErrors },
      handle: ({ actor, params, body }) => ({ status: 200, body: discardConflict(deps, actor, params.id, body.nota) }),
    }),
  ]
}
