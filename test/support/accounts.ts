import { PasswordRules } from '../../src/accounts/password-rules.ts'
import { createUser } from '../../src/accounts/users.service.ts'
import type { Role } from '../../src/db/tables.ts'
import type { Answer } from './batches.ts'
import { TEST_PASSWORD_COST, type TestService } from './service.ts'

export const PASSWORD = 'clave-de-persona-2026'

/** Creates an account directly (as the command line does), with a cheap hash. */
export async function createAccount(
  service: TestService,
  usuario: string,
  rol: Role,
  almacenes: 'todos' | string[] = 'todos',
  nombre = `Nombre de ${usuario}`,
): Promise<void> {
  await createUser(
    {
      db: service.db,
      clock: service.clock,
      warehouses: service.config.warehouses,
      passwordCost: TEST_PASSWORD_COST,
      passwordRules: new PasswordRules(),
    },
    null,
    { usuario, nombre, rol, almacenes, contrasena: PASSWORD },
  )
}

export interface LoginAnswer {
  status: number
  body: Answer
  /** `manifiesto_sesion=…` to send back, when the login set one. */
  cookie: string | null
  setCookie: string | null
}

export async function logIn(
  service: TestService,
  usuario: string,
  contrasena = PASSWORD,
  headers: Record<string, string> = {},
): Promise<LoginAnswer> {
  const response = await service.fetch('/api/v1/sesion', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ usuario, contrasena }),
  })
  const setCookie = response.headers.get('set-cookie')
  return {
    status: response.status,
    body: (await response.json()) as Answer,
    cookie: setCookie === null ? null : setCookie.split(';')[0]!,
    setCookie,
  }
}

/** A request as a person's browser makes it from the console: the session cookie, the console's origin. */
export async function asPerson(
  service: TestService,
  cookie: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Answer }> {
  const response = await service.fetch(path.startsWith('/') ? path : `/api/v1/operador/${path}`, {
    method,
    headers: { Cookie: cookie, Origin: service.url, 'Content-Type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  return { status: response.status, body: (text === '' ? null : JSON.parse(text)) as Answer }
}

/** Logs in and returns the cookie (fails the test when the login does not succeed). */
export async function sessionOf(service: TestService, usuario: string, contrasena = PASSWORD): Promise<string> {
  const login = await logIn(service, usuario, contrasena)
  if (login.status !== 200 || login.cookie === null)
    throw new Error(`login de ${usuario}: ${login.status} ${JSON.stringify(login.body)}`)
  return login.cookie
}
