import type { Database } from './database.ts'
import { LATEST_SCHEMA_VERSION, MIGRATIONS, type Migration } from './migrations.ts'

/** The database was written by a newer manifiesto; running an older one on it is refused. */
export class DatabaseTooNewError extends Error {
  override readonly name = 'DatabaseTooNewError'
}

export interface MigrationResult {
  from: number
  to: number
}

/**
 * Brings the schema forward to the latest version, one migration per transaction, and records
 * each in `PRAGMA user_version`. A failed migration rolls back and is rethrown, never swallowed.
 * @throws DatabaseTooNewError when the file's version is newer than this build knows.
 */
export function migrateDatabase(db: Database, migrations: readonly Migration[] = MIGRATIONS): MigrationResult {
  const from = schemaVersion(db)
  const latest = migrations.length === 0 ? 0 : migrations[migrations.length - 1]!.version
  if (from > latest) {
    throw new DatabaseTooNewError(
      `La base de datos ${db.path} tiene el esquema versión ${from}, escrito por una versión más nueva de manifiesto; ` +
        `esta versión solo conoce hasta la ${latest}. Instale la versión más nueva (nunca se migra hacia atrás).`,
    )
  }
  for (const migration of migrations) {
    if (migration.version <= from) continue
    db.sqlite.transaction(() => {
      db.sqlite.exec(migration.sql)
      db.sqlite.pragma(`user_version = ${Number(migration.version)}`)
    }).immediate()
  }
  return { from, to: Math.max(from, latest) }
}

export function schemaVersion(db: Database): number {
  return db.sqlite.pragma('user_version', { simple: true }) as number
}

export { LATEST_SCHEMA_VERSION }
