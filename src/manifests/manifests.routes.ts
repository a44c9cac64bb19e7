import type { Clock } from '../clock.ts'
import type { Database } from '../db/database.ts'
import { defineRoute, type Route } from '../http/route.ts'
import { errorResponse, PROTECTED_ERRORS } from '../http/schemas.ts'
import { ManifestNumberParams, ManifestStatus } from './manifests.schemas.ts'
import { getManifestStatus, manifestNotFoundMessage } from './manifests.service.ts'

export function manifestRoutes(deps: { db: Database; clock: Clock }): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/manifiestos/:numero/estado',
      access: 'client',
      tag: 'manifiestos',
      summary: 'Estado y resumen de un manifiesto',
      params: ManifestNumberParams,
      paramsNotFound: (raw) => manifestNotFoundMessage(raw.numero ?? ''),
      responses: {
        200: { description: 'Estado del manifiesto', schema: ManifestStatus },
        ...PROTECTED_ERRORS,
        404: errorResponse('El manifiesto no existe (o el número no es solo dígitos)'),
      },
      handle: ({ params }) => ({
        status: 200,
        body: { success: true, ...getManifestStatus(deps.db, deps.clock, params.numero) },
      }),
    }),
  ]
}
