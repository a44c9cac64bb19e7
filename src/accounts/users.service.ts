import type { StaticDecode } from 'typebox'
import { auditedBy, type Actor } from '../access/actor.ts'
import { insertAuditEntry } from '../audit/audit.store.ts'
import { formatLocalDateTime, nowMillis, toStoredInstant, type Clock } from '../core/clock.ts'
import { transaction, type Database } from '../db/database.ts'
import type { Role } from '../db/tables.ts'
import { DomainError, invalidInput, notFound } from '../core/errors.ts'
import type { CreateUserBody, UpdateUserBody, UserView } from './accounts.schemas.ts'
import {
  countActiveAdmins,
  deleteLockout,
  deleteUserSessions,
  findLockout,
  findUser,
  findUsers,
  insertUser,
  updateUser,
  type UserRow,
} from './accounts.store.ts'
import type { PasswordRules } from './password-rules.ts'
import { hashPassword, type PasswordCost } from './passwords.ts'

export interface AccountsDeps {
  db: Database
  clock: Clock
  /** The registered warehouse codes (`warehouses` of the configuration). */
  warehouses: readonly string[]
  passwordCost: PasswordCost
  /** What a new password must not be (its lists are read at the first check). */
  passwordRules: PasswordRules
}

export function listUsers(deps: AccountsDeps): UserView[] {
  return findUsers(deps.db).map((row) => toUserView(deps.clock, row))
}

/**
 * Creates an account with its initial password; audited (never the password). An admin works in
 * every warehouse. @throws DomainError INVALID_INPUT for a taken name, an unknown warehouse, or a
 * password against the rules (password-rules.ts).
 */
export async function createUser(
  deps: AccountsDeps,
  actor: Actor | null,
  input: StaticDecode<typeof CreateUserBody>,
): Promise<UserView> {
  await deps.passwordRules.require(input.usuario, input.contrasena)
  const almacenes = requireNewUserAllowed(deps, input.usuario, input.rol, input.almacenes)
  const hash = await hashPassword(input.contrasena, deps.passwordCost)
  const { db, clock } = deps
  return transaction(db, () => {
    requireNewUserAllowed(deps, input.usuario, input.rol, input.almacenes)
    const at = toStoredInstant(clock.now())
    insertUser(db, {
      usuario: input.usuario,
      nombre: input.nombre.trim(),
      rol: input.rol,
      almacenes: JSON.stringify(almacenes),
      activo: 1,
      password_hash: hash,
      created_at: at,
      updated_at: null,
      last_login_at: null,
    })
    const view = toUserView(clock, findUser(db, input.usuario)!)
    insertAuditEntry(db, {
      at,
      ...auditor(actor),
      action: 'usuario.creado',
      subjectType: 'usuario',
      subjectId: view.usuario,
      after: JSON.stringify(view),
    })
    return view
  })
}

/**
 * Changes a user's name, role, warehouses or active flag; audited. Deactivating ends the user's
 * sessions. @throws DomainError NOT_FOUND; INVALID_INPUT when it would leave no active admin, renames
 * the user, or names an unknown warehouse.
 */
export function changeUser(
  deps: AccountsDeps,
  actor: Actor,
  usuario: string,
  input: StaticDecode<typeof UpdateUserBody>,
): UserView {
  const { db, clock } = deps
  return transaction(db, () => {
    const row = requireUser(db, usuario)
    if (input.usuario !== undefined && input.usuario.toLowerCase() !== row.usuario.toLowerCase()) {
      throw invalidInput(
        `Los nombres de usuario no se pueden cambiar: la ruta es de ${row.usuario} y el cuerpo dice ${input.usuario}. Cree un usuario nuevo y desactive este.`,
      )
    }
    const rol = input.rol ?? row.rol
    const activo = input.activo ?? row.activo === 1
    if (row.rol === 'admin' && row.activo === 1 && (rol !== 'admin' || !activo) && countActiveAdmins(db) <= 1) {
      throw invalidInput(
        `${row.usuario} es el último administrador activo: cree o active otro administrador antes de ${activo ? 'cambiarle el rol' : 'desactivarlo'}.`,
      )
    }
    const almacenes =
      input.almacenes !== undefined || input.rol !== undefined
        ? warehousesFor(deps, rol, input.almacenes ?? parseWarehouses(row.almacenes))
        : parseWarehouses(row.almacenes)
    const before = toUserView(clock, row)
    const at = toStoredInstant(clock.now())
    updateUser(db, row.id, {
      nombre: input.nombre?.trim() ?? row.nombre,
      rol,
      almacenes: JSON.stringify(almacenes),
      activo: activo ? 1 : 0,
      updated_at: at,
    })
    if (!activo) deleteUserSessions(db, row.id)
    const after = toUserView(clock, requireUser(db, usuario))
    insertAuditEntry(db, {
      at,
      ...auditedBy(actor),
      action: 'usuario.modificado',
      subjectType: 'usuario',
      subjectId: row.usuario,
      before: JSON.stringify(before),
      after: JSON.stringify(after),
    })
    return after
  })
}

/**
 * Sets a new password for a user (an admin's reset, or the command line's): ends the user's
 * sessions and lifts a login lockout; audited without the password.
 * @throws DomainError NOT_FOUND; INVALID_INPUT for a password against the rules (password-rules.ts).
 */
export async function setUserPassword(
  deps: AccountsDeps,
  actor: Actor | null,
  usuario: string,
  password: string,
): Promise<UserView> {
  const existing = findUser(deps.db, usuario)
  if (!existing) throw userNotFound(usuario)
  await deps.passwordRules.require(existing.usuario, password)
  const hash = await hashPassword(password, deps.passwordCost)
  const { db, clock } = deps
  return transaction(db, () => {
    const row = requireUser(db, usuario)
    const at = toStoredInstant(clock.now())
    updateUser(db, row.id, { password_hash: hash, updated_at: at })
    const ended = deleteUserSessions(db, row.id)
    deleteLockout(db, row.usuario.toLowerCase())
    insertAuditEntry(db, {
      at,
      ...auditor(actor),
      action: 'usuario.contrasena_restablecida',
      subjectType: 'usuario',
      subjectId: row.usuario,
      detail: { sesiones_terminadas: ended },
    })
    return toUserView(clock, row)
  })
}

/**
 * Lifts the lockout that failed logins put on an account (5 in 15 minutes lock it for 15 minutes)
 * before it ends: the person can log in at once with their password, and the failures counted are
 * forgotten. Sessions and password stay as they are. Audited (`usuario.desbloqueado`, with the end
 * the lock had and the failures).
 * @throws DomainError NOT_FOUND; INVALID_TRANSITION (422) when the account is not locked — nothing to lift.
 */
export function unlockUser(deps: Pick<AccountsDeps, 'db' | 'clock'>, actor: Actor | null, usuario: string): UserView {
  const { db, clock } = deps
  return transaction(db, () => {
    const row = requireUser(db, usuario)
    const lockout = findLockout(db, row.usuario.toLowerCase())
    if (lockout === undefined || !isLocked(clock, lockout.locked_until)) {
      throw new DomainError(
        'INVALID_TRANSITION',
        `El usuario ${row.usuario} no está bloqueado: puede entrar con su contraseña. Si la olvidó, póngale una contraseña nueva.`,
      )
    }
    deleteLockout(db, lockout.usuario_key)
    const at = toStoredInstant(clock.now())
    insertAuditEntry(db, {
      at,
      ...auditor(actor),
      action: 'usuario.desbloqueado',
      subjectType: 'usuario',
      subjectId: row.usuario,
      detail: {
        bloqueado_hasta: formatLocalDateTime(clock, lockout.locked_until!),
        intentos_fallidos: lockout.failures,
      },
    })
    return toUserView(clock, requireUser(db, usuario))
  })
}

/**
 * A new user may be created with that name (not taken, ignoring case) and warehouses (known);
 * checked again inside the creation's transaction. @returns the warehouses to store.
 * @throws DomainError INVALID_INPUT
 */
export function requireNewUserAllowed(
  deps: Pick<AccountsDeps, 'db' | 'warehouses'>,
  usuario: string,
  rol: Role,
  almacenes: 'todos' | string[] | undefined,
): 'todos' | string[] {
  if (findUser(deps.db, usuario))
    throw invalidInput(`Ya existe el usuario ${usuario} (los nombres de usuario no distinguen mayúsculas).`)
  return warehousesFor(deps, rol, almacenes)
}

/** @throws DomainError NOT_FOUND */
export function getUser(deps: Pick<AccountsDeps, 'db' | 'clock'>, usuario: string): UserView {
  return toUserView(deps.clock, requireUser(deps.db, usuario))
}

/** How many active admins exist (the start-up log says how to create the first one). */
export function countAdministrators(deps: Pick<AccountsDeps, 'db'>): number {
  return countActiveAdmins(deps.db)
}

export function toUserView(clock: Clock, row: UserRow): UserView {
  return {
    usuario: row.usuario,
    nombre: row.nombre,
    rol: row.rol,
    almacenes: parseWarehouses(row.almacenes),
    activo: row.activo === 1,
    creado_en: formatLocalDateTime(clock, row.created_at),
    ultimo_ingreso: row.last_login_at === null ? null : formatLocalDateTime(clock, row.last_login_at),
    bloqueado_hasta: isLocked(clock, row.locked_until) ? formatLocalDateTime(clock, row.locked_until!) : null,
  }
}

/** A lockout's end (a stored instant) that is still to come. */
export function isLocked(clock: Clock, lockedUntil: string | null | undefined): boolean {
  return lockedUntil != null && Date.parse(lockedUntil) > nowMillis(clock)
}

/** Stored warehouses: a JSON array of codes, or "todos". */
export function parseWarehouses(text: string): 'todos' | string[] {
  const value = JSON.parse(text) as unknown
  return Array.isArray(value) ? (value as string[]) : 'todos'
}

function warehousesFor(
  deps: Pick<AccountsDeps, 'warehouses'>,
  rol: Role,
  requested: 'todos' | string[] | undefined,
): 'todos' | string[] {
  if (rol === 'admin' || requested === undefined || requested === 'todos') return 'todos'
  const unknown = requested.filter((code) => !deps.warehouses.includes(code))
  if (unknown.length > 0) {
    throw invalidInput(`Almacén desconocido: ${unknown.join(', ')}. Los registrados son ${deps.warehouses.join(', ')}.`)
  }
  return requested
}

function requireUser(db: Database, usuario: string): UserRow {
  const row = findUser(db, usuario)
  if (!row) throw userNotFound(usuario)
  return row
}

function userNotFound(usuario: string): DomainError {
  return notFound(`No existe el usuario ${usuario}.`)
}

/** The command line acts as the administrator of the server itself. */
function auditor(actor: Actor | null): { actor: string; actorUsuario: string | null } {
  return actor === null ? { actor: 'línea de comandos', actorUsuario: null } : auditedBy(actor)
}
