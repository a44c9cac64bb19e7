import assert from 'node:assert/strict'
import { renameSync } from 'node:fs'
import { test } from 'node:test'
import { exampleBatch, postBatch } from '../support/batches.ts'
import { OPERATOR_KEY, withService, type TestService } from '../support/service.ts'

function requestLines(service: TestService): Array<Record<string, unknown>> {
  return service.logLines().filter((line) => line.msg === 'request')
}

/** Request lines are written when the answer closes: wait for the one of this id. */
async function lineOf(service: TestService, requestId: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 100; i++) {
    const line = requestLines(service).find((entry) => entry.request_id === requestId)
    if (line) return line
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error(`no request line for ${requestId}`)
}

const given: Array<{ name: string; header?: string; kept: boolean }> = [
  { name: 'no X-Request-Id → a new one, 16 hex digits', kept: false },
  { name: "a proxy's sane X-Request-Id is kept", header: 'proxy-7f3a.91:c2_x', kept: true },
  { name: 'an X-Request-Id with spaces is replaced', header: 'uno dos', kept: false },
  { name: 'an X-Request-Id of 65 characters is replaced', header: 'a'.repeat(65), kept: false },
]

for (const row of given) {
  test(`request id: ${row.name}; the answer echoes it and the request's log line carries it with a Honduras time`, () =>
    withService({}, async (service) => {
      const response = await service.fetch(
        '/api/v1/ping',
        row.header === undefined ? {} : { headers: { 'X-Request-Id': row.header } },
      )
      assert.equal(response.status, 200)
      const id = response.headers.get('x-request-id')!
      if (row.kept) assert.equal(id, row.header)
      else assert.match(id, /^[0-9a-f]{16}$/)
      const line = await lineOf(service, id)
      assert.deepEqual(
        { ...line, ms: typeof line.ms },
        {
          level: 'info',
          time: '2026-11-22T10:00:00.000-06:00',
          service: 'manifiesto',
          request_id: id,
          ip: '127.0.0.1',
          method: 'GET',
          path: '/api/v1/ping',
          status: 200,
          ms: 'number',
          msg: 'request',
        },
      )
    }))
}

test('request id: every request gets its own', () =>
  withService({}, async (service) => {
    const ids = await Promise.all(
      [1, 2, 3].map(async () => (await service.fetch('/api/v1/ping')).headers.get('x-request-id')),
    )
    assert.equal(new Set(ids).size, 3)
  }))

test('request id: an internal error logged during a request carries the request id, as does its request line', () =>
  withService({}, async (service) => {
    renameSync(service.config.database.path, `${service.config.database.path}.movido`)
    const response = await service.fetch('/api/v1/operador/conceptos', {
      method: 'POST',
      headers: { OperatorKey: OPERATOR_KEY, Operador: 'Ana', 'Content-Type': 'application/json' },
      body: JSON.stringify({ codigo: 'X', descripcion: 'x' }),
    })
    renameSync(`${service.config.database.path}.movido`, service.config.database.path)
    assert.equal(response.status, 503)
    const id = response.headers.get('x-request-id')!
    await lineOf(service, id)
    assert.deepEqual(
      service
        .logLines()
        .filter((line) => line.request_id === id)
        .map((line) => [line.level, line.msg]),
      [
        ['error', 'base de datos inutilizable: escritura rechazada'],
        ['info', 'request'],
      ],
    )
  }))

test('batch uuid: the uuid logged is the one answered — a resent duplicate is logged under the original, a batch refused before it was recorded under none', () =>
  withService({}, async (service) => {
    const first = await postBatch(service, exampleBatch())
    const again = await postBatch(service, exampleBatch())
    const refused = await postBatch(service, { no: 'es un arreglo' })
    assert.deepEqual([first.status, again.status, refused.status], [200, 200, 422])
    assert.equal(again.body.batch_uuid, first.body.batch_uuid)
    for (let i = 0; i < 100 && requestLines(service).length < 3; i++)
      await new Promise((resolve) => setTimeout(resolve, 10))
    assert.deepEqual(
      requestLines(service).map((line) => [line.status, line.batch_uuid]),
      [
        [200, first.body.batch_uuid],
        [200, first.body.batch_uuid],
        [422, undefined],
      ],
    )
  }))
