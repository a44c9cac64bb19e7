import type { Database } from './database.ts'
import {
  LATEST_SCHEMA_VERSION,
  MANIFIESTO_APPLICATION_ID,
  MIGRATIONS,
  type DerivedValues,
  type Migration,
} from './migrations/index.ts'

/** The database was written by a newer manifiesto; running an older one on it is refused. */
export class DatabaseTooNewError extends Error {
  override readonly name = 'DatabaseTooNewError'
}

/** The file is a SQLite database of another program (or not one at all): never written into. */
export class ForeignDatabaseError extends Error {
  override readonly name = 'ForeignDatabaseError'
}

export interface MigrationResult {
  from: number
  to: number
}

/**
 * Brings the schema forward to the latest version, one migration per transaction, and records
 * each in `PRAGMA user_version`. A failed migration rolls back and is rethrown, never swallowed.
 * `derive` computes what a back-fill needs of the features' code (src/app/derived-values.ts).
 * @throws DatabaseTooNewError when the file's version is newer than this build knows.
 */
export function migrateDatabase(
  db: Database,
  derive: DerivedValues,
  migrations: readonly Migration[] = MIGRATIONS,
): MigrationResult {
  const foreign = foreignDatabaseProblem(db)
  if (foreign !== null) {
    throw new ForeignDatabaseError(
      `${db.path} no es una base de datos de manifiesto: ${foreign}. Revise database.path; manifiesto no escribe en ella.`,
    )
  }
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
    db.sqlite
      .transaction(() => {
        db.sqlite.exec(migration.sql)
        migration.step?.(db, derive)
        db.sqlite.pragma(`user_version = ${Number(migration.version)}`)
      })
      .immediate()
  }
  return { from, to: Math.max(from, latest) }
}

export function schemaVersion(db: Database): number {
  return db.sqlite.pragma('user_version', { simple: true }) as number
}

export { LATEST_SCHEMA_VERSION }

/**
 * Why the file is not a manifiesto database, or null when it is one (or is new and empty).
 * Ours carry application_id "MANI" (from schema version 3) or, written before that, the version
 * and tables of our migrations; an empty file or database is new.
 */
export function foreignDatabaseProblem(db: Database): string | null {
  const applicationId = db.sqlite.pragma('application_id', { simple: true }) as number
  if (applicationId === MANIFIESTO_APPLICATION_ID) return null
  if (applicationId !== 0) return `su cabecera la marca como de otro programa (application_id ${applicationId})`
  const tables = db.sqlite
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .pluck()
    .all() as string[]
  if (tables.length === 0) return null
  const ours = ['batches', 'invoices', 'manifests']
  if (schemaVersion(db) >= 1 && ours.every((table) => tables.includes(table))) return null
  return `es una base de datos SQLite de otro programa (tablas: ${tables.slice(0, 8).join(', ')}${tables.length > 8 ? ', …' : ''})`
}
