import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Validator } from '@seriousme/openapi-schema-validator'
import { withService } from '../support/service.ts'
import type { Route } from '../../src/http/route.ts'

type Operation = {
  operationId: string
  security: unknown[]
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>
  parameters?: Array<{ name: string; in: string; schema: unknown }>
}
type Document = { openapi: string; info: { version: string }; paths: Record<string, Record<string, Operation>> }

async function fetchDocument(): Promise<{ document: Document; routes: readonly Route[] }> {
  return withService({}, async (service) => {
    const response = await service.fetch('/api/v1/openapi.json')
    assert.equal(response.status, 200)
    return { document: (await response.json()) as Document, routes: service.routes }
  })
}

test('openapi: served without a key, a valid OpenAPI 3.1 document', async () => {
  const { document } = await fetchDocument()
  assert.equal(document.openapi, '3.1.0')
  const validator = new Validator()
  const result = await validator.validate(document as unknown as Parameters<Validator['validate']>[0])
  assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2))
})

test("openapi: Redocly's recommended rules on servers and license hold — a server (this same one) and the license named", async () => {
  const { document } = (await fetchDocument()) as unknown as {
    document: {
      servers?: Array<{ url: string }>
      info: { license?: { name?: string; identifier?: string; url?: string } }
    }
  }
  assert.deepEqual(
    document.servers?.map((server) => server.url),
    ['/'],
    'no-empty-servers: the paths are relative to the server that served the document',
  )
  const license = document.info.license
  assert.ok(license?.name, 'info-license')
  assert.ok(
    license.identifier !== undefined || license.url !== undefined,
    'info-license-strict: an SPDX identifier or a URL',
  )
  assert.match(license.identifier ?? '', /^LicenseRef-[A-Za-z0-9.-]+$/, 'a valid SPDX reference')
})

test('openapi: exactly one path entry per registered route, with its method', async () => {
  const { document, routes } = await fetchDocument()
  const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
  )
  const registered = routes.map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`)
  assert.deepEqual(documented.sort(), registered.sort())
  assert.ok(registered.includes('GET /api/v1/openapi.json'), 'the document describes itself')
})

test('openapi: schemas come from the routes (path pattern, answers, security)', async () => {
  const { document } = await fetchDocument()
  const status = document.paths['/api/v1/manifiestos/{numero}/estado']!.get!
  assert.deepEqual(status.security, [{ ApiKey: [] }])
  assert.deepEqual(status.parameters?.[0], {
    name: 'numero',
    in: 'path',
    required: true,
    description: 'NumeroManifiesto, solo dígitos',
    schema: { type: 'string', pattern: '^[0-9]+$', description: 'NumeroManifiesto, solo dígitos' },
  })
  assert.deepEqual(Object.keys(status.responses).sort(), ['200', '401', '404', '422', '429', '500', '503'])
  const ok = status.responses['200']!.content!['application/json']!.schema as { properties: Record<string, unknown> }
  assert.deepEqual(Object.keys(ok.properties), ['success', 'manifiesto', 'estado', 'resumen'])
  const ping = document.paths['/api/v1/ping']!.get!
  assert.deepEqual(ping.security, [])
  assert.deepEqual(Object.keys(ping.responses).sort(), ['200', '401', '422', '429', '500', '503'])
})

test('openapi: the intake route documents its request body and every answer', async () => {
  const { document } = await fetchDocument()
  const insert = document.paths['/api/v1/facturas/insertar']!.post! as Operation & {
    requestBody: {
      content: Record<string, { schema: { type: string; minItems: number; items: { required: string[] } } }>
    }
  }
  const schema = insert.requestBody.content['application/json']!.schema
  assert.equal(schema.type, 'array')
  assert.equal(schema.minItems, 1)
  assert.deepEqual(schema.items.required, [
    'Nfactura',
    'NumeroManifiesto',
    'FechaFactura',
    'Almacen',
    'Vendedorid',
    'Clienteid',
    'Cliente',
    'Total',
    'LineasFactura',
  ])
  assert.deepEqual(Object.keys(insert.responses).sort(), [
    '200',
    '401',
    '408',
    '413',
    '415',
    '422',
    '429',
    '500',
    '503',
  ])
  type Shape = { properties: Record<string, { const?: string; anyOf?: Array<{ const: string }> }> }
  const rejections = insert.responses['422']!.content!['application/json']!.schema as { anyOf: Shape[] }
  const motivos = rejections.anyOf.map((shape) => {
    const motivo = shape.properties.motivo
    if (motivo === undefined) return shape.properties.errores ? 'estructura' : 'cuerpo'
    return motivo.const ?? motivo.anyOf!.map((option) => option.const).join('|')
  })
  assert.deepEqual(motivos, [
    'cuerpo',
    'estructura',
    'FECHAS_INVALIDAS',
    'FECHAS_INVALIDAS',
    'MANIFIESTOS_FECHA_INVALIDA',
    'MANIFIESTOS_FECHA_INVALIDA',
    'ALMACENES_DESCONOCIDOS|MANIFIESTO_CERRADO|FACTURAS_DUPLICADAS_EN_OTRO_MANIFIESTO|FACTURAS_DUPLICADAS_EXACTAS|FACTURAS_YA_EXISTENTES|MOTIVOS_MIXTOS',
  ])
  // Each contract's label for the valid manifests of a refused batch: v1 details them, v2 lists their numbers.
  const labels = rejections.anyOf
    .slice(2, 6)
    .map((shape) =>
      Object.keys(shape.properties).filter((key) => key.startsWith('manifiestos') && key !== 'manifiestos_rechazados'),
    )
  assert.deepEqual(labels, [['manifiestos_validos'], ['manifiestos'], ['manifiestos_no_afectados'], ['manifiestos']])
})

test('openapi: the returns listing documents its Fecha and FechaHasta headers, pagina and the returned fields', async () => {
  const { document } = await fetchDocument()
  const listing = document.paths['/api/v1/devoluciones/listar']!.get!
  assert.deepEqual(
    listing.parameters?.map(
      (parameter) =>
        `${parameter.in}:${parameter.name}:${(parameter as { required?: boolean }).required === true ? 'required' : 'optional'}`,
    ),
    ['query:pagina:optional', 'header:Fecha:required', 'header:FechaHasta:optional'],
  )
  const items = (
    listing.responses['200']!.content!['application/json']!.schema as { items: { properties: Record<string, unknown> } }
  ).items
  assert.deepEqual(Object.keys(items.properties), [
    'devolucion',
    'factura',
    'clienteid',
    'cliente',
    'fecha',
    'total',
    'almacen',
    'idConcepto',
    'concepto',
    'numeroManifiesto',
    'fechaProcesado',
    'horaProcesado',
    'lineasDevolucion',
  ])
  const operatorRoute = document.paths['/api/v1/operador/devoluciones']!.post!
  assert.deepEqual(
    operatorRoute.security,
    [{ Sesion: [] }, { OperatorKey: [] }],
    'a person with a session, or an integration with the key',
  )
})

test('openapi: every operation has its own operationId (client generators name methods by it)', async () => {
  const { document } = await fetchDocument()
  const ids = Object.values(document.paths).flatMap((methods) =>
    Object.values(methods).map((operation) => operation.operationId),
  )
  assert.equal(ids.length, new Set(ids).size, `repeated: ${ids.filter((id, i) => ids.indexOf(id) !== i).join(', ')}`)
  assert.ok(ids.every((id) => /^[a-z][A-Za-z]+$/.test(id)))
})
