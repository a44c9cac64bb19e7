import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { test } from 'node:test'
import { createAccount, logIn, PASSWORD, sessionOf } from '../support/accounts.ts'
import { rawRequest } from '../support/raw-request.ts'
import type { ConfigFile } from '../../src/config/config.ts'
import { API_KEY, withService, type TestService } from '../support/service.ts'

type TrustProxy = ConfigFile['server']['trustProxy']

/** The `ip` of the request's log line (written when the answer is complete, so waited for a moment). */
async function loggedIp(service: TestService, requestId: string): Promise<unknown> {
  for (let i = 0; i < 50; i++) {
    const line = service.logLines().find((entry) => entry.request_id === requestId)
    if (line) return line.ip
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error(`no log line for ${requestId}`)
}

const addresses: Array<{ name: string; trustProxy: TrustProxy; forwardedFor?: string | string[]; ip: string }> = [
  {
    name: 'no proxies (0): the header is ignored, the socket is the client',
    trustProxy: 0,
    forwardedFor: '6.6.6.6, 10.0.0.7',
    ip: '127.0.0.1',
  },
  {
    name: 'false, as the first release wrote it, is 0',
    trustProxy: false,
    forwardedFor: '6.6.6.6, 10.0.0.7',
    ip: '127.0.0.1',
  },
  { name: 'one proxy with no X-Forwarded-For: the socket', trustProxy: 1, ip: '127.0.0.1' },
  {
    name: 'one proxy: a forged left-most entry is not the client, the entry the proxy appended is',
    trustProxy: 1,
    forwardedFor: '6.6.6.6, 10.0.0.7',
    ip: '10.0.0.7',
  },
  {
    name: 'true, as the first release wrote it, is one proxy',
    trustProxy: true,
    forwardedFor: '6.6.6.6, 10.0.0.7',
    ip: '10.0.0.7',
  },
  {
    name: 'two proxies: the second entry from the right',
    trustProxy: 2,
    forwardedFor: '6.6.6.6, 10.0.0.7, 10.0.0.8',
    ip: '10.0.0.7',
  },
  {
    name: 'two proxies, one entry (the outer proxy added none): the left-most',
    trustProxy: 2,
    forwardedFor: '10.0.0.7',
    ip: '10.0.0.7',
  },
  {
    name: 'one proxy, the header sent twice: joined in order',
    trustProxy: 1,
    forwardedFor: ['6.6.6.6', '10.0.0.7'],
    ip: '10.0.0.7',
  },
  {
    name: 'an IPv4 address written as IPv6 (::ffff:) is the IPv4 address',
    trustProxy: 1,
    forwardedFor: '6.6.6.6, ::ffff:10.0.0.9',
    ip: '10.0.0.9',
  },
  {
    name: 'a port after the address is dropped',
    trustProxy: 1,
    forwardedFor: '6.6.6.6, 10.0.0.7:4711',
    ip: '10.0.0.7',
  },
  {
    name: 'an IPv6 address in brackets with a port',
    trustProxy: 1,
    forwardedFor: '6.6.6.6, [2001:DB8::1]:443',
    ip: '2001:db8::1',
  },
  {
    name: 'one proxy, its entry no address (the client sent a trailing comma): never an entry to its left, the socket',
    trustProxy: 1,
    forwardedFor: '6.6.6.6, ',
    ip: '127.0.0.1',
  },
  {
    name: 'one proxy, its entry garbage: the socket',
    trustProxy: 1,
    forwardedFor: '6.6.6.6, desconocido',
    ip: '127.0.0.1',
  },
  {
    name: 'two proxies, the outer one’s entry garbage: the nearest valid entry to its right',
    trustProxy: 2,
    forwardedFor: '6.6.6.6, basura, 10.0.0.8',
    ip: '10.0.0.8',
  },
]

for (const scenario of addresses) {
  test(`trustProxy: ${scenario.name} → ${scenario.ip} in the log line`, () =>
    withService({ config: { server: { trustProxy: scenario.trustProxy } } }, async (service) => {
      const requestId = randomUUID()
      const headers: Record<string, string | string[]> = { 'X-Request-Id': requestId }
      if (scenario.forwardedFor !== undefined) headers['X-Forwarded-For'] = scenario.forwardedFor
      const answer = await rawRequest(`${service.url}/api/v1/ping`, { headers })
      assert.equal(answer.status, 200)
      assert.equal(await loggedIp(service, requestId), scenario.ip)
    }))
}

test('trustProxy: 1 — the rate limit counts the address the proxy appended, not a forged left-most one', () =>
  withService({ config: { server: { trustProxy: 1 } } }, async (service) => {
    const insert = (forwardedFor: string) =>
      service.fetch('/api/v1/facturas/insertar', {
        method: 'POST',
        headers: { ApiKey: API_KEY, 'Content-Type': 'application/json', 'X-Forwarded-For': forwardedFor },
        body: '[]',
      })
    // The client changes its forged entry at every request; its proxy-appended address stays.
    for (let i = 0; i < 5; i++) assert.notEqual((await insert(`6.6.6.${i}, 10.0.0.7`)).status, 429)
    assert.equal((await insert('6.6.6.99, 10.0.0.7')).status, 429)
    assert.notEqual(
      (await insert('6.6.6.99, 10.0.0.8')).status,
      429,
      'another client behind the proxy has its own window',
    )
  }))

test('trustProxy: 1 — a failed login is audited with the address the proxy appended', () =>
  withService({ config: { server: { trustProxy: 1 } } }, async (service) => {
    await createAccount(service, 'ana', 'operador')
    assert.equal(
      (await logIn(service, 'ana', 'no-es-la-clave', { 'X-Forwarded-For': '6.6.6.6, 10.0.0.7' })).status,
      401,
    )
    assert.equal((await logIn(service, 'ana', PASSWORD, { 'X-Forwarded-For': '6.6.6.6, 10.0.0.8' })).status, 200)
    const details = service.db.sqlite
      .prepare("SELECT action, detail FROM audit_log WHERE action LIKE 'sesion.%' ORDER BY id")
      .all() as Array<{ action: string; detail: string }>
    assert.deepEqual(
      details.map((row) => [row.action, (JSON.parse(row.detail) as { ip: string }).ip]),
      [
        ['sesion.fallida', '10.0.0.7'],
        ['sesion.iniciada', '10.0.0.8'],
      ],
    )
    assert.deepEqual(service.db.sqlite.prepare('SELECT ip FROM sessions').pluck().all(), ['10.0.0.8'])
  }))

const cookies: Array<{ name: string; trustProxy: TrustProxy; forwardedProto?: string; secure: boolean }> = [
  {
    name: 'no proxies trusted: X-Forwarded-Proto is not believed',
    trustProxy: 0,
    forwardedProto: 'https',
    secure: false,
  },
  { name: 'one proxy, no X-Forwarded-Proto: the service’s own HTTP', trustProxy: 1, secure: false },
  { name: 'one proxy that says https', trustProxy: 1, forwardedProto: 'https', secure: true },
  { name: 'true (one proxy) that says https', trustProxy: true, forwardedProto: 'https', secure: true },
  { name: 'one proxy that says HTTPS in capitals', trustProxy: 1, forwardedProto: 'HTTPS', secure: true },
  {
    name: 'the nearest proxy says http after a client-sent https',
    trustProxy: 1,
    forwardedProto: 'https, http',
    secure: false,
  },
  { name: 'two proxies, the nearest appending https', trustProxy: 2, forwardedProto: 'http, https', secure: true },
]

for (const scenario of cookies) {
  test(`trustProxy: ${scenario.name} → the session cookie is ${scenario.secure ? '' : 'not '}Secure, at login and at logout`, () =>
    withService({ config: { server: { trustProxy: scenario.trustProxy } } }, async (service) => {
      await createAccount(service, 'ana', 'operador')
      const proto: Record<string, string> =
        scenario.forwardedProto === undefined ? {} : { 'X-Forwarded-Proto': scenario.forwardedProto }
      const login = await logIn(service, 'ana', PASSWORD, proto)
      assert.equal(login.status, 200)
      assert.equal(/; Secure(;|$)/.test(login.setCookie ?? ''), scenario.secure, login.setCookie ?? '')
      const logout = await service.fetch('/api/v1/sesion', {
        method: 'DELETE',
        headers: { Cookie: login.cookie ?? '', 'Sec-Fetch-Site': 'same-origin', ...proto },
      })
      assert.equal(logout.status, 204)
      assert.equal(/; Secure(;|$)/.test(logout.headers.get('set-cookie') ?? ''), scenario.secure)
    }))
}

const origins: Array<{
  name: string
  trustProxy: TrustProxy
  headers: Record<string, string>
  origin: string | 'own'
  status: number
}> = [
  {
    name: 'no proxies trusted: the forwarded origin is not this service’s',
    trustProxy: 0,
    headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'consola.example' },
    origin: 'https://consola.example',
    status: 403,
  },
  {
    name: 'one proxy, its forwarded host but the nearest proto says http',
    trustProxy: 1,
    headers: { 'X-Forwarded-Proto': 'https, http', 'X-Forwarded-Host': 'consola.example' },
    origin: 'https://consola.example',
    status: 403,
  },
  {
    name: 'one proxy, the Origin’s host only in a client-sent entry ahead of the proxy’s',
    trustProxy: 1,
    headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'consola.example, malicioso.example' },
    origin: 'https://consola.example',
    status: 403,
  },
  {
    name: 'one proxy, the Origin the proxy forwards (https, its host)',
    trustProxy: 1,
    headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'consola.example' },
    origin: 'https://consola.example',
    status: 201,
  },
  {
    name: 'one proxy, the proxy’s host appended after a client-sent one',
    trustProxy: 1,
    headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'malicioso.example, consola.example' },
    origin: 'https://consola.example',
    status: 201,
  },
  {
    name: 'one proxy that forwards no proto or host: the service’s own origin',
    trustProxy: 1,
    headers: {},
    origin: 'own',
    status: 201,
  },
]

for (const scenario of origins) {
  test(`trustProxy: CSRF — ${scenario.name} → ${scenario.status}`, () =>
    withService({ config: { server: { trustProxy: scenario.trustProxy } } }, async (service) => {
      await createAccount(service, 'sup', 'supervisor')
      const cookie = await sessionOf(service, 'sup')
      const response = await service.fetch('/api/v1/operador/conceptos', {
        method: 'POST',
        headers: {
          Cookie: cookie,
          'Content-Type': 'application/json',
          Origin: scenario.origin === 'own' ? service.url : scenario.origin,
          ...scenario.headers,
        },
        body: JSON.stringify({ codigo: 'DANADO', descripcion: 'Producto dañado' }),
      })
      assert.equal(response.status, scenario.status)
      assert.equal(
        service.db.sqlite.prepare('SELECT count(*) FROM return_reasons').pluck().get(),
        scenario.status === 201 ? 1 : 0,
      )
    }))
}
