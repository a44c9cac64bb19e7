import { defineRoute, type Route } from '../http/route.ts'
import { DashboardView, PendingCounts } from './dashboard.schemas.ts'
import { getDashboard, getPendingCounts, type DashboardDeps } from './dashboard.service.ts'

export function dashboardRoutes(deps: DashboardDeps): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/resumen',
      access: 'operator',
      operationId: 'obtenerResumenDelDia',
      rateGroup: 'operator',
      right: 'leer',
      tag: 'operador: inicio',
      summary:
        'Hoy de un vistazo en sus almacenes: lotes, conflictos, devoluciones y re-emisiones pendientes, manifiestos abiertos, plazos que vencen hoy',
      description:
        'Para la pantalla Inicio de la consola. lotes es null si su rol no permite consultar lotes, y conflictos_pendientes null si no permite decidir conflictos. ' +
        'Cada número lleva a su lista: GET lotes, conflictos?estado=pending, devoluciones?estado=pending, reemisiones?estado=pending, manifiestos?estado=imported.',
      responses: { 200: { description: 'El resumen de hoy', schema: DashboardView } },
      handle: ({ actor }) => ({ status: 200, body: getDashboard(deps, actor) }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/pendientes',
      access: 'operator',
      operationId: 'contarPendientes',
      rateGroup: 'operator',
      right: 'leer',
      tag: 'operador: inicio',
      summary: 'Lo que espera a la persona: devoluciones por aprobar, conflictos y re-emisiones por decidir',
      description:
        'Para los contadores de la navegación de la consola (cada minuto y después de cada acción). Cada número es null si su rol no lo decide.',
      responses: { 200: { description: 'Los contadores', schema: PendingCounts } },
      handle: ({ actor }) => ({ status: 200, body: getPendingCounts(deps, actor) }),
    }),
  ]
}
