import Type, { type TSchema } from 'typebox'
import type { Examples, Route } from './route.ts'
import type { RateGroup } from './rate-limit.ts'
import { documentedAnswers } from './schemas.ts'

export interface OpenApiInfo {
  version: string
  rateLimits: Record<RateGroup, number>
}

/**
 * The OpenAPI 3.1 document of the API, generated from the routes' own TypeBox schemas (the same
 * objects that validate requests), so the document cannot drift from the service.
 */
export function buildOpenApiDocument(routes: readonly Route[], info: OpenApiInfo): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {}
  // The client's API first, then the warehouse's: the reference shows paths in this order.
  for (const route of [...routes.filter(isClientSide), ...routes.filter((route) => !isClientSide(route))]) {
    const path = route.path.replace(/:([A-Za-z_]\w*)/g, '{$1}')
    paths[path] ??= {}
    paths[path][route.method.toLowerCase()] = describeOperation(route, info)
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'manifiesto',
      version: info.version,
      description:
        'Recepción de facturas del proveedor y listado de devoluciones. Fechas y horas en hora de Honduras ' +
        '(America/Tegucigalpa). La API del cliente (/api/v1/facturas, /devoluciones/listar, /manifiestos) requiere el ' +
        'encabezado ApiKey. La del almacén (/api/v1/operador/) acepta la sesión de una persona (cookie manifiesto_sesion, ' +
        'de POST /api/v1/sesion; su rol y sus almacenes deciden qué puede hacer) o, para integraciones, el encabezado ' +
        'OperatorKey más Operador (el nombre de quien hace el cambio).',
      // Not free software: the distributor's own service (package.json says UNLICENSED); an SPDX reference of its own.
      license: {
        name: 'Uso interno de la distribuidora (no es software libre)',
        identifier: 'LicenseRef-manifiesto-uso-interno',
      },
    },
    // The service answers at whatever address it is reached by (its host and port are configured per
    // installation): the document's paths are taken from the same server that served it.
    servers: [{ url: '/', description: 'este mismo servicio (la dirección desde la que se leyó este documento)' }],
    tags: tagsOf(routes),
    paths,
    components: {
      securitySchemes: {
        ApiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'ApiKey',
          description: 'La clave del sistema del proveedor (API del cliente)',
        },
        OperatorKey: {
          type: 'apiKey',
          in: 'header',
          name: 'OperatorKey',
          description:
            'Clave de integraciones del almacén: actúa como supervisor de todos los almacenes; los cambios llevan el encabezado Operador',
        },
        Sesion: {
          type: 'apiKey',
          in: 'cookie',
          name: 'manifiesto_sesion',
          description:
            'Sesión de una persona (POST /api/v1/sesion): su rol y sus almacenes deciden qué puede hacer; los cambios deben venir del mismo origen',
        },
      },
    },
  }
}

/** Who may call each kind of route, as OpenAPI security requirements (either one suffices). */
const SECURITY: Record<Route['access'], unknown[]> = {
  public: [],
  client: [{ ApiKey: [] }],
  operator: [{ Sesion: [] }, { OperatorKey: [] }],
  person: [{ Sesion: [] }],
}

function describeOperation(route: Route, info: OpenApiInfo): Record<string, unknown> {
  const group = route.rateGroup
  const limit = `Límite: ${info.rateLimits[group]} solicitudes por minuto por IP (grupo ${group}).`
  const operation: Record<string, unknown> = {
    operationId: route.operationId,
    summary: route.summary,
    description: [route.description, limit].filter(Boolean).join('\n\n'),
    tags: [route.tag],
    security: SECURITY[route.access],
    responses: describeResponses(route),
  }
  const parameters = [
    ...parametersOf(route.params, 'path'),
    ...parametersOf(route.query, 'query'),
    ...parametersOf(route.headers, 'header'),
  ]
  if (parameters.length > 0) operation.parameters = parameters
  if (route.body) {
    operation.requestBody = {
      required: true,
      description: route.body.description,
      content: route.body.file
        ? Object.fromEntries(
            route.body.file.mediaTypes.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
          )
        : { 'application/json': { schema: plain(route.body.schema), ...examplesOf(route.body.examples) } },
    }
  }
  return operation
}

function describeResponses(route: Route): Record<string, unknown> {
  const specs = documentedAnswers(route)
  const responses: Record<string, unknown> = {}
  for (const [status, spec] of Object.entries(specs)) {
    responses[status] = {
      description: spec.description,
      ...(spec.headers
        ? {
            headers: Object.fromEntries(
              Object.entries(spec.headers).map(([name, description]) => [
                name,
                { description, schema: { type: 'string' } },
              ]),
            ),
          }
        : {}),
      ...(spec.schema
        ? { content: { 'application/json': { schema: plain(spec.schema), ...examplesOf(spec.examples) } } }
        : {}),
      ...(spec.mediaTypes
        ? {
            content: Object.fromEntries(
              spec.mediaTypes.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
            ),
          }
        : {}),
    }
  }
  return responses
}

function examplesOf(examples: Examples | undefined): { examples?: Examples } {
  return examples === undefined || Object.keys(examples).length === 0 ? {} : { examples }
}

/**
 * The document's tags in two sections, the client's API first and then the warehouse's, so the
 * reference shows them apart; each tag once, in the order of the routes.
 */
function tagsOf(routes: readonly Route[]): Array<{ name: string; description: string }> {
  const ordered = [...routes.filter(isClientSide), ...routes.filter((route) => !isClientSide(route))]
  const tags = new Map<string, string>()
  for (const route of ordered) {
    if (tags.has(route.tag)) continue
    tags.set(route.tag, isClientSide(route) ? SECTION_DESCRIPTIONS.client : SECTION_DESCRIPTIONS.operator)
  }
  return [...tags].map(([name, description]) => ({ name, description }))
}

/** The client's API (tags «cliente: …»), as opposed to the warehouse's («operador: …»: operators, people, their login). */
function isClientSide(route: Route): boolean {
  return route.tag.startsWith('cliente: ')
}

const SECTION_DESCRIPTIONS = {
  client:
    'API del cliente: el sistema del proveedor, con el encabezado ApiKey (ping, la referencia y openapi.json no lo necesitan).',
  operator:
    'API del almacén (segunda sección): personas con sesión, o integraciones con los encabezados OperatorKey y Operador.',
}

function parametersOf(schema: TSchema | undefined, location: 'path' | 'query' | 'header'): unknown[] {
  if (schema === undefined || !Type.IsObject(schema)) return []
  const required = new Set<string>((schema.required as string[] | undefined) ?? [])
  return Object.entries(schema.properties as Record<string, TSchema>).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || required.has(name),
    ...(typeof (property as { description?: unknown }).description === 'string'
      ? { description: (property as { description: string }).description }
      : {}),
    schema: plain(property),
  }))
}

/**
 * A JSON copy: TypeBox schemas are JSON Schema already; this drops anything non-JSON and the
 * service's own `errorMessage` wording (the refusals carry it, the document does not need it).
 */
function plain(schema: TSchema): unknown {
  return JSON.parse(
    JSON.stringify(schema, (key, value: unknown) => (key === 'errorMessage' ? undefined : value)),
  ) as unknown
}
