import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import Database from 'better-sqlite3'
import { runUserCommand } from '../../src/commands/users.ts'
import { loadConfig } from '../../src/config/config.ts'
import { bufferIo, freePort, runCli } from '../support/cli.ts'
import { startServe, stop } from '../support/processes.ts'

function folder(): string {
  return mkdtempSync(join(tmpdir(), 'manifiesto-usuarios-'))
}

/** As processes, as an administrator runs them (each starts a Node process: a few seconds). */
const commands: Array<{ name: string; args: string[]; input?: string; code: number; out?: RegExp; err?: RegExp }> = [
  {
    name: 'a bad login name → exit 2, nothing created',
    args: ['usuario', 'crear', 'a b', '--rol', 'admin', '--contrasena-stdin'],
    input: 'clave-muy-segura\n',
    code: 2,
    err: /^Datos inválidos: usuario: debe ser de 3 a 40 letras, dígitos, puntos, guiones o guiones bajos\.$/m,
  },
  {
    name: 'no terminal and no --contrasena-stdin → exit 2 saying how',
    args: ['usuario', 'crear', 'admin', '--rol', 'admin'],
    code: 2,
    err: /use --contrasena-stdin/,
  },
  {
    name: 'creating the first admin from stdin → exit 0',
    args: [
      'usuario',
      'crear',
      'admin',
      '--rol',
      'admin',
      '--nombre',
      'Administradora del Servidor',
      '--contrasena-stdin',
    ],
    input: 'clave-muy-segura\n',
    code: 0,
    out: /^usuario creado: admin \(Administradora del Servidor\), rol admin, almacenes todos$/m,
  },
]

/** In-process, the rules of the same command (no stdin needed to reach them). */
const refusals: Array<{
  name: string
  action: string
  user?: string
  options?: Record<string, string>
  code: number
  line: RegExp
}> = [
  {
    name: 'an unknown role → 2',
    action: 'crear',
    user: 'admin',
    options: { rol: 'jefe' },
    code: 2,
    line: /rol: debe ser operador, supervisor, finanzas o admin/,
  },
  {
    name: 'no role → 2',
    action: 'crear',
    user: 'admin',
    code: 2,
    line: /rol: debe ser operador, supervisor, finanzas o admin/,
  },
  {
    name: 'an unknown warehouse → 2',
    action: 'crear',
    user: 'ana',
    options: { rol: 'operador', almacenes: 'OAC,XYZ' },
    code: 2,
    line: /^Almacén desconocido: XYZ\./,
  },
  {
    name: 'no name → 2',
    action: 'crear',
    code: 2,
    line: /^Falta el nombre de usuario: manifiesto usuario crear NOMBRE$/,
  },
  { name: 'an unknown action → 2', action: 'borrar', user: 'x', code: 2, line: /^Use: manifiesto usuario crear/ },
  {
    name: 'resetting an unknown user → 1, before asking a password',
    action: 'restablecer',
    user: 'nadie',
    code: 1,
    line: /^No existe el usuario nadie\.$/,
  },
  {
    name: 'listing with no users says how to create the first admin',
    action: 'listar',
    code: 0,
    line: /^No hay usuarios\. Cree el primer administrador: manifiesto usuario crear admin --rol admin$/,
  },
]

for (const scenario of refusals) {
  test(`cli usuario (rules): ${scenario.name}`, async () => {
    const dir = folder()
    const loaded = loadConfig({ env: {}, cwd: dir })
    const result = await runUserCommand(
      loaded,
      scenario.action,
      scenario.user,
      scenario.options ?? {},
      bufferIo({ cwd: dir }),
    )
    assert.equal(result.code, scenario.code)
    assert.match(result.lines[0] ?? '', scenario.line)
  })
}

for (const scenario of commands) {
  test(`cli usuario: ${scenario.name}`, async () => {
    const dir = folder()
    const result = await runCli(scenario.args, {
      cwd: dir,
      ...(scenario.input === undefined ? {} : { input: scenario.input }),
    })
    assert.equal(result.code, scenario.code, result.stdout + result.stderr)
    if (scenario.out) assert.match(result.stdout, scenario.out)
    if (scenario.err) assert.match(result.stderr, scenario.err)
    assert.ok(!result.stdout.includes('clave-') && !result.stderr.includes('clave-'), 'the password is never printed')
  })
}

test(
  'cli usuario: created, listed and reset while the service runs; the service logs how to create the first admin until one exists',
  { timeout: 120_000 },
  async () => {
    const dir = folder()
    const port = await freePort()
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ server: { host: '127.0.0.1', port }, backup: { everyHours: 0 } }),
    )
    const url = `http://127.0.0.1:${port}`
    const served = await startServe(['--config', 'config.json'], { cwd: dir, url })
    try {
      const created = await runCli(
        ['usuario', 'crear', 'admin', '--rol', 'admin', '--config', 'config.json', '--contrasena-stdin'],
        { cwd: dir, input: 'clave-muy-segura\n' },
      )
      assert.equal(created.code, 0, created.stderr)
      const login = (password: string) =>
        fetch(`${url}/api/v1/sesion`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ usuario: 'admin', contrasena: password }),
        })
      assert.equal((await login('clave-muy-segura')).status, 200, 'the running service sees the new account')
      for (let attempt = 0; attempt < 5; attempt++) assert.equal((await login('no-es-la-clave')).status, 401)
      assert.equal(
        (await login('clave-muy-segura')).status,
        429,
        'five failures lock the name, a correct password included',
      )
      const reset = await runCli(['usuario', 'restablecer', 'ADMIN', '--config', 'config.json', '--contrasena-stdin'], {
        cwd: dir,
        input: 'otra-clave-segura\n',
      })
      assert.equal(reset.code, 0, reset.stderr)
      assert.match(reset.stdout, /contraseña restablecida para admin: sus sesiones se cerraron y quedó desbloqueado/)
      assert.equal((await login('otra-clave-segura')).status, 200, 'restablecer lifted the lockout')
      const listed = await runCli(['usuario', 'listar', '--config', 'config.json'], { cwd: dir })
      assert.match(listed.stdout, /^admin\s+admin\s+activo\s+todos\s+admin$/m)
    } finally {
      await stop(served)
    }
    const output = await served.exited
    assert.match(
      output.stdout,
      new RegExp(
        `no hay ningún administrador activo: créelo con «manifiesto usuario crear admin --rol admin --config ${join(dir, 'config.json').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}»`,
      ),
    )
    const db = new Database(join(dir, 'data', 'manifiesto.db'), { readonly: true })
    assert.deepEqual(db.prepare('SELECT usuario, rol FROM users').all(), [{ usuario: 'admin', rol: 'admin' }])
    db.close()
  },
)
