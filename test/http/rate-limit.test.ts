import assert from 'node:assert/strict'
import { test } from 'node:test'
import { API_KEY, withService, type TestService } from '../support/service.ts'
import { rawRequest } from '../support/raw-request.ts'

const INSERT = '/api/v1/facturas/insertar'

async function post(service: TestService, path: string, headers: Record<string, string> = {}) {
  return service.fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: '[]',
  })
}

async function exhaustInsert(service: TestService): Promise<number[]> {
  const statuses: number[] = []
  for (let i = 0; i < 5; i++) statuses.push((await post(service, INSERT, { ApiKey: API_KEY })).status)
  return statuses
}

test('rate limit: the 6th insert call in a minute → 429 with Retry-After, RateLimit-* and a Spanish body', () =>
  withService({}, async (service) => {
    const first = await post(service, INSERT, { ApiKey: API_KEY })
    assert.notEqual(first.status, 429)
    assert.equal(first.headers.get('ratelimit-limit'), '5')
    assert.equal(first.headers.get('ratelimit-remaining'), '4')
    assert.equal(first.headers.get('ratelimit-reset'), '60')
    for (let i = 0; i < 4; i++) assert.notEqual((await post(service, INSERT, { ApiKey: API_KEY })).status, 429)

    service.clock.advance(20_000)
    const sixth = await post(service, INSERT, { ApiKey: API_KEY })
    assert.equal(sixth.status, 429)
    assert.equal(sixth.headers.get('retry-after'), '40')
    assert.equal(sixth.headers.get('ratelimit-remaining'), '0')
    assert.equal(sixth.headers.get('ratelimit-reset'), '40')
    assert.deepEqual(await sixth.json(), {
      success: false,
      message: 'Demasiadas solicitudes: el límite es 5 por minuto. Intente de nuevo en 40 segundos.',
    })
  }))

test('rate limit: the limit applies before authentication (a keyless flood gets 429, not 401)', () =>
  withService({ config: { rateLimits: { generalPerMinute: 2 } } }, async (service) => {
    const statuses = []
    for (let i = 0; i < 3; i++) statuses.push((await service.fetch('/api/v1/manifiestos/1/estado')).status)
    assert.deepEqual(statuses, [401, 401, 429])
  }))

test('rate limit: groups are counted separately', () =>
  withService({}, async (service) => {
    await exhaustInsert(service)
    assert.equal((await post(service, INSERT)).status, 429)
    assert.equal((await service.fetch('/api/v1/ping')).status, 200, 'general group unaffected')
    assert.notEqual((await service.client('/api/v1/devoluciones/listar')).status, 429, 'returns group unaffected')
    assert.notEqual((await post(service, '/api/v1/operador/manifiestos')).status, 429, 'operator group unaffected')
  }))

test('rate limit: unknown paths count in the general group', () =>
  withService({ config: { rateLimits: { generalPerMinute: 3 } } }, async (service) => {
    await service.fetch('/api/v1/nada')
    await service.fetch('/otra/cosa')
    assert.equal((await service.fetch('/api/v1/ping')).status, 200)
    const limited = await service.fetch('/api/v1/ping')
    assert.equal(limited.status, 429)
    assert.equal(limited.headers.get('ratelimit-limit'), '3')
  }))

test('rate limit: client IPs are counted separately', () =>
  withService({ config: { server: { host: '0.0.0.0' } } }, async (service) => {
    const port = new URL(service.url).port
    const from = (localAddress: string) =>
      rawRequest(`http://127.0.0.1:${port}${INSERT}`, { method: 'POST', localAddress, headers: { ApiKey: API_KEY } })
    for (let i = 0; i < 5; i++) assert.notEqual((await from('127.0.0.2')).status, 429)
    assert.equal((await from('127.0.0.2')).status, 429)
    assert.notEqual((await from('127.0.0.3')).status, 429, 'another IP has its own window')
    const ips = new Set(service.logLines().map((line) => line.ip))
    assert.deepEqual([...ips].sort(), ['127.0.0.2', '127.0.0.3'])
  }))

test('rate limit: the window recovers after a minute', () =>
  withService({}, async (service) => {
    await exhaustInsert(service)
    service.clock.advance(59_999)
    const still = await post(service, INSERT)
    assert.equal(still.status, 429)
    assert.equal(still.headers.get('retry-after'), '1')
    service.clock.advance(1)
    const again = await post(service, INSERT)
    assert.notEqual(again.status, 429)
    assert.equal(again.headers.get('ratelimit-remaining'), '4')
  }))

test('rate limit: without trustProxy X-Forwarded-For is ignored', () =>
  withService({}, async (service) => {
    for (let i = 0; i < 5; i++) await post(service, INSERT, { 'X-Forwarded-For': `192.0.2.${i}` })
    assert.equal((await post(service, INSERT, { 'X-Forwarded-For': '192.0.2.99' })).status, 429)
  }))
