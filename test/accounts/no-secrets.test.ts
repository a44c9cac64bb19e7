import assert from 'node:assert/strict'
import { test } from 'node:test'
import { asPerson, createAccount, logIn, PASSWORD, sessionOf } from '../support/accounts.ts'
import { withService } from '../support/service.ts'

test('accounts: after a full scenario no password, session token or hash is in the log; the log names the user', () =>
  withService({ config: { log: { level: 'debug' } } }, async (service) => {
    const passwords = [
      PASSWORD,
      'clave-inicial-de-eva',
      'clave-propia-de-eva',
      'clave-puesta-por-admin',
      'intento-equivocado-1',
    ]
    await createAccount(service, 'admin', 'admin')
    const admin = await sessionOf(service, 'admin')
    await asPerson(service, admin, 'POST', 'usuarios', {
      usuario: 'eva',
      nombre: 'Eva',
      rol: 'operador',
      almacenes: ['OAC'],
      contrasena: passwords[1],
    })
    await logIn(service, 'eva', passwords[4])
    const eva = await sessionOf(service, 'eva', passwords[1])
    await asPerson(service, eva, 'POST', '/api/v1/sesion/contrasena', { actual: passwords[1], nueva: passwords[2] })
    await asPerson(service, admin, 'POST', 'usuarios/eva/contrasena', { contrasena: passwords[3] })
    const again = await sessionOf(service, 'eva', passwords[3])
    await asPerson(service, again, 'GET', 'manifiestos')
    await service.fetch('/api/v1/sesion', { method: 'DELETE', headers: { Cookie: again, Origin: service.url } })
    for (let i = 0; i < 50 && service.logLines().filter((line) => line.msg === 'request').length < 8; i++)
      await new Promise((resolve) => setTimeout(resolve, 10))
    const text = service.logText()
    for (const secret of [...passwords, admin.split('=')[1]!, eva.split('=')[1]!, again.split('=')[1]!, 'scrypt$']) {
      assert.ok(!text.includes(secret), `the log contains ${secret.slice(0, 12)}…`)
    }
    const requests = service
      .logLines()
      .filter((line) => line.msg === 'request' && line.path === '/api/v1/operador/manifiestos')
    assert.equal(requests[0]?.usuario, 'eva', 'the request line names the person')
  }))
