import { defineRoute, type Route } from '../http/route.ts'
import { ServiceStatus } from './status.schemas.ts'
import { getServiceStatus, type StatusDeps } from './status.service.ts'

export function statusRoutes(deps: StatusDeps): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/estado',
      access: 'operator',
      operationId: 'estadoDelServicio',
      rateGroup: 'operator',
      right: 'ver_estado',
      tag: 'operador: estado',
      summary: 'Estado del servicio para el administrador',
      description:
        'Versión y tiempo activo, tamaño de la base de datos y disco libre en su carpeta, último lote y lotes de hoy, ' +
        'conflictos, devoluciones y re-emisiones pendientes, copias automáticas (la última y la próxima) y disco libre en su carpeta, ' +
        'alertas activas y errores internos de las últimas 24 horas. Administrador o supervisor, o la OperatorKey.',
      responses: { 200: { description: 'El estado', schema: ServiceStatus } },
      handle: () => ({ status: 200, body: getServiceStatus(deps) }),
    }),
  ]
}
