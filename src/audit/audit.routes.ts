import Type from 'typebox'
import { defineRoute, type Route } from '../http/route.ts'
import { AUDIT_PAGE_SIZE, AuditEntryView, AuditQuery } from './audit.schemas.ts'
import { listAuditEntries, type AuditDeps } from './audit.service.ts'

export function auditRoutes(deps: AuditDeps): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/auditoria',
      access: 'operator',
      operationId: 'listarAuditoria',
      rateGroup: 'operator',
      right: 'leer_auditoria',
      tag: 'operador: auditoría',
      summary: 'Quién cambió qué y cuándo',
      query: AuditQuery,
      responses: { 200: { description: `Entradas en orden, ${AUDIT_PAGE_SIZE} por página`, schema: Type.Array(AuditEntryView) } },
      handle: ({ actor, query }) => ({ status: 200, body: listAuditEntries(deps, actor, query) }),
    }),
  ]
}
