import assert from 'node:assert/strict'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { PasswordRules } from '../../src/accounts/password-rules.ts'
import { createUser } from '../../src/accounts/users.service.ts'
import { systemClock } from '../../src/core/clock.ts'
import { runUserCommand } from '../../src/commands/users.ts'
import { loadConfig } from '../../src/config/config.ts'
import { all, closeDatabase, openDatabase, type Database } from '../../src/db/database.ts'
import { migrateDatabase } from '../../src/db/migrate.ts'
import type { Answer } from '../support/batches.ts'
import { asPerson, createAccount, logIn, PASSWORD, sessionOf } from '../support/accounts.ts'
import { bufferIo, runCli } from '../support/cli.ts'
import { operator } from '../support/operator.ts'
import { TEST_PASSWORD_COST, withService, type TestService } from '../support/service.ts'
import { DERIVED_VALUES } from '../../src/app/derived-values.ts'

/**
 * An admin unlocks an account that failed logins locked (issue 38): five failures in 15 minutes
 * lock a name for 15 minutes; POST usuarios/{usuario}/desbloquear lifts it at once (audited),
 * and the person logs in with their password. Not locked — never, not yet, or no longer — is a
 * 422: there is nothing to lift, and nothing changes.
 */
const ANA = {
  usuario: 'ana',
  nombre: 'Nombre de ana',
  rol: 'operador',
  almacenes: ['OAC'],
  activo: true,
  creado_en: '2026-11-22 10:00:00',
  ultimo_ingreso: null,
}

async function failLogins(service: TestService, usuario: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) assert.equal((await logIn(service, usuario, 'no-es-su-clave')).status, 401)
}

function state(service: TestService) {
  return {
    lockouts: all(service.db, service.db.query.selectFrom('login_lockouts').selectAll().orderBy('usuario_key')),
    unlocks: all(
      service.db,
      service.db.query
        .selectFrom('audit_log')
        .select(['actor', 'actor_usuario', 'subject_id', 'detail'])
        .where('action', '=', 'usuario.desbloqueado')
        .orderBy('id'),
    ),
  }
}

type Who = 'nadie' | 'admin' | 'supervisor' | 'clave'

interface Row {
  name: string
  who: Who
  setup?: (service: TestService) => Promise<unknown>
  usuario?: string
  status: number
  body: unknown
}

const rows: Row[] = [
  {
    name: 'without a session → 401',
    who: 'nadie',
    setup: (service) => failLogins(service, 'ana', 5),
    status: 401,
    body: {
      success: false,
      message: 'Inicie sesión en la consola, o (una integración) envíe la clave en el encabezado OperatorKey.',
    },
  },
  {
    name: 'a supervisor → 403',
    who: 'supervisor',
    setup: (service) => failLogins(service, 'ana', 5),
    status: 403,
    body: {
      success: false,
      message: 'Su rol (supervisor) no permite administrar usuarios; pídaselo a el administrador.',
    },
  },
  {
    name: 'the integration key → 403',
    who: 'clave',
    setup: (service) => failLogins(service, 'ana', 5),
    status: 403,
    body: {
      success: false,
      message: 'La clave de integración (OperatorKey) no permite administrar usuarios; pídaselo a el administrador.',
    },
  },
  {
    name: 'an unknown user → 404',
    who: 'admin',
    usuario: 'nadie',
    status: 404,
    body: { success: false, message: 'No existe el usuario nadie.' },
  },
  {
    name: 'an unknown name that failed logins is still no user → 404',
    who: 'admin',
    setup: (service) => failLogins(service, 'fantasma', 5),
    usuario: 'fantasma',
    status: 404,
    body: { success: false, message: 'No existe el usuario fantasma.' },
  },
  {
    name: 'never locked → 422',
    who: 'admin',
    status: 422,
    body: {
      success: false,
      message:
        'El usuario ana no está bloqueado: puede entrar con su contraseña. Si la olvidó, póngale una contraseña nueva.',
    },
  },
  {
    name: 'four failures, not locked yet → 422, the failures still count',
    who: 'admin',
    setup: (service) => failLogins(service, 'ana', 4),
    status: 422,
    body: {
      success: false,
      message:
        'El usuario ana no está bloqueado: puede entrar con su contraseña. Si la olvidó, póngale una contraseña nueva.',
    },
  },
  {
    name: 'a lock whose 15 minutes ended → 422',
    who: 'admin',
    setup: async (service) => {
      await failLogins(service, 'ana', 5)
      service.clock.advance(15 * 60_000 + 1000)
    },
    status: 422,
    body: {
      success: false,
      message:
        'El usuario ana no está bloqueado: puede entrar con su contraseña. Si la olvidó, póngale una contraseña nueva.',
    },
  },
  {
    name: 'locked → 200, unlocked',
    who: 'admin',
    setup: (service) => failLogins(service, 'ana', 5),
    status: 200,
    body: { ...ANA, bloqueado_hasta: null },
  },
  {
    name: 'locked by failures typed in capitals, unlocked by the name in any case → 200',
    who: 'admin',
    setup: (service) => failLogins(service, 'ANA', 5),
    usuario: 'Ana',
    status: 200,
    body: { ...ANA, bloqueado_hasta: null },
  },
]

async function call(service: TestService, who: Who, path: string): Promise<{ status: number; body: Answer }> {
  if (who === 'clave') return operator(service, 'POST', path)
  if (who === 'nadie') {
    const response = await service.fetch(`/api/v1/operador/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    })
    return { status: response.status, body: (await response.json()) as Answer }
  }
  return asPerson(service, await sessionOf(service, who), 'POST', path, {})
}

for (const row of rows) {
  test(`unlock: ${row.name}`, () =>
    withService({}, async (service) => {
      await createAccount(service, 'admin', 'admin')
      await createAccount(service, 'supervisor', 'supervisor')
      await createAccount(service, 'ana', 'operador', ['OAC'])
      // The people who call log in first: their own logins must not touch ana's failures.
      if (row.who === 'admin' || row.who === 'supervisor') await sessionOf(service, row.who)
      await row.setup?.(service)
      const before = state(service)
      const { status, body } = await call(service, row.who, `usuarios/${row.usuario ?? 'ana'}/desbloquear`)
      assert.deepEqual({ status, body }, { status: row.status, body: row.body })
      if (status !== 200) {
        assert.deepEqual(state(service), before, 'nothing changed')
        return
      }
      const after = state(service)
      assert.deepEqual(after.lockouts, [], 'the failures are forgotten')
      assert.deepEqual(after.unlocks, [
        {
          actor: 'Nombre de admin',
          actor_usuario: 'admin',
          subject_id: 'ana',
          detail: JSON.stringify({ bloqueado_hasta: '2026-11-22 10:15:00', intentos_fallidos: 5 }),
        },
      ])
      assert.equal((await logIn(service, 'ana', PASSWORD)).status, 200, 'she logs in at once with her password')
    }))
}

test('unlock: the list says who is locked and until when, while the lock lasts', () =>
  withService({}, async (service) => {
    await createAccount(service, 'admin', 'admin')
    await createAccount(service, 'ana', 'operador', ['OAC'])
    const admin = await sessionOf(service, 'admin')
    const lockOf = async () =>
      ((await asPerson(service, admin, 'GET', 'usuarios')).body as Answer[]).map((user) => [
        user.usuario,
        user.bloqueado_hasta,
      ])
    assert.deepEqual(await lockOf(), [
      ['admin', null],
      ['ana', null],
    ])
    await failLogins(service, 'ana', 5)
    assert.deepEqual(await lockOf(), [
      ['admin', null],
      ['ana', '2026-11-22 10:15:00'],
    ])
    assert.equal((await logIn(service, 'ana', PASSWORD)).status, 429, 'locked, the right password included')
    service.clock.advance(15 * 60_000)
    assert.deepEqual(
      await lockOf(),
      [
        ['admin', null],
        ['ana', null],
      ],
      'the lock ends by itself',
    )
  }))

test('unlock: an unlocked account is locked again by five new failures', () =>
  // More logins than the per-IP limit of a minute (10) allows.
  withService({ config: { rateLimits: { loginPerMinute: 100 } } }, async (service) => {
    await createAccount(service, 'admin', 'admin')
    await createAccount(service, 'ana', 'operador', ['OAC'])
    const admin = await sessionOf(service, 'admin')
    await failLogins(service, 'ana', 5)
    assert.equal((await asPerson(service, admin, 'POST', 'usuarios/ana/desbloquear', {})).status, 200)
    await failLogins(service, 'ana', 4)
    assert.equal((await logIn(service, 'ana', PASSWORD)).status, 200, 'four failures after the unlock do not lock')
    await failLogins(service, 'ana', 5)
    assert.equal((await logIn(service, 'ana', PASSWORD)).status, 429)
  }))

/** The command line, in-process, on a database prepared as the service leaves it (ana, locked or not). */
async function preparedFolder(lock: boolean): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'manifiesto-desbloquear-'))
  const { config } = loadConfig({ env: {}, cwd: dir })
  const db = openDatabase(config.database.path)
  try {
    migrateDatabase(db, DERIVED_VALUES)
    const deps = {
      db,
      clock: systemClock(config.dates.timezone),
      warehouses: config.warehouses,
      passwordCost: TEST_PASSWORD_COST,
      passwordRules: new PasswordRules(),
    }
    await createUser(deps, null, {
      usuario: 'ana',
      nombre: 'Ana',
      rol: 'operador',
      almacenes: ['OAC'],
      contrasena: PASSWORD,
    })
    if (lock) insertLockout(db, 'ana', new Date(Date.now() + 10 * 60_000).toISOString())
  } finally {
    closeDatabase(db)
  }
  return dir
}

function insertLockout(db: Database, key: string, lockedUntil: string): void {
  db.sqlite
    .prepare('INSERT INTO login_lockouts (usuario_key, failures, window_start, locked_until) VALUES (?, 5, ?, ?)')
    .run(key, new Date().toISOString(), lockedUntil)
}

const commandRows: Array<{ name: string; lock: boolean; user: string; code: number; line: RegExp }> = [
  { name: 'an unknown user → 1', lock: false, user: 'nadie', code: 1, line: /^No existe el usuario nadie\.$/ },
  {
    name: 'a user not locked → 1, saying so',
    lock: false,
    user: 'ana',
    code: 1,
    line: /^El usuario ana no está bloqueado: puede entrar con su contraseña\. Si la olvidó, póngale una contraseña nueva\.$/,
  },
  {
    name: 'a locked user → 0, unlocked',
    lock: true,
    user: 'ana',
    code: 0,
    line: /^usuario desbloqueado: ana puede entrar ya con su contraseña$/,
  },
]

for (const row of commandRows) {
  test(`unlock: cli usuario desbloquear, ${row.name}`, async () => {
    const dir = await preparedFolder(row.lock)
    const result = await runUserCommand(
      loadConfig({ env: {}, cwd: dir }),
      'desbloquear',
      row.user,
      {},
      bufferIo({ cwd: dir }),
    )
    assert.equal(result.code, row.code, result.lines.join('\n'))
    assert.match(result.lines[0] ?? '', row.line)
    const { config } = loadConfig({ env: {}, cwd: dir })
    const db = openDatabase(config.database.path)
    try {
      const unlocks = db.sqlite
        .prepare("SELECT actor, subject_id FROM audit_log WHERE action = 'usuario.desbloqueado'")
        .all()
      const lockouts = db.sqlite.prepare('SELECT count(*) FROM login_lockouts').pluck().get()
      assert.deepEqual(
        { unlocks, lockouts },
        row.code === 0
          ? { unlocks: [{ actor: 'línea de comandos', subject_id: 'ana' }], lockouts: 0 }
          : { unlocks: [], lockouts: row.lock ? 1 : 0 },
      )
    } finally {
      closeDatabase(db)
    }
  })
}

test('unlock: cli usuario desbloquear as a process — Spanish help and exit codes like the other usuario commands', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'manifiesto-desbloquear-'))
  const help = await runCli(['--help'], { cwd })
  assert.match(
    help.stdout,
    /manifiesto usuario desbloquear NOMBRE {3}lo desbloquea tras intentos fallidos, sin cambiar su contraseña/,
  )
  const unknown = await runCli(['usuario', 'desbloquear', 'nadie'], { cwd })
  assert.deepEqual([unknown.code, unknown.stderr.trim()], [1, 'No existe el usuario nadie.'])
  const missing = await runCli(['usuario', 'desbloquear'], { cwd })
  assert.deepEqual(
    [missing.code, missing.stderr.split('\n')[0]],
    [2, 'Falta el nombre de usuario: manifiesto usuario desbloquear NOMBRE'],
  )
})
