import { ZonedDateTime } from '@js-joda/core'
import type { Clock } from '../core/clock.ts'
import type { Database } from '../db/database.ts'
import { defineRoute, type Route } from '../http/route.ts'
import { VERSION } from '../core/version.ts'
import { PingDown, PingOk } from './health.schemas.ts'
import { isDatabaseReadable } from './health.service.ts'

export function healthRoutes(deps: { db: Database; clock: Clock }): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/ping',
      access: 'public',
      operationId: 'ping',
      rateGroup: 'general',
      tag: 'cliente: salud',
      summary: 'Verificación de salud',
      description: 'No requiere ApiKey (enviarla no causa error). Lee la base de datos de verdad.',
      responses: {
        200: {
          description: 'Servicio y base de datos operativos',
          schema: PingOk,
          examples: {
            ok: {
              summary: 'Todo bien',
              value: {
                success: true,
                status: 'ok',
                service: 'manifiesto',
                version: '0.1.0',
                timestamp: '2026-11-22T10:00-06:00',
                database: 'ok',
              },
            },
          },
        },
        503: {
          description: 'La base de datos no se puede leer',
          schema: PingDown,
          examples: {
            caida: {
              summary: 'La base de datos no se puede leer: avise al administrador',
              value: {
                success: false,
                status: 'error',
                service: 'manifiesto',
                version: '0.1.0',
                timestamp: '2026-11-22T10:00-06:00',
                database: 'error',
                message: 'La base de datos no se puede leer.',
              },
            },
          },
        },
      },
      handle: () => {
        const common = {
          service: 'manifiesto',
          version: VERSION,
          timestamp: ZonedDateTime.ofInstant(deps.clock.now(), deps.clock.zone).toOffsetDateTime().toString(),
        }
        if (isDatabaseReadable(deps)) {
          return { status: 200, body: { success: true, status: 'ok', ...common, database: 'ok' } }
        }
        return {
          status: 503,
          body: {
            success: false,
            status: 'error',
            ...common,
            database: 'error',
            message: 'La base de datos no se puede leer.',
          },
        }
      },
    }),
  ]
}
