import assert from 'node:assert/strict'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import Database from 'better-sqlite3'
import { all } from '../../src/db/database.ts'
import { asPerson, createAccount, logIn, PASSWORD, sessionOf } from '../support/accounts.ts'
import { runCli } from '../support/cli.ts'
import { withService, type TestService } from '../support/service.ts'

/**
 * A new password is refused when it is guessed first (issue 38): in the list of common passwords
 * (international and Spanish), such a word with digits or signs around it, one character or one
 * group repeated, a walk along the digits, the alphabet or the keyboard. The same rules wherever
 * a password is set: an admin creating a user or setting a new password, a person changing their
 * own, the command line. Each refusal is a 422 in Spanish saying why and what to choose instead,
 * and nothing changes.
 */
const ADVICE =
  'Elija otra que nadie pueda adivinar: por ejemplo, tres o cuatro palabras que no tengan relación entre sí, separadas por espacios.'
const COMMON = 'La contraseña está en la lista de las contraseñas más usadas, que son las primeras que se prueban.'
const DECORATED =
  'La contraseña es una contraseña o palabra muy usada con números, signos o cambios de letras (como «Honduras2026!» o «p4ssw0rd»), que son de las primeras que se prueban.'
const REPEATED = 'La contraseña es un mismo carácter repetido, y eso se adivina en segundos.'
const GROUP = 'La contraseña repite un mismo grupo de caracteres (como «abcabcabc»), y eso se adivina en segundos.'
const TWICE = 'La contraseña repite dos veces una secuencia o una contraseña muy usada, y eso se adivina en segundos.'
const WALK =
  'La contraseña es una secuencia seguida de letras, números o teclas vecinas (como «123456…», «abcdef…» o «qwerty…»), y eso se adivina en segundos.'
const NAME = 'La contraseña es el nombre de usuario con números o signos añadidos, y eso es lo primero que se prueba.'

const refused: Array<{ password: string; why: string }> = [
  { password: 'aaaaaaaaaaaa', why: REPEATED },
  { password: '############', why: REPEATED },
  { password: 'abcabcabcabc', why: GROUP },
  { password: '121212121212', why: GROUP },
  { password: '123456789012', why: WALK },
  { password: '0987654321', why: WALK },
  { password: 'abcdefghijkl', why: WALK },
  { password: 'ZYXWVUTSRQPO', why: WALK },
  { password: 'qwertyuiop', why: WALK },
  { password: 'asdfghjklñ', why: WALK },
  { password: 'ÑLKJHGFDSA', why: WALK },
  { password: '1qaz2wsx3edc', why: WALK },
  { password: 'qwertyqwerty', why: TWICE },
  { password: 'password123', why: COMMON },
  { password: 'iloveyou12', why: DECORATED },
  { password: 'P4ssw0rd!!', why: DECORATED },
  { password: 'contraseña', why: COMMON },
  { password: 'Contraseña2026', why: DECORATED },
  { password: 'tegucigalpa', why: COMMON },
  { password: 'Honduras2026!', why: DECORATED },
  { password: '¡H0ndur4s-504!', why: DECORATED },
  { password: 'te amo mucho', why: COMMON },
  { password: 'olimpia12345', why: DECORATED },
  { password: 'maria.lopez2026', why: NAME },
  { password: 'Maria.Lopez', why: 'La contraseña no puede ser igual al nombre de usuario.' },
]

/** Where a password is set, as the person or the admin does it; each returns the answer. */
const places: Array<{
  name: string
  set: (service: TestService, password: string) => Promise<{ status: number; body: unknown }>
}> = [
  {
    name: 'an admin creating a user',
    set: async (service, password) =>
      asPerson(service, await sessionOf(service, 'admin'), 'POST', 'usuarios', {
        usuario: 'maria.lopez',
        nombre: 'María López',
        rol: 'operador',
        almacenes: ['OAC'],
        contrasena: password,
      }),
  },
  {
    name: 'an admin setting a new password',
    set: async (service, password) =>
      asPerson(service, await sessionOf(service, 'admin'), 'POST', 'usuarios/maria.lopez/contrasena', {
        contrasena: password,
      }),
  },
  {
    name: 'a person changing their own',
    set: async (service, password) =>
      asPerson(service, await sessionOf(service, 'maria.lopez'), 'POST', '/api/v1/sesion/contrasena', {
        actual: PASSWORD,
        nueva: password,
      }),
  },
]

async function seed(service: TestService): Promise<void> {
  await createAccount(service, 'admin', 'admin')
  await createAccount(service, 'maria.lopez', 'operador', ['OAC'])
}

const accounts = (service: TestService) =>
  all(service.db, service.db.query.selectFrom('users').select(['usuario', 'password_hash', 'updated_at']).orderBy('id'))

for (const place of places) {
  for (const row of refused) {
    test(`password rules: ${place.name}: ${JSON.stringify(row.password)} → 422 saying why, nothing changed`, () =>
      withService({}, async (service) => {
        await seed(service)
        if (place.name === 'an admin creating a user')
          service.db.sqlite.exec("DELETE FROM users WHERE usuario = 'maria.lopez'")
        const before = accounts(service)
        const { status, body } = await place.set(service, row.password)
        assert.deepEqual({ status, body }, { status: 422, body: { success: false, message: `${row.why} ${ADVICE}` } })
        assert.deepEqual(accounts(service), before)
      }))
  }
}

const accepted = ['bodega norte lluvia', 'clave-de-maría-2026', 'Tamarindo7Lancha', 'mango tranvía reloj verde']

for (const place of places) {
  for (const password of accepted) {
    test(`password rules: ${place.name}: ${JSON.stringify(password)} is accepted and logs in`, () =>
      withService({}, async (service) => {
        await seed(service)
        if (place.name === 'an admin creating a user')
          service.db.sqlite.exec("DELETE FROM users WHERE usuario = 'maria.lopez'")
        const { status } = await place.set(service, password)
        assert.ok(status === 200 || status === 201 || status === 204, `answered ${status}`)
        assert.equal((await logIn(service, 'maria.lopez', password)).status, 200)
      }))
  }
}

const commands: Array<{ name: string; args: string[]; input: string; code: number; err?: string; out?: RegExp }> = [
  {
    name: 'usuario crear with a common password → exit 2 saying why',
    args: ['usuario', 'crear', 'admin', '--rol', 'admin', '--contrasena-stdin'],
    input: 'contraseña\n',
    code: 2,
    err: `${COMMON} ${ADVICE}`,
  },
  {
    name: 'usuario crear with a keyboard row → exit 2 saying why',
    args: ['usuario', 'crear', 'admin', '--rol', 'admin', '--contrasena-stdin'],
    input: 'qwertyuiop\n',
    code: 2,
    err: `${WALK} ${ADVICE}`,
  },
  {
    name: 'usuario crear with a good password → exit 0',
    args: ['usuario', 'crear', 'admin', '--rol', 'admin', '--contrasena-stdin'],
    input: 'bodega norte lluvia\n',
    code: 0,
    out: /^usuario creado: admin/m,
  },
]

for (const command of commands) {
  test(`password rules: cli ${command.name}`, async () => {
    const result = await runCli(command.args, {
      cwd: mkdtempSync(join(tmpdir(), 'manifiesto-contrasena-')),
      input: command.input,
    })
    assert.equal(result.code, command.code, result.stdout + result.stderr)
    if (command.err !== undefined) assert.equal(result.stderr.trim(), command.err)
    if (command.out !== undefined) assert.match(result.stdout, command.out)
  })
}

test('password rules: cli usuario restablecer with a repeated character → exit 2, the password unchanged', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'manifiesto-contrasena-'))
  assert.equal(
    (
      await runCli(['usuario', 'crear', 'admin', '--rol', 'admin', '--contrasena-stdin'], {
        cwd,
        input: 'bodega norte lluvia\n',
      })
    ).code,
    0,
  )
  const hash = () => {
    const db = new Database(join(cwd, 'data/manifiesto.db'), { readonly: true })
    try {
      return db.prepare("SELECT password_hash FROM users WHERE usuario = 'admin'").pluck().get()
    } finally {
      db.close()
    }
  }
  const before = hash()
  const reset = await runCli(['usuario', 'restablecer', 'admin', '--contrasena-stdin'], {
    cwd,
    input: 'aaaaaaaaaaaa\n',
  })
  assert.equal(reset.code, 2, reset.stdout + reset.stderr)
  assert.equal(reset.stderr.trim(), `${REPEATED} ${ADVICE}`)
  assert.equal(hash(), before)
})
