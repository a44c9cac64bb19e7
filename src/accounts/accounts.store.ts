import type { Selectable } from 'kysely'
import { sql } from 'kysely'
import { all, first, run, type Database } from '../db/database.ts'
import type { LoginLockoutTable, UserTable } from '../db/tables.ts'

/** A user, with the end of its login lockout when one was recorded (past or not: the caller compares it with its clock). */
export type UserRow = Selectable<UserTable> & { locked_until: string | null }

export function findUsers(db: Database): UserRow[] {
  return all(db, users(db).orderBy(sql`u.usuario COLLATE NOCASE`))
}

/** The user with that login name, ignoring case. */
export function findUser(db: Database, usuario: string): UserRow | undefined {
  return first(db, users(db).where(sql<boolean>`u.usuario = ${usuario} COLLATE NOCASE`))
}

/** Lockouts are keyed by the lower-case name (login names are ASCII, so SQLite's lower() agrees with JavaScript's). */
function users(db: Database) {
  return db.query
    .selectFrom('users as u')
    .leftJoin('login_lockouts as l', (join) => join.on(sql`l.usuario_key`, '=', sql`lower(u.usuario)`))
    .selectAll('u')
    .select('l.locked_until')
}

export function insertUser(db: Database, row: Omit<UserTable, 'id'>): number {
  return Number(run(db, db.query.insertInto('users').values(row)).lastInsertRowid)
}

export function updateUser(
  db: Database,
  id: number,
  changes: Partial<Omit<UserTable, 'id' | 'usuario' | 'created_at'>>,
): void {
  run(db, db.query.updateTable('users').set(changes).where('id', '=', id))
}

export function countActiveAdmins(db: Database): number {
  return Number(
    first(
      db,
      db.query
        .selectFrom('users')
        .select(sql<number>`count(*)`.as('n'))
        .where('rol', '=', 'admin')
        .where('activo', '=', 1),
    )?.n ?? 0,
  )
}

/** A session with its user, by the SHA-256 of its token. */
export function findSession(db: Database, tokenHash: string) {
  return first(
    db,
    db.query
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select([
        's.token_hash',
        's.created_at',
        's.last_used_at',
        'u.id as user_id',
        'u.usuario',
        'u.nombre',
        'u.rol',
        'u.almacenes',
        'u.activo',
      ])
      .where('s.token_hash', '=', tokenHash),
  )
}

export function insertSession(
  db: Database,
  row: { token_hash: string; user_id: number; created_at: string; last_used_at: string; ip: string },
): void {
  run(db, db.query.insertInto('sessions').values(row))
}

export function touchSession(db: Database, tokenHash: string, at: string): void {
  run(db, db.query.updateTable('sessions').set({ last_used_at: at }).where('token_hash', '=', tokenHash))
}

export function deleteSession(db: Database, tokenHash: string): void {
  run(db, db.query.deleteFrom('sessions').where('token_hash', '=', tokenHash))
}

/** Ends a user's sessions, except the one with `keepTokenHash` when given. */
export function deleteUserSessions(db: Database, userId: number, keepTokenHash?: string): number {
  let query = db.query.deleteFrom('sessions').where('user_id', '=', userId)
  if (keepTokenHash !== undefined) query = query.where('token_hash', '<>', keepTokenHash)
  return run(db, query).changes
}

/** Sessions idle since before `idleCutoff`, or begun before `absoluteCutoff` (stored instants). */
export function deleteExpiredSessions(db: Database, idleCutoff: string, absoluteCutoff: string): number {
  return run(
    db,
    db.query
      .deleteFrom('sessions')
      .where((eb) => eb.or([eb('last_used_at', '<', idleCutoff), eb('created_at', '<', absoluteCutoff)])),
  ).changes
}

export function findLockout(db: Database, usuarioKey: string): LoginLockoutTable | undefined {
  return first(db, db.query.selectFrom('login_lockouts').selectAll().where('usuario_key', '=', usuarioKey))
}

export function saveLockout(db: Database, row: LoginLockoutTable): void {
  run(
    db,
    db.query
      .insertInto('login_lockouts')
      .values(row)
      .onConflict((conflict) =>
        conflict
          .column('usuario_key')
          .doUpdateSet({ failures: row.failures, window_start: row.window_start, locked_until: row.locked_until }),
      ),
  )
}

export function deleteLockout(db: Database, usuarioKey: string): void {
  run(db, db.query.deleteFrom('login_lockouts').where('usuario_key', '=', usuarioKey))
}

/** Failure windows and lockouts that ended before `cutoff`: nothing left to remember. */
export function deleteStaleLockouts(db: Database, cutoff: string): number {
  return run(
    db,
    db.query
      .deleteFrom('login_lockouts')
      .where('window_start', '<', cutoff)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', cutoff)])),
  ).changes
}
