import assert from 'node:assert/strict'
import { test } from 'node:test'
import { all } from '../../src/db/database.ts'
import { asPerson, createAccount, logIn, PASSWORD, sessionOf } from '../support/accounts.ts'
import { nothingWritten, refusal, testScenarios, unchanged } from '../support/scenarios.ts'
import { withService, type TestService } from '../support/service.ts'

const NEW = {
  usuario: 'maria.lopez',
  nombre: 'María López',
  rol: 'operador',
  almacenes: ['OAS'],
  contrasena: 'clave-de-maria-1',
}
const MARIA = {
  usuario: 'maria.lopez',
  nombre: 'María López',
  rol: 'operador',
  almacenes: ['OAS'],
  activo: true,
  creado_en: '2026-11-22 10:00:00',
  ultimo_ingreso: null,
  bloqueado_hasta: null,
}

async function admin(service: TestService): Promise<string> {
  await createAccount(service, 'admin', 'admin')
  return sessionOf(service, 'admin')
}

/** María created by the admin, through the API. */
const maria = async (service: TestService) =>
  asPerson(service, await sessionOf(service, 'admin'), 'POST', 'usuarios', NEW)
const users = (service: TestService) =>
  all(service.db, service.db.query.selectFrom('users').select(['usuario', 'rol', 'almacenes', 'activo']).orderBy('id'))
/** A refusal: its message, and no account written. */
const refused = (message: string) => ({
  status: 422,
  body: refusal(message),
  database: [unchanged('the users', users), nothingWritten()],
})

testScenarios(
  'users',
  [
    {
      name: 'a login name too short → 422',
      request: { method: 'POST', path: 'usuarios', body: { ...NEW, usuario: 'ma' } },
      ...refused('Cuerpo inválido: usuario: debe ser de 3 a 40 letras, dígitos, puntos, guiones o guiones bajos.'),
    },
    {
      name: 'a login name with a space → 422',
      request: { method: 'POST', path: 'usuarios', body: { ...NEW, usuario: 'maria lopez' } },
      ...refused('Cuerpo inválido: usuario: debe ser de 3 a 40 letras, dígitos, puntos, guiones o guiones bajos.'),
    },
    {
      name: 'a password of 9 characters → 422',
      request: { method: 'POST', path: 'usuarios', body: { ...NEW, contrasena: '123456789' } },
      ...refused('Cuerpo inválido: contrasena: debe ser una contraseña de 10 a 200 caracteres.'),
    },
    {
      name: 'a password equal to the login name → 422',
      request: { method: 'POST', path: 'usuarios', body: { ...NEW, contrasena: 'MARIA.LOPEZ' } },
      ...refused(
        'La contraseña no puede ser igual al nombre de usuario. Elija otra que nadie pueda adivinar: por ejemplo, tres o cuatro palabras que no tengan relación entre sí, separadas por espacios.',
      ),
    },
    {
      name: 'an unknown warehouse → 422',
      request: { method: 'POST', path: 'usuarios', body: { ...NEW, almacenes: ['OAS', 'ZZZ'] } },
      ...refused('Almacén desconocido: ZZZ. Los registrados son OAC, OAS, OAO.'),
    },
    {
      name: 'an unknown role → 422',
      request: { method: 'POST', path: 'usuarios', body: { ...NEW, rol: 'jefe' } },
      ...refused('Cuerpo inválido: rol: debe ser operador, supervisor, finanzas o admin.'),
    },
    {
      name: 'renaming → 422',
      setup: maria,
      request: { method: 'PUT', path: 'usuarios/maria.lopez', body: { ...MARIA, usuario: 'mlopez' } },
      ...refused(
        'Los nombres de usuario no se pueden cambiar: la ruta es de maria.lopez y el cuerpo dice mlopez. Cree un usuario nuevo y desactive este.',
      ),
    },
    {
      name: 'an unknown user → 404',
      request: { method: 'PUT', path: 'usuarios/nadie', body: { activo: false } },
      status: 404,
      body: refusal('No existe el usuario nadie.'),
      database: [unchanged('the users', users), nothingWritten()],
    },
    {
      name: 'a taken name, in another case → 422',
      setup: maria,
      request: { method: 'POST', path: 'usuarios', body: { ...NEW, usuario: 'Maria.Lopez' } },
      ...refused('Ya existe el usuario Maria.Lopez (los nombres de usuario no distinguen mayúsculas).'),
    },
    {
      name: 'demoting the last active admin → 422',
      request: { method: 'PUT', path: 'usuarios/admin', body: { rol: 'supervisor' } },
      ...refused(
        'admin es el último administrador activo: cree o active otro administrador antes de cambiarle el rol.',
      ),
    },
    {
      name: 'deactivating the last active admin → 422',
      request: { method: 'PUT', path: 'usuarios/admin', body: { activo: false } },
      ...refused('admin es el último administrador activo: cree o active otro administrador antes de desactivarlo.'),
    },
    {
      name: 'create → 201 with the user, never the password',
      request: { method: 'POST', path: 'usuarios', body: NEW },
      status: 201,
      body: MARIA,
    },
    {
      name: 'an admin works in every warehouse, whatever is asked',
      request: { method: 'POST', path: 'usuarios', body: { ...NEW, rol: 'admin', almacenes: ['OAS'] } },
      status: 201,
      body: { ...MARIA, rol: 'admin', almacenes: 'todos' },
    },
    {
      name: 'the representation GET answers, sent back with a change → 200',
      setup: maria,
      request: {
        method: 'PUT',
        path: 'usuarios/MARIA.LOPEZ',
        body: { ...MARIA, rol: 'supervisor', almacenes: ['OAC', 'OAS'] },
      },
      status: 200,
      body: { ...MARIA, rol: 'supervisor', almacenes: ['OAC', 'OAS'] },
    },
    {
      name: 'demoting an admin when another is active → 200',
      setup: (service) => createAccount(service, 'admin2', 'admin'),
      request: { method: 'PUT', path: 'usuarios/admin2', body: { rol: 'operador', almacenes: ['OAC'] } },
      status: 200,
      body: {
        usuario: 'admin2',
        nombre: 'Nombre de admin2',
        rol: 'operador',
        almacenes: ['OAC'],
        activo: true,
        creado_en: '2026-11-22 10:00:00',
        ultimo_ingreso: null,
        bloqueado_hasta: null,
      },
    },
  ],
  { setup: (service) => createAccount(service, 'admin', 'admin'), as: { usuario: 'admin' } },
)

test('users: the list, by login name; every change is audited without a password', () =>
  withService({}, async (service) => {
    const cookie = await admin(service)
    await asPerson(service, cookie, 'POST', 'usuarios', NEW)
    await asPerson(service, cookie, 'PUT', 'usuarios/maria.lopez', { nombre: 'María José López' })
    await asPerson(service, cookie, 'POST', 'usuarios/maria.lopez/contrasena', { contrasena: 'otra-clave-segura' })
    const list = await asPerson(service, cookie, 'GET', 'usuarios')
    assert.deepEqual(
      list.body.map((user: { usuario: string; ultimo_ingreso: string | null }) => [user.usuario, user.ultimo_ingreso]),
      [
        ['admin', '2026-11-22 10:00:00'],
        ['maria.lopez', null],
      ],
    )
    const rows = all(
      service.db,
      service.db.query
        .selectFrom('audit_log')
        .select(['action', 'actor_usuario', 'before', 'after', 'detail'])
        .where('subject_type', '=', 'usuario')
        .orderBy('id'),
    )
    assert.deepEqual(
      rows.map((row) => [row.action, row.actor_usuario]),
      [
        ['usuario.creado', null],
        ['sesion.iniciada', 'admin'],
        ['usuario.creado', 'admin'],
        ['usuario.modificado', 'admin'],
        ['usuario.contrasena_restablecida', 'admin'],
      ],
    )
    const text = JSON.stringify(rows)
    for (const secret of [NEW.contrasena, 'otra-clave-segura', 'scrypt$'])
      assert.ok(!text.includes(secret), `the audit holds ${secret}`)
  }))

test('users: deactivating a user ends their sessions; they cannot log in', () =>
  withService({}, async (service) => {
    const cookie = await admin(service)
    await createAccount(service, 'ana', 'operador', ['OAC'])
    const anas = await sessionOf(service, 'ana')
    assert.equal((await asPerson(service, cookie, 'PUT', 'usuarios/ana', { activo: false })).status, 200)
    assert.equal((await asPerson(service, anas, 'GET', 'manifiestos')).status, 401)
    assert.equal((await logIn(service, 'ana')).status, 401)
  }))

test('users: an admin’s reset ends the user’s sessions and lifts a lockout', () =>
  withService({}, async (service) => {
    const cookie = await admin(service)
    await createAccount(service, 'ana', 'operador', ['OAC'])
    const anas = await sessionOf(service, 'ana')
    for (let i = 0; i < 5; i++) await logIn(service, 'ana', 'no-es-su-clave')
    assert.equal((await logIn(service, 'ana')).status, 429)
    assert.equal(
      (await asPerson(service, cookie, 'POST', 'usuarios/ana/contrasena', { contrasena: 'nueva-clave-de-ana' })).status,
      200,
    )
    assert.equal((await asPerson(service, anas, 'GET', 'manifiestos')).status, 401, 'her old session ended')
    assert.equal((await logIn(service, 'ana', PASSWORD)).status, 401, 'the old password no longer works')
    assert.equal((await logIn(service, 'ana', 'nueva-clave-de-ana')).status, 200, 'unlocked, with the new password')
  }))
