import { createHash, randomBytes } from 'node:crypto'
import type { Actor } from '../access/actor.ts'
import { insertAuditEntry } from '../audit/audit.store.ts'
import { nowMillis, toStoredInstant, type Clock } from '../core/clock.ts'
import type { Config } from '../config/config.ts'
import { transaction, type Database } from '../db/database.ts'
import { DomainError, invalidInput } from '../core/errors.ts'
import type { SessionView } from './accounts.schemas.ts'
import {
  deleteExpiredSessions,
  deleteLockout,
  deleteSession,
  deleteStaleLockouts,
  deleteUserSessions,
  findLockout,
  findSession,
  findUser,
  insertSession,
  saveLockout,
  touchSession,
  updateUser,
} from './accounts.store.ts'
import type { PasswordRules } from './password-rules.ts'
import { hashPassword, verifyPassword, type PasswordCost } from './passwords.ts'
import { parseWarehouses } from './users.service.ts'

export interface SessionDeps {
  db: Database
  clock: Clock
  settings: Pick<Config['auth'], 'sessionIdleHours' | 'sessionMaxDays'>
  passwordCost: PasswordCost
}

/** Failed logins per name before the name is locked, the window they count in, and the lock. */
const MAX_FAILURES = 5
const FAILURE_WINDOW_MS = 15 * 60_000
const LOCK_MS = 15 * 60_000
/** A session's last use is written at most once a minute (not on every request). */
const TOUCH_EVERY_MS = 60_000

export const WRONG_LOGIN = 'Usuario o contraseña incorrectos.'

export interface Login {
  user: SessionView
  /** The session token for the cookie (only its hash is stored). */
  token: string
}

/**
 * Logs a person in: a wrong name and a wrong password get the same answer after the same work.
 * After 5 failures in 15 minutes a name is locked for 15 minutes, a right password included.
 * Failures and lockouts are audited with the IP; a hash of an older cost is redone.
 * @throws DomainError UNAUTHORIZED (401) or RATE_LIMITED (429, Retry-After).
 */
export async function logIn(deps: SessionDeps, usuario: string, password: string, ip: string): Promise<Login> {
  const { db, clock } = deps
  const key = usuario.trim().toLowerCase()
  requireNotLocked(deps, key)
  const user = findUser(db, usuario.trim())
  const usable = user !== undefined && user.activo === 1
  const verdict = await verifyPassword(password, usable ? user.password_hash : null, deps.passwordCost)
  if (!usable || !verdict.ok) {
    recordFailure(deps, key, usuario.trim().slice(0, 100), ip)
    throw new DomainError('UNAUTHORIZED', WRONG_LOGIN)
  }
  const rehashed = verdict.needsRehash ? await hashPassword(password, deps.passwordCost) : null
  const token = randomBytes(32).toString('base64url')
  const at = toStoredInstant(clock.now())
  transaction(db, () => {
    deleteLockout(db, key)
    updateUser(db, user.id, { last_login_at: at, ...(rehashed === null ? {} : { password_hash: rehashed }) })
    insertSession(db, { token_hash: tokenHash(token), user_id: user.id, created_at: at, last_used_at: at, ip })
    insertAuditEntry(db, {
      at,
      actor: user.nombre,
      actorUsuario: user.usuario,
      action: 'sesion.iniciada',
      subjectType: 'usuario',
      subjectId: user.usuario,
      detail: { ip },
    })
  })
  return {
    user: { usuario: user.usuario, nombre: user.nombre, rol: user.rol, almacenes: parseWarehouses(user.almacenes) },
    token,
  }
}

/**
 * The person a session token belongs to, or null when it is unknown, idle longer than
 * `auth.sessionIdleHours`, older than `auth.sessionMaxDays`, or its user was deactivated.
 */
export function actorOfSession(deps: SessionDeps, token: string): Actor | null {
  const { db, clock } = deps
  const hash = tokenHash(token)
  const session = findSession(db, hash)
  if (session === undefined) return null
  const now = nowMillis(clock)
  const idle = now - Date.parse(session.last_used_at) > deps.settings.sessionIdleHours * 3_600_000
  const tooOld = now - Date.parse(session.created_at) > deps.settings.sessionMaxDays * 86_400_000
  if (idle || tooOld || session.activo !== 1) {
    deleteSession(db, hash)
    return null
  }
  if (now - Date.parse(session.last_used_at) > TOUCH_EVERY_MS) touchSession(db, hash, toStoredInstant(clock.now()))
  const almacenes = parseWarehouses(session.almacenes)
  return {
    kind: 'persona',
    nombre: session.nombre,
    usuario: session.usuario,
    rol: session.rol,
    almacenes: almacenes === 'todos' ? null : almacenes,
  }
}

/** The person of a valid session, as the console shows it. */
export function sessionViewOf(actor: Actor): SessionView {
  return {
    usuario: actor.usuario ?? '',
    nombre: actor.nombre,
    rol: actor.rol,
    almacenes: actor.almacenes === null ? 'todos' : [...actor.almacenes],
  }
}

export function logOut(deps: Pick<SessionDeps, 'db'>, token: string): void {
  deleteSession(deps.db, tokenHash(token))
}

/**
 * Changes one's own password (the current one is asked again) and ends one's other sessions.
 * @throws DomainError INVALID_INPUT for a wrong current password or a password against the rules.
 */
export async function changeOwnPassword(
  deps: SessionDeps & { passwordRules: PasswordRules },
  actor: Actor,
  token: string,
  current: string,
  next: string,
): Promise<void> {
  const user = findUser(deps.db, actor.usuario ?? '')
  if (user === undefined) throw new DomainError('UNAUTHORIZED', 'La sesión ya no es válida: inicie sesión de nuevo.')
  const verdict = await verifyPassword(current, user.password_hash, deps.passwordCost)
  if (!verdict.ok) throw invalidInput('La contraseña actual no es correcta.')
  await deps.passwordRules.require(user.usuario, next)
  if (next === current) throw invalidInput('La contraseña nueva debe ser distinta de la actual.')
  const hash = await hashPassword(next, deps.passwordCost)
  const at = toStoredInstant(deps.clock.now())
  transaction(deps.db, () => {
    updateUser(deps.db, user.id, { password_hash: hash, updated_at: at })
    const ended = deleteUserSessions(deps.db, user.id, tokenHash(token))
    insertAuditEntry(deps.db, {
      at,
      actor: user.nombre,
      actorUsuario: user.usuario,
      action: 'usuario.contrasena_cambiada',
      subjectType: 'usuario',
      subjectId: user.usuario,
      detail: { otras_sesiones_terminadas: ended },
    })
  })
}

/** Daily: forgets expired sessions and ended login lockouts. @returns sessions removed. */
export function pruneSessions(deps: SessionDeps): number {
  const now = deps.clock.now()
  const idleCutoff = toStoredInstant(now.minusMillis(deps.settings.sessionIdleHours * 3_600_000))
  const absoluteCutoff = toStoredInstant(now.minusMillis(deps.settings.sessionMaxDays * 86_400_000))
  return transaction(deps.db, () => {
    deleteStaleLockouts(deps.db, toStoredInstant(now.minusMillis(FAILURE_WINDOW_MS + LOCK_MS)))
    return deleteExpiredSessions(deps.db, idleCutoff, absoluteCutoff)
  })
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

function requireNotLocked(deps: SessionDeps, key: string): void {
  const lockout = findLockout(deps.db, key)
  if (lockout?.locked_until == null) return
  const remaining = Date.parse(lockout.locked_until) - nowMillis(deps.clock)
  if (remaining <= 0) return
  const seconds = Math.ceil(remaining / 1000)
  throw new DomainError(
    'RATE_LIMITED',
    `Demasiados intentos fallidos para este usuario: espere ${Math.ceil(seconds / 60)} minuto(s) antes de volver a intentar, o pida al administrador que lo desbloquee.`,
    {},
    { 'Retry-After': String(seconds) },
  )
}

/** Counts a failure for the name (known or not, so a lockout reveals nothing); audited with the IP. */
function recordFailure(deps: SessionDeps, key: string, attempted: string, ip: string): void {
  const { db, clock } = deps
  const now = nowMillis(clock)
  const at = toStoredInstant(clock.now())
  transaction(db, () => {
    const previous = findLockout(db, key)
    const fresh = previous === undefined || now - Date.parse(previous.window_start) > FAILURE_WINDOW_MS
    const failures = fresh ? 1 : previous.failures + 1
    const locked = failures >= MAX_FAILURES
    saveLockout(db, {
      usuario_key: key,
      failures,
      window_start: fresh ? at : previous.window_start,
      locked_until: locked ? toStoredInstant(clock.now().plusMillis(LOCK_MS)) : null,
    })
    insertAuditEntry(db, {
      at,
      actor: 'sistema',
      action: 'sesion.fallida',
      subjectType: 'usuario',
      subjectId: attempted,
      detail: { ip, intentos: failures },
    })
    if (locked)
      insertAuditEntry(db, {
        at,
        actor: 'sistema',
        action: 'sesion.bloqueada',
        subjectType: 'usuario',
        subjectId: attempted,
        detail: { ip, minutos: LOCK_MS / 60_000 },
      })
  })
}
