import assert from 'node:assert/strict'
import { test } from 'node:test'
import { all, first } from '../../src/db/database.ts'
import { createAccount, logIn, asPerson, PASSWORD, sessionOf } from '../support/accounts.ts'
import { pruneSessions } from '../../src/accounts/sessions.service.ts'
import { containing, holds, nothingWritten, refusal, send, testScenarios } from '../support/scenarios.ts'
import { API_KEY, TEST_PASSWORD_COST, withService, type TestService } from '../support/service.ts'

const WRONG = { success: false, message: 'Usuario o contraseña incorrectos.' }

function audit(service: TestService, action: string) {
  return all(
    service.db,
    service.db.query
      .selectFrom('audit_log')
      .select(['actor', 'actor_usuario', 'subject_id', 'detail'])
      .where('action', '=', action)
      .orderBy('id'),
  )
}

const login = (usuario: string, contrasena: string) => ({
  method: 'POST',
  path: '/api/v1/sesion',
  body: { usuario, contrasena },
})
const ANA = { usuario: 'ana', nombre: 'Ana Lucía Fiallos', rol: 'operador', almacenes: ['OAC'] }
/** A refused login: no cookie, the failure audited once. */
const refused = {
  status: 401,
  body: WRONG,
  headers: { 'set-cookie': null },
  database: holds('failed logins audited', (service) => audit(service, 'sesion.fallida').length, 1),
}

testScenarios(
  'sessions',
  [
    {
      name: 'an unknown user → 401, the same answer as a wrong password',
      request: login('nadie', PASSWORD),
      ...refused,
    },
    { name: 'a wrong password → 401', request: login('ana', 'otra-contraseña-mala'), ...refused },
    {
      name: 'a deactivated user → 401, the same answer',
      setup: (service) => service.db.sqlite.exec("UPDATE users SET activo = 0 WHERE usuario = 'ana'"),
      request: login('ana', PASSWORD),
      ...refused,
    },
    {
      name: 'the right password → 200 with the user',
      request: login('ana', PASSWORD),
      status: 200,
      body: ANA,
      headers: { 'set-cookie': /^manifiesto_sesion=/ },
    },
    {
      name: 'the login name ignores case',
      request: login('ANA', PASSWORD),
      status: 200,
      body: ANA,
      headers: { 'set-cookie': /^manifiesto_sesion=/ },
    },
  ],
  { setup: (service) => createAccount(service, 'ana', 'operador', ['OAC'], 'Ana Lucía Fiallos') },
)

test('sessions: the cookie is HttpOnly, SameSite=Strict, Path=/, not Secure over HTTP; only a hash of the token is stored', () =>
  withService({}, async (service) => {
    await createAccount(service, 'ana', 'operador', ['OAC'])
    const login = await logIn(service, 'ana')
    assert.match(login.setCookie ?? '', /^manifiesto_sesion=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/$/)
    const token = login.cookie!.split('=')[1]!
    const stored = first(service.db, service.db.query.selectFrom('sessions').select('token_hash'))!.token_hash
    assert.match(stored, /^[0-9a-f]{64}$/)
    assert.notEqual(stored, token)
    const me = await asPerson(service, login.cookie!, 'GET', '/api/v1/sesion')
    assert.deepEqual(me, {
      status: 200,
      body: { usuario: 'ana', nombre: 'Nombre de ana', rol: 'operador', almacenes: ['OAC'] },
    })
  }))

const ENDED = refusal(
  'Su sesión terminó (por inactividad, por tiempo o por un cambio de contraseña): inicie sesión de nuevo.',
)

testScenarios('sessions', [
  {
    name: 'without a cookie, GET /sesion → 401',
    request: { path: '/api/v1/sesion' },
    status: 401,
    body: refusal('Inicie sesión: esta operación es de una persona con su usuario.'),
  },
  {
    name: 'with an unknown cookie, GET /sesion → 401',
    request: (service) =>
      send(service, {
        path: '/api/v1/sesion',
        headers: { Cookie: 'manifiesto_sesion=inventada', Origin: service.url, 'Content-Type': 'application/json' },
      }),
    status: 401,
    body: ENDED,
  },
])

test('sessions: 5 failures in 15 minutes lock the name for 15 minutes — the right password too — audited with the IP, and the lock ends', () =>
  withService({}, async (service) => {
    await createAccount(service, 'ana', 'operador', ['OAC'])
    for (let i = 0; i < 5; i++) {
      service.clock.advance(60_000)
      assert.equal((await logIn(service, 'ana', 'mala-mala-mala')).status, 401)
    }
    const locked = await service.fetch('/api/v1/sesion', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ usuario: 'ana', contrasena: PASSWORD }),
    })
    assert.equal(locked.status, 429)
    assert.equal(locked.headers.get('retry-after'), '900')
    assert.deepEqual(await locked.json(), {
      success: false,
      message:
        'Demasiados intentos fallidos para este usuario: espere 15 minuto(s) antes de volver a intentar, o pida al administrador que lo desbloquee.',
    })
    assert.deepEqual(
      audit(service, 'sesion.fallida')
        .map((row) => [row.actor, row.subject_id, (JSON.parse(row.detail!) as { ip: string }).ip])
        .at(-1),
      ['sistema', 'ana', '127.0.0.1'],
    )
    assert.equal(audit(service, 'sesion.bloqueada').length, 1)
    service.clock.advance(14 * 60_000)
    assert.equal((await logIn(service, 'ana')).status, 429, 'still locked a minute before the end')
    service.clock.advance(60_000)
    assert.equal((await logIn(service, 'ana')).status, 200, 'the lock ended')
  }))

test('sessions: an unknown name is locked the same way (a lockout reveals nothing)', () =>
  withService({}, async (service) => {
    for (let i = 0; i < 5; i++) await logIn(service, 'fantasma', 'cualquier-cosa')
    assert.equal((await logIn(service, 'fantasma', 'cualquier-cosa')).status, 429)
  }))

test('sessions: the login route has its own per-IP limit (rateLimits.loginPerMinute)', () =>
  withService({ config: { rateLimits: { loginPerMinute: 3 } } }, async (service) => {
    const statuses = []
    for (let i = 0; i < 4; i++) statuses.push((await logIn(service, `u${i}`, 'x')).status)
    assert.deepEqual(statuses, [401, 401, 401, 429])
  }))

const expiries = [
  { name: '12 hours without use (auth.sessionIdleHours)', steps: [12 * 3_600_000 + 1], expired: true },
  { name: 'used every 11 hours, still valid after 5 days', steps: Array(11).fill(11 * 3_600_000), expired: false },
  {
    name: '7 days after login even when used every 11 hours (auth.sessionMaxDays)',
    steps: Array(16).fill(11 * 3_600_000),
    expired: true,
  },
]

for (const scenario of expiries) {
  test(`sessions: expiry — ${scenario.name}`, () =>
    withService({}, async (service) => {
      await createAccount(service, 'ana', 'operador', ['OAC'])
      const cookie = await sessionOf(service, 'ana')
      let last = 200
      for (const step of scenario.steps) {
        service.clock.advance(step)
        last = (await asPerson(service, cookie, 'GET', '/api/v1/sesion')).status
        if (last !== 200) break
      }
      assert.equal(last, scenario.expired ? 401 : 200)
    }))
}

test('sessions: logging out ends the session (204), and the cookie no longer opens anything', () =>
  withService({}, async (service) => {
    await createAccount(service, 'ana', 'operador', ['OAC'])
    const cookie = await sessionOf(service, 'ana')
    const out = await service.fetch('/api/v1/sesion', {
      method: 'DELETE',
      headers: { Cookie: cookie, Origin: service.url },
    })
    assert.equal(out.status, 204)
    assert.match(out.headers.get('set-cookie') ?? '', /^manifiesto_sesion=; .*Max-Age=0/)
    assert.equal((await asPerson(service, cookie, 'GET', 'manifiestos')).status, 401)
  }))

test('sessions: changing one’s own password ends one’s other sessions, keeps this one', () =>
  withService({}, async (service) => {
    await createAccount(service, 'ana', 'operador', ['OAC'])
    const here = await sessionOf(service, 'ana')
    const elsewhere = await sessionOf(service, 'ana')
    const wrong = await asPerson(service, here, 'POST', '/api/v1/sesion/contrasena', {
      actual: 'no-es-la-actual',
      nueva: 'frase-propia-de-ana-2027',
    })
    assert.deepEqual(wrong, { status: 422, body: { success: false, message: 'La contraseña actual no es correcta.' } })
    const equalToName = await asPerson(service, here, 'POST', '/api/v1/sesion/contrasena', {
      actual: PASSWORD,
      nueva: 'ana',
    })
    assert.equal(equalToName.status, 422)
    assert.equal(
      (
        await asPerson(service, here, 'POST', '/api/v1/sesion/contrasena', {
          actual: PASSWORD,
          nueva: 'frase-propia-de-ana-2027',
        })
      ).status,
      204,
    )
    assert.equal((await asPerson(service, here, 'GET', '/api/v1/sesion')).status, 200)
    assert.equal((await asPerson(service, elsewhere, 'GET', '/api/v1/sesion')).status, 401)
    assert.equal((await logIn(service, 'ana', 'frase-propia-de-ana-2027')).status, 200)
  }))

const CROSS_SITE = refusal(
  'Solicitud rechazada: un cambio con sesión debe hacerse desde la consola de este servicio (origen distinto o ausente).',
)
/** A supervisor's new reason, with the session cookie and the console's Origin unless the row says otherwise. */
const createReason = (headers: Record<string, string | null>) => ({
  method: 'POST',
  path: 'conceptos',
  headers,
  body: { codigo: 'DANADO', descripcion: 'Producto dañado' },
})
const CREATED = containing({ codigo: 'DANADO', descripcion: 'Producto dañado' })

testScenarios(
  'sessions: CSRF — a change by cookie with',
  [
    {
      name: 'no Origin and no Sec-Fetch-Site → 403',
      request: createReason({ Origin: null }),
      status: 403,
      body: CROSS_SITE,
      database: nothingWritten(),
    },
    {
      name: 'another site’s Origin → 403',
      request: createReason({ Origin: 'https://malicioso.example' }),
      status: 403,
      body: CROSS_SITE,
      database: nothingWritten(),
    },
    {
      name: 'Sec-Fetch-Site: cross-site → 403',
      request: createReason({ Origin: null, 'Sec-Fetch-Site': 'cross-site' }),
      status: 403,
      body: CROSS_SITE,
      database: nothingWritten(),
    },
    {
      name: 'Sec-Fetch-Site: same-origin → allowed',
      request: createReason({ Origin: null, 'Sec-Fetch-Site': 'same-origin' }),
      status: 201,
      body: CREATED,
    },
    { name: 'the service’s own Origin → allowed', request: createReason({}), status: 201, body: CREATED },
  ],
  { setup: (service) => createAccount(service, 'sup', 'supervisor'), as: { usuario: 'sup' } },
)

test('sessions: a cookie never opens the client API', () =>
  withService({}, async (service) => {
    await createAccount(service, 'admin', 'admin')
    const cookie = await sessionOf(service, 'admin')
    const response = await service.fetch('/api/v1/manifiestos/905112/estado', { headers: { Cookie: cookie } })
    assert.equal(response.status, 401)
    assert.match(((await response.json()) as { message: string }).message, /^ApiKey requerido/)
    assert.equal(
      (await service.fetch('/api/v1/manifiestos/905112/estado', { headers: { Cookie: cookie, ApiKey: API_KEY } }))
        .status,
      404,
      'the ApiKey alone decides',
    )
  }))

test('sessions: the audit log records the person’s nombre and usuario (the Operador header is ignored)', () =>
  withService({}, async (service) => {
    await createAccount(service, 'sup', 'supervisor', 'todos', 'Sara Supervisora')
    const cookie = await sessionOf(service, 'sup')
    await asPerson(
      service,
      cookie,
      'POST',
      'conceptos',
      { codigo: 'DANADO', descripcion: 'Producto dañado' },
      { Operador: 'Otro%20Nombre' },
    )
    const [row] = audit(service, 'concepto.creado')
    assert.deepEqual([row!.actor, row!.actor_usuario], ['Sara Supervisora', 'sup'])
    const listed = await asPerson(service, cookie, 'GET', 'auditoria?tipo=concepto')
    assert.deepEqual([listed.body[0].quien, listed.body[0].usuario], ['Sara Supervisora', 'sup'])
  }))

test('sessions: a login with a hash of a lower cost is rehashed with the current cost', () =>
  withService({ passwordCost: { N: 2048, r: 8, p: 1 } }, async (service) => {
    await createAccount(service, 'ana', 'operador', ['OAC'])
    const before = first(service.db, service.db.query.selectFrom('users').select('password_hash'))!.password_hash
    assert.match(before, /^scrypt\$N=1024,r=8,p=1\$/)
    assert.equal((await logIn(service, 'ana')).status, 200)
    const after = first(service.db, service.db.query.selectFrom('users').select('password_hash'))!.password_hash
    assert.match(after, /^scrypt\$N=2048,r=8,p=1\$/)
    assert.equal((await logIn(service, 'ana')).status, 200, 'the new hash works')
  }))

test('sessions: the daily prune forgets sessions idle past auth.sessionIdleHours and logins past auth.sessionMaxDays, keeps the live ones', () =>
  withService({ config: { auth: { sessionIdleHours: 12, sessionMaxDays: 7 } } }, async (service) => {
    await createAccount(service, 'ana', 'operador')
    await createAccount(service, 'beto', 'operador')
    await createAccount(service, 'carla', 'operador')
    const deps = {
      db: service.db,
      clock: service.clock,
      settings: service.config.auth,
      passwordCost: TEST_PASSWORD_COST,
    }
    const idle = await sessionOf(service, 'ana')
    const kept = await sessionOf(service, 'beto')
    service.clock.advance(11 * 3_600_000)
    assert.equal(
      (await asPerson(service, kept, 'GET', '/api/v1/sesion')).status,
      200,
      'used an hour before the idle limit',
    )
    service.clock.advance(2 * 3_600_000)
    assert.equal(pruneSessions(deps), 1, "ana's session, idle 13 hours")
    assert.equal((await asPerson(service, idle, 'GET', '/api/v1/sesion')).status, 401)
    assert.equal((await asPerson(service, kept, 'GET', '/api/v1/sesion')).status, 200)
    const old = await sessionOf(service, 'carla')
    let hoursUsed = 0
    while (hoursUsed < 8 * 24 && (await asPerson(service, old, 'GET', '/api/v1/sesion')).status === 200) {
      service.clock.advance(10 * 3_600_000)
      hoursUsed += 10
    }
    assert.equal(hoursUsed, 170, 'used every 10 hours, it ends at the first use past 7 days (168 h)')
    pruneSessions(deps)
    const left = all(
      service.db,
      service.db.query
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select('users.usuario'),
    )
    assert.deepEqual(left, [], "beto's session went idle; carla's, used every 10 hours, passed 7 days since its login")
  }))
