import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { TSchema } from 'typebox'
import { Compile } from 'typebox/compile'
import { documentedAnswers } from '../../src/http/schemas.ts'
import type { Examples } from '../../src/http/route.ts'
import { INSERT_200, SAMPLE_BATCH, simulatedExamples } from '../../src/intake/intake.examples.ts'
import { withService, type TestService } from '../support/service.ts'

/** The API reference's examples (issue 17): each fits its schema, and the main ones are the service's real answers. */

const routes = await withService({}, async (service) => service.routes)

for (const route of routes) {
  const examples: Array<[string, Examples, TSchema]> = []
  if (route.body?.examples) examples.push(['request', route.body.examples, route.body.schema])
  for (const [status, spec] of Object.entries(documentedAnswers(route)))
    if (spec.examples && spec.schema) examples.push([status, spec.examples, spec.schema])
  if (examples.length === 0) continue
  test(`examples: ${route.method} ${route.path} — every example fits the schema of its status`, () => {
    for (const [status, named, schema] of examples) {
      const validator = Compile(schema)
      for (const [name, example] of Object.entries(named))
        assert.ok(validator.Check(example.value), `${status} ${name} does not fit its schema`)
    }
  })
}

const ROUTES_WITH_EXAMPLES = [
  '/api/v1/ping',
  '/api/v1/facturas/insertar',
  '/api/v1/facturas/validar',
  '/api/v1/manifiestos/:numero/estado',
  '/api/v1/devoluciones/listar',
]

test('examples: every client endpoint has an example answer for every status it documents', () => {
  for (const path of ROUTES_WITH_EXAMPLES) {
    const route = routes.find((candidate) => candidate.path === path)!
    for (const [status, spec] of Object.entries(documentedAnswers(route)))
      assert.ok(spec.examples && Object.keys(spec.examples).length > 0, `${path} ${status} has no example`)
  }
})

const example = (examples: Examples, name: string) => examples[name]!.value as Record<string, unknown>

async function send(
  service: TestService,
  path: string,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await service.client(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

test('examples: the sample batch gives the documented answers of validar, insertar, the resend and the manifest status', () =>
  withService({ config: { rateLimits: { insertPerMinute: 100 } } }, async (service) => {
    const batch = SAMPLE_BATCH.lote!.value
    const simulated = await send(service, '/api/v1/facturas/validar', batch)
    assert.deepEqual(simulated, { status: 200, body: example(simulatedExamples(INSERT_200), 'procesado') })
    const inserted = await send(service, '/api/v1/facturas/insertar', batch)
    assert.deepEqual(inserted, {
      status: 200,
      body: { ...example(INSERT_200, 'procesado'), batch_uuid: inserted.body.batch_uuid },
    })
    const resent = await send(service, '/api/v1/facturas/insertar', batch)
    assert.deepEqual(resent, {
      status: 200,
      body: { ...example(INSERT_200, 'duplicado'), batch_uuid: inserted.body.batch_uuid },
    })
    const statusRoute = routes.find((route) => route.path === '/api/v1/manifiestos/:numero/estado')!
    const known = await service.client('/api/v1/manifiestos/905112/estado')
    assert.deepEqual(await known.json(), example(statusRoute.responses[200]!.examples!, 'importado'))
    const unknown = await service.client('/api/v1/manifiestos/999/estado')
    assert.equal(unknown.status, 404)
    assert.deepEqual(await unknown.json(), example(statusRoute.responses[404]!.examples!, 'desconocido'))
    const ping = await service.fetch('/api/v1/ping')
    assert.deepEqual(
      await ping.json(),
      example(routes.find((route) => route.path === '/api/v1/ping')!.responses[200]!.examples!, 'ok'),
    )
  }))
