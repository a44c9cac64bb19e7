import { defineRoute, type Route } from '../http/route.ts'
import { DashboardView } from './dashboard.schemas.ts'
import { getDashboard, type DashboardDeps } from './dashboard.service.ts'

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
      summary: 'Hoy de un vistazo en sus almacenes: lotes, conflictos, devoluciones y re-emisiones pendientes, manifiestos abiertos, plazos que vencen hoy',
      description:
        'Para la pantalla Inicio de la consola. lotes es null si su rol no permite consultar lotes, y conflictos_pendientes null si no permite decidir conflictos. ' +
        'Cada número lleva a su lista: GET lotes, conflictos?estado=pending, devoluciones?estado=pending, reemisiones?estado=pending, manifiestos?estado=imported.',
      responses: { 200: { description: 'El resumen de hoy', schema: DashboardView } },
      handle: ({ actor }) => ({ status: 200, body: getDashboard(deps, actor) }),
    }),
  ]
}
