import assert from 'node:assert/strict'
import { test } from 'node:test'
import { containing, refusal, testScenarios } from '../support/scenarios.ts'
import { API_KEY, OPERATOR_KEY, withService } from '../support/service.ts'
import { insertBatchRow, insertManifestRow } from '../support/fixtures.ts'

const STATUS = '/api/v1/manifiestos/905112/estado'
const ROTATED = { auth: { apiKey: ['clave-anterior-1111', 'clave-nueva-2222'] } }
const ANSWERED = containing({ success: true })

/** Each row asks for manifest 905112's status, stored first, or pings. */
const get = (path: string, headers: Record<string, string> = {}) => ({ path, headers })

// Ordered as STYLE.md asks: unauthenticated → invalid → not found → success.
testScenarios(
  'auth',
  [
    {
      name: 'no key configured on the server → 503',
      service: { config: { auth: { apiKey: '' } } },
      request: get(STATUS, { ApiKey: API_KEY }),
      status: 503,
      body: refusal(/no está configurado para recibir solicitudes/),
    },
    {
      name: 'no key configured and none sent → still 503',
      service: { config: { auth: { apiKey: [] } } },
      request: get(STATUS),
      status: 503,
      body: refusal(/no está configurado/),
    },
    {
      name: 'ApiKey header missing → 401 requerido',
      request: get(STATUS),
      status: 401,
      body: refusal(/^ApiKey requerido/),
    },
    {
      name: 'ApiKey header empty → 401 requerido',
      request: get(STATUS, { ApiKey: '' }),
      status: 401,
      body: refusal(/^ApiKey requerido/),
    },
    {
      name: 'wrong ApiKey → 401 inválido',
      request: get(STATUS, { ApiKey: 'otra-clave' }),
      status: 401,
      body: refusal(/^ApiKey inválido/),
    },
    {
      name: 'ApiKey in another case → 401 inválido (keys are exact)',
      request: get(STATUS, { ApiKey: API_KEY.toUpperCase() }),
      status: 401,
      body: refusal(/^ApiKey inválido/),
    },
    {
      name: 'operator key sent as ApiKey → 401 inválido',
      request: get(STATUS, { ApiKey: OPERATOR_KEY }),
      status: 401,
      body: refusal(/^ApiKey inválido/),
    },
    {
      name: 'prefix of the right key → 401 inválido',
      request: get(STATUS, { ApiKey: API_KEY.slice(0, -1) }),
      status: 401,
      body: refusal(/^ApiKey inválido/),
    },
    {
      name: 'right key in the query string → 401, key belongs in the header',
      request: get(`${STATUS}?ApiKey=${API_KEY}`, { ApiKey: API_KEY }),
      status: 401,
      body: refusal(/no debe enviarse en la URL/),
    },
    {
      name: 'lower-case apikey in the query string → 401',
      request: get(`${STATUS}?apikey=x`, { ApiKey: API_KEY }),
      status: 401,
      body: refusal(/no debe enviarse en la URL/),
    },
    {
      name: 'api_key in the query string → 401',
      request: get(`${STATUS}?api_key=x`, { ApiKey: API_KEY }),
      status: 401,
      body: refusal(/no debe enviarse en la URL/),
    },
    {
      name: 'key in the query string of ping → 401 too',
      request: get(`/api/v1/ping?ApiKey=${API_KEY}`),
      status: 401,
      body: refusal(/no debe enviarse en la URL/),
    },
    {
      name: 'rotation: a third key → 401',
      service: { config: ROTATED },
      request: get(STATUS, { ApiKey: API_KEY }),
      status: 401,
      body: refusal(/^ApiKey inválido/),
    },
    {
      name: 'key in the query string of an unknown path → just 404',
      request: get(`/api/v1/nada?ApiKey=${API_KEY}`),
      status: 404,
      body: refusal(/No existe la ruta/),
    },
    {
      name: 'unknown path without a key → 404 (routing first)',
      request: get('/api/v1/nada'),
      status: 404,
      body: refusal('No existe la ruta GET /api/v1/nada.'),
    },
    {
      name: 'rotation: the old key still works → 200',
      service: { config: ROTATED },
      request: get(STATUS, { ApiKey: 'clave-anterior-1111' }),
      status: 200,
      body: ANSWERED,
    },
    {
      name: 'rotation: the new key works → 200',
      service: { config: ROTATED },
      request: get(STATUS, { ApiKey: 'clave-nueva-2222' }),
      status: 200,
      body: ANSWERED,
    },
    { name: 'right ApiKey → 200', request: get(STATUS, { ApiKey: API_KEY }), status: 200, body: ANSWERED },
    { name: 'ping needs no key → 200', request: get('/api/v1/ping'), status: 200, body: ANSWERED },
    {
      name: 'ping with a wrong key causes no error → 200',
      request: get('/api/v1/ping', { ApiKey: 'cualquiera' }),
      status: 200,
      body: ANSWERED,
    },
    {
      name: 'ping works without any key configured → 200',
      service: { config: { auth: { apiKey: '' } } },
      request: get('/api/v1/ping'),
      status: 200,
      body: ANSWERED,
    },
  ],
  {
    setup: (service) =>
      insertManifestRow(service.db, {
        numero: '905112',
        createdAt: '2026-11-22T16:00:00.000Z',
        batchId: insertBatchRow(service.db),
      }),
  },
)

test('auth: no request can put a key into the log; the log has the key fingerprint instead', () =>
  withService({ config: ROTATED }, async (service) => {
    const keys = ['clave-anterior-1111', 'clave-nueva-2222', 'clave-equivocada-3333']
    for (const key of keys) {
      await service.fetch(STATUS, { headers: { ApiKey: key } })
      await service.fetch(`${STATUS}?ApiKey=${key}`, { headers: { ApiKey: key } })
      await service.fetch(`/api/v1/ping?apikey=${key}&x=1`)
      await service.fetch(`/api/v1/nada?ApiKey=${key}`, { headers: { ApiKey: key, OperatorKey: key } })
      await service.fetch(`/api/v1/ping`, { method: 'POST', headers: { ApiKey: key } })
    }
    await waitForLogLines(service, 15)
    const text = service.logText()
    for (const key of keys) assert.ok(!text.includes(key), `the log contains the key ${key}`)
    const authenticated = service.logLines().filter((line) => line.status === 404 && line.path === STATUS)
    assert.equal(authenticated.length, 2, 'the two good keys reach the handler (manifest unknown → 404)')
    for (const line of authenticated) assert.match(String(line.key), /^[0-9a-f]{12}$/)
    assert.notEqual(authenticated[0]!.key, authenticated[1]!.key, 'each key has its own fingerprint')
  }))

async function waitForLogLines(service: { logLines(): unknown[] }, count: number): Promise<void> {
  for (let i = 0; i < 50 && service.logLines().length < count; i++) await new Promise((r) => setTimeout(r, 10))
}
