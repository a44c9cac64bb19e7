import type { StaticDecode } from 'typebox'
import { Compile } from 'typebox/compile'
import { CreateUserBody, Password } from '../accounts/accounts.schemas.ts'
import { PasswordRules } from '../accounts/password-rules.ts'
import { DEFAULT_PASSWORD_COST } from '../accounts/passwords.ts'
import {
  createUser,
  getUser,
  listUsers,
  requireNewUserAllowed,
  setUserPassword,
  unlockUser,
  type AccountsDeps,
} from '../accounts/users.service.ts'
import { systemClock } from '../core/clock.ts'
import type { LoadedConfig } from '../config/config.ts'
import { closeDatabase, openDatabase } from '../db/database.ts'
import { migrateDatabase } from '../db/migrate.ts'
import { DomainError } from '../core/errors.ts'
import { dottedPath, problemsOf } from '../schemas/schema-errors.ts'
import type { CliIo } from './io.ts'
import { readSecret, SecretCancelled } from './secret-input.ts'
import { DERIVED_VALUES } from '../app/derived-values.ts'

export interface UserCommandOptions {
  rol?: string | undefined
  nombre?: string | undefined
  almacenes?: string | undefined
  contrasenaStdin?: boolean | undefined
}

export interface CommandResult {
  code: number
  /** What to print: on stdout for code 0, on stderr otherwise. */
  lines: string[]
}

const creation = Compile(CreateUserBody)
const password = Compile(Password)

/**
 * `manifiesto usuario crear NOMBRE --rol ROL [--nombre "…"] [--almacenes OAC,OAS]`,
 * `usuario restablecer NOMBRE` (new password, sessions ended, lockout lifted),
 * `usuario desbloquear NOMBRE` (the lockout of failed logins lifted, nothing else) and `usuario listar`.
 * They open the same database file as the running service (WAL lets both write); a fresh
 * installation's database is created. The password is asked twice on the terminal without echo,
 * or read from standard input with `--contrasena-stdin`.
 * Exit codes: 0 done, 1 refused (an existing user, an unknown one, one not locked…), 2 invalid input or usage.
 */
export async function runUserCommand(
  loaded: LoadedConfig,
  action: string | undefined,
  name: string | undefined,
  options: UserCommandOptions,
  io: Pick<CliIo, 'stdin' | 'stderr'>,
): Promise<CommandResult> {
  if (action !== 'crear' && action !== 'restablecer' && action !== 'desbloquear' && action !== 'listar') {
    return {
      code: 2,
      lines: [
        'Use: manifiesto usuario crear NOMBRE --rol admin|supervisor|finanzas|operador, manifiesto usuario restablecer NOMBRE, manifiesto usuario desbloquear NOMBRE, o manifiesto usuario listar.',
      ],
    }
  }
  if (action !== 'listar' && name === undefined)
    return { code: 2, lines: [`Falta el nombre de usuario: manifiesto usuario ${action} NOMBRE`] }
  const { config } = loaded
  const db = openDatabase(config.database.path)
  try {
    migrateDatabase(db, DERIVED_VALUES)
    const deps: AccountsDeps = {
      db,
      clock: systemClock(config.dates.timezone),
      warehouses: config.warehouses,
      passwordCost: DEFAULT_PASSWORD_COST,
      passwordRules: new PasswordRules(),
    }
    if (action === 'listar') return { code: 0, lines: formatUsers(listUsers(deps)) }
    if (action === 'crear') {
      const input = {
        usuario: name!,
        nombre: options.nombre ?? name!,
        rol: options.rol ?? '',
        ...(options.almacenes === undefined
          ? {}
          : {
              almacenes:
                options.almacenes === 'todos' ? 'todos' : options.almacenes.split(',').map((code) => code.trim()),
            }),
        contrasena: 'x'.repeat(10),
      }
      const refused = refusalOf(creation, input)
      if (refused !== null) return { code: 2, lines: [refused] }
      const checked = creation.Decode(input) as StaticDecode<typeof CreateUserBody>
      requireNewUserAllowed(deps, checked.usuario, checked.rol, checked.almacenes)
      const secret = await askPassword(options, io)
      if (typeof secret !== 'string') return secret
      const user = await createUser(deps, null, { ...checked, contrasena: secret })
      return {
        code: 0,
        lines: [
          `usuario creado: ${user.usuario} (${user.nombre}), rol ${user.rol}, almacenes ${describeWarehouses(user.almacenes)}`,
        ],
      }
    }
    if (action === 'desbloquear') {
      const user = unlockUser(deps, null, name!)
      return { code: 0, lines: [`usuario desbloqueado: ${user.usuario} puede entrar ya con su contraseña`] }
    }
    getUser(deps, name!)
    const secret = await askPassword(options, io)
    if (typeof secret !== 'string') return secret
    const user = await setUserPassword(deps, null, name!, secret)
    return {
      code: 0,
      lines: [`contraseña restablecida para ${user.usuario}: sus sesiones se cerraron y quedó desbloqueado`],
    }
  } catch (error) {
    if (error instanceof SecretCancelled) return { code: 130, lines: ['Cancelado: no se cambió nada.'] }
    if (error instanceof DomainError) return { code: error.code === 'INVALID_INPUT' ? 2 : 1, lines: [error.message] }
    throw error
  } finally {
    closeDatabase(db)
  }
}

async function askPassword(
  options: UserCommandOptions,
  io: Pick<CliIo, 'stdin' | 'stderr'>,
): Promise<string | CommandResult> {
  let secret: string
  if (options.contrasenaStdin) {
    secret = (await readStandardInput(io.stdin)).replace(/\r?\n$/, '')
  } else if (io.stdin.isTTY) {
    secret = await readSecret('Contraseña (al menos 10 caracteres): ', io)
    const again = await readSecret('Repita la contraseña: ', io)
    if (again !== secret) return { code: 2, lines: ['Las contraseñas no coinciden; no se cambió nada.'] }
  } else {
    return {
      code: 2,
      lines: [
        'No hay una terminal para pedir la contraseña: use --contrasena-stdin y envíela por la entrada estándar.',
      ],
    }
  }
  const refused = refusalOf(password, secret, 'contraseña')
  return refused === null ? secret : { code: 2, lines: [refused] }
}

function refusalOf(validator: ReturnType<typeof Compile>, value: unknown, name?: string): string | null {
  if (validator.Check(value)) return null
  const problems = problemsOf(validator, value).map(
    (problem) => `${name ?? (dottedPath(problem.path) || 'valor')}: ${problem.phrase}`,
  )
  return `Datos inválidos: ${problems.join('; ')}.`
}

function readStandardInput(input: CliIo['stdin']): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = ''
    input.setEncoding('utf8')
    input.on('data', (chunk: string) => (text += chunk))
    input.once('end', () => resolve(text))
    input.once('error', reject)
  })
}

function formatUsers(users: ReturnType<typeof listUsers>): string[] {
  if (users.length === 0)
    return ['No hay usuarios. Cree el primer administrador: manifiesto usuario crear admin --rol admin']
  return users.map(
    (user) =>
      `${user.usuario.padEnd(20)} ${user.rol.padEnd(10)} ${user.activo ? 'activo  ' : 'inactivo'} ${describeWarehouses(user.almacenes).padEnd(16)} ${user.nombre}` +
      (user.bloqueado_hasta === null
        ? ''
        : ` (bloqueado hasta ${user.bloqueado_hasta}: manifiesto usuario desbloquear ${user.usuario})`),
  )
}

function describeWarehouses(almacenes: 'todos' | string[]): string {
  return almacenes === 'todos' ? 'todos' : almacenes.join(',')
}
