import Type from 'typebox'
import { pagingHeaders } from '../schemas/paging.ts'
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
      description:
        'Filtros: desde/hasta (días), tipo y sujeto (la historia de un manifiesto: tipo=manifiesto&sujeto=905112), usuario (palabras del usuario o del nombre de quien actuó, sin distinguir mayúsculas ni acentos, incompletas si se quiere), accion (la clase de acción: conflicto encuentra las decisiones de conflictos, que son sobre facturas). ' +
        `${AUDIT_PAGE_SIZE} entradas por página, en orden. Los encabezados X-Pagina, X-Por-Pagina y X-Hay-Mas (true o false) dicen si existe la página siguiente.`,
      query: AuditQuery,
      responses: {
        200: {
          description: `Entradas en orden, ${AUDIT_PAGE_SIZE} por página`,
          schema: Type.Array(AuditEntryView),
          headers: {
            'X-Pagina': 'La página respondida',
            'X-Por-Pagina': `Entradas por página (${AUDIT_PAGE_SIZE})`,
            'X-Hay-Mas': 'true si existe la página siguiente, si no false',
          },
        },
      },
      handle: ({ actor, query }) => {
        const { entries, page, hasMore } = listAuditEntries(deps, actor, query)
        return { status: 200, body: entries, headers: pagingHeaders(page, AUDIT_PAGE_SIZE, hasMore) }
      },
    }),
  ]
}
