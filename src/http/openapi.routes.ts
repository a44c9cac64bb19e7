import Type from 'typebox'
import { defineRoute, type Route } from './route.ts'

/**
 * `GET /api/v1/openapi.json`: the document is built once, on first request, from the final list
 * of routes (this one included).
 */
export function openApiRoutes(buildDocument: () => Record<string, unknown>): Route[] {
  let json: string | undefined
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/openapi.json',
      access: 'public',
      operationId: 'obtenerDocumentoOpenApi',
      rateGroup: 'general',
      tag: 'cliente: documentación',
      summary: 'Documento OpenAPI 3.1 de esta API',
      responses: {
        200: { description: 'Documento OpenAPI 3.1', schema: Type.Object({ openapi: Type.Literal('3.1.0') }) },
      },
      handle: () => {
        json ??= JSON.stringify(buildDocument())
        return { status: 200, json }
      },
    }),
  ]
}
