import Type from 'typebox'
import { defineRoute, type Route } from '../http/route.ts'
import { errorResponse } from '../http/schemas.ts'
import { CreateReasonBody, Reason, ReasonParams, UpdateReasonBody } from './reasons.schemas.ts'
import { changeReason, createReason, listReasons, type ReasonDeps } from './reasons.service.ts'

export function reasonRoutes(deps: ReasonDeps): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/conceptos',
      access: 'operator',
      operationId: 'listarConceptos',
      rateGroup: 'operator',
      right: 'leer',
      tag: 'operador: conceptos',
      summary: 'Motivos de devolución',
      responses: { 200: { description: 'Todos los conceptos, por código', schema: Type.Array(Reason) } },
      handle: () => ({ status: 200, body: listReasons(deps) }),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/operador/conceptos',
      access: 'operator',
      operationId: 'crearConcepto',
      rateGroup: 'operator',
      right: 'gestionar_conceptos',
      tag: 'operador: conceptos',
      summary: 'Registra un motivo de devolución',
      body: { description: 'El concepto', schema: CreateReasonBody },
      responses: {
        201: { description: 'Concepto creado', schema: Reason },
        422: errorResponse('Cuerpo inválido o código existente'),
      },
      handle: ({ actor, body }) => ({ status: 201, body: createReason(deps, actor, body) }),
    }),
    defineRoute({
      method: 'PUT',
      path: '/api/v1/operador/conceptos/:codigo',
      access: 'operator',
      operationId: 'cambiarConcepto',
      rateGroup: 'operator',
      right: 'gestionar_conceptos',
      tag: 'operador: conceptos',
      summary: 'Cambia la descripción, el id del proveedor o si está activo',
      params: ReasonParams,
      body: { description: 'Los campos a cambiar', schema: UpdateReasonBody },
      responses: {
        200: { description: 'Concepto cambiado', schema: Reason },
        404: errorResponse('No existe el concepto'),
        422: errorResponse('Cuerpo inválido, o un codigo distinto del de la ruta (los códigos no se renombran)'),
      },
      handle: ({ actor, params, body }) => ({ status: 200, body: changeReason(deps, actor, params.codigo, body) }),
    }),
  ]
}
