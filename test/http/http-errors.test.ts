import assert from 'node:assert/strict'
import { test } from 'node:test'
import { refusal, testScenarios } from '../support/scenarios.ts'
import { withService } from '../support/service.ts'
import { rawRequest } from '../support/raw-request.ts'

const JSON_TYPE = /^application\/json/

testScenarios('http', [
  {
    name: 'unknown path → 404 JSON',
    request: { path: '/api/v1/no-existe' },
    status: 404,
    headers: { 'content-type': JSON_TYPE },
    body: refusal('No existe la ruta GET /api/v1/no-existe.'),
  },
  // `/` sends a browser to the console (test/console/static.test.ts); other unknown paths stay JSON.
  {
    name: 'unknown path outside the API and the console → 404 JSON',
    request: { path: '/nada' },
    status: 404,
    headers: { 'content-type': JSON_TYPE },
    body: refusal('No existe la ruta GET /nada.'),
  },
  {
    name: 'unknown path with a key → still 404',
    request: { method: 'DELETE', path: '/api/v2/ping', as: 'client' },
    status: 404,
    headers: { 'content-type': JSON_TYPE },
    body: refusal('No existe la ruta DELETE /api/v2/ping.'),
  },
  {
    name: 'malformed percent-encoding → 404',
    request: { path: '/api/v1/manifiestos/%E0%A4%A/estado' },
    status: 404,
    headers: { 'content-type': JSON_TYPE },
    body: refusal('No existe la ruta GET /api/v1/manifiestos/%E0%A4%A/estado.'),
  },
  {
    name: 'wrong method on ping → 405 with Allow',
    request: { method: 'POST', path: '/api/v1/ping' },
    status: 405,
    headers: { 'content-type': JSON_TYPE, allow: 'GET' },
    body: refusal('El método POST no está permitido en /api/v1/ping; use GET.'),
  },
  {
    name: 'wrong method without a key on a protected path → 405, not 401',
    request: { method: 'DELETE', path: '/api/v1/manifiestos/1/estado' },
    status: 405,
    headers: { 'content-type': JSON_TYPE, allow: 'GET' },
    body: refusal('El método DELETE no está permitido en /api/v1/manifiestos/1/estado; use GET.'),
  },
])

test('http: a body declared over server.maxBodyMB → 413 JSON before it is read, connection closed', () =>
  withService({ config: { server: { maxBodyMB: 1 } } }, async (service) => {
    const response = await rawRequest(`${service.url}/api/v1/ping`, {
      headers: { 'Content-Length': String(2 * 1024 * 1024), 'Content-Type': 'application/json' },
      body: '[',
    })
    assert.equal(response.status, 413)
    assert.equal(response.headers.connection, 'close')
    assert.deepEqual(JSON.parse(response.body), {
      success: false,
      message: 'El cuerpo de la solicitud (2 MB) excede el máximo permitido de 1 MB.',
    })
  }))

test('http: a body within server.maxBodyMB is not refused', () =>
  withService({ config: { server: { maxBodyMB: 1 } } }, async (service) => {
    const response = await service.fetch('/api/v1/ping', { method: 'GET' })
    assert.equal(response.status, 200)
    const small = await rawRequest(`${service.url}/api/v1/ping`, {
      headers: { 'Content-Length': '1024' },
      body: 'x'.repeat(1024),
    })
    assert.equal(small.status, 200)
  }))

test('http: one JSON log line per request with time, ip, method, path, status and ms', () =>
  withService({}, async (service) => {
    await service.fetch('/api/v1/ping?x=1')
    await service.client('/api/v1/manifiestos/77/estado')
    for (let i = 0; i < 50 && service.logLines().length < 2; i++) await new Promise((r) => setTimeout(r, 10))
    const lines = service.logLines().filter((line) => line.msg === 'request')
    assert.equal(lines.length, 2)
    const [ping, status] = lines
    // The injected clock's time, in Honduras with its offset (issue 14), like every time a person reads.
    assert.equal(ping!.time, '2026-11-22T10:00:00.000-06:00')
    assert.deepEqual(
      { ip: ping!.ip, method: ping!.method, path: ping!.path, status: ping!.status, ms: typeof ping!.ms },
      { ip: '127.0.0.1', method: 'GET', path: '/api/v1/ping', status: 200, ms: 'number' },
    )
    assert.equal(status!.status, 404)
    assert.equal(status!.path, '/api/v1/manifiestos/77/estado')
  }))

test('http: an unexpected failure → 500 with a generic Spanish message, logged with its stack, never echoed', () =>
  withService({}, async (service) => {
    service.db.sqlite.exec('DROP TABLE invoices') // the status query can no longer run
    const response = await service.client('/api/v1/manifiestos/1/estado')
    assert.equal(response.status, 500)
    const body = (await response.json()) as { success: boolean; message: string }
    assert.equal(body.success, false)
    assert.match(body.message, /^Error interno del servidor/)
    assert.doesNotMatch(body.message, /invoices/)
    const logged = service.logLines().find((line) => line.msg === 'error interno') as
      { err?: { stack?: string }; path?: string } | undefined
    assert.ok(logged, 'the failure is logged')
    assert.match(logged.err?.stack ?? '', /no such table: invoices/)
    assert.equal(logged.path, '/api/v1/manifiestos/1/estado')
  }))
