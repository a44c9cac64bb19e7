import Type from 'typebox'
import type { Clock } from '../clock.ts'
import type { Database } from '../db/database.ts'
import { defineRoute, type Route } from '../http/route.ts'
import { errorResponse, OPERATOR_ERRORS } from '../http/schemas.ts'
import { acceptConflict, discardConflict, listConflicts } from './conflicts.service.ts'

const ConflictState = Type.Union([Type.Literal('pending'), Type.Literal('accepted'), Type.Literal('discarded')])
const ConflictView = Type.Object({
  id: Type.String(),
  factura: Type.String(),
  manifiesto: Type.String(),
  estado: ConflictState,
  campos_con_cambio: Type.Array(Type.String()),
  recibido_en: Type.String(),
  batch_uuid: Type.String(),
  decidido_por: Type.Union([Type.String(), Type.Null()]),
  decidido_en: Type.Union([Type.String(), Type.Null()]),
  nota: Type.Union([Type.String(), Type.Null()]),
  existente: Type.Unknown({ description: 'La versión guardada cuando surgió el conflicto' }),
  entrante: Type.Unknown({ description: 'La versión retenida para revisión' }),
})
const Params = Type.Object({ id: Type.String({ pattern: '^[1-9][0-9]{0,15}$' }) })
const DecisionBody = Type.Object({ nota: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })) }, { additionalProperties: false })
const notFound = (raw: Record<string, string>) => `No existe el conflicto ${raw.id ?? ''}.`
const decisionErrors = { ...OPERATOR_ERRORS, 404: errorResponse('No existe el conflicto'), 422: errorResponse('Ya decidido, o manifiesto cerrado') }

export function conflictRoutes(deps: { db: Database; clock: Clock; onInvoiceChanged: () => void }): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/conflictos',
      access: 'operator',
      tag: 'operador: conflictos',
      summary: 'Versiones de facturas retenidas para revisión',
      query: Type.Object({ estado: Type.Optional(ConflictState) }),
      responses: { 200: { description: 'Conflictos, por id', schema: Type.Array(ConflictView) }, ...OPERATOR_ERRORS },
      handle: ({ query }) => ({ status: 200, body: listConflicts(deps.db, deps.clock, query.estado) }),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/operador/conflictos/:id/aceptar',
      access: 'operator',
      tag: 'operador: conflictos',
      summary: 'Acepta la versión entrante: reemplaza la guardada, líneas incluidas',
      params: Params,
      paramsNotFound: notFound,
      body: { description: 'Nota opcional', schema: DecisionBody },
      responses: { 200: { description: 'Conflicto aceptado', schema: ConflictView }, ...decisionErrors },
      handle: ({ params, body, operator }) => {
        const accepted = acceptConflict(deps.db, deps.clock, operator, params.id, body.nota)
        deps.onInvoiceChanged()
        return { status: 200, body: accepted }
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/operador/conflictos/:id/descartar',
      access: 'operator',
      tag: 'operador: conflictos',
      summary: 'Descarta la versión entrante: la guardada se queda',
      params: Params,
      paramsNotFound: notFound,
      body: { description: 'Nota opcional', schema: DecisionBody },
      responses: { 200: { description: 'Conflicto descartado', schema: ConflictView }, ...decisionErrors },
      handle: ({ params, body, operator }) => ({ status: 200, body: discardConflict(deps.db, deps.clock, operator, params.id, body.nota) }),
    }),
  ]
}
