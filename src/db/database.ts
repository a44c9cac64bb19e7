import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, type Compilable } from 'kysely'
import { LRUCache } from 'lru-cache'
import { DatabaseFileGoneError } from '../core/errors.ts'
import { matchesSearch } from '../shared/search-terms.ts'
import { nativeAddon } from './native-addon.ts'
import { openToRead } from './open-to-read.ts'
import type { Tables } from './tables.ts'

/**
 * The one database handle. Kysely only builds queries here; they run synchronously on
 * better-sqlite3 through `all`/`first`/`run`, so a whole batch fits in one synchronous
 * transaction (no awaits, no interleaving, and nothing else can write meanwhile).
 */
export interface Database {
  readonly path: string
  readonly sqlite: BetterSqlite3.Database
  /** Query builder: build with it, execute with `all`, `first` or `run`. */
  readonly query: Kysely<Tables>
  readonly statements: LRUCache<string, BetterSqlite3.Statement>
  /** The file's device and inode when it was opened (null in memory), to notice it being deleted or replaced. */
  readonly identity: FileIdentity | null
}

export interface FileIdentity {
  dev: number
  ino: number
}

export interface OpenDatabaseOptions {
  /** Only to read it (`check`, `backup`, `restaurar`): nothing can be written, nothing is left in its folder. */
  readonly?: boolean
  /** Refuse to create the file (commands that work on an existing database). */
  mustExist?: boolean
}

/**
 * Opens (creating the file and its folder when needed) with the pragmas of contract §5:
 * WAL, synchronous=FULL (a batch's commit survives power loss), foreign keys, busy timeout.
 */
export function openDatabase(path: string, options: OpenDatabaseOptions = {}): Database {
  const mustExist = options.readonly === true || options.mustExist === true
  const addon = nativeAddon()
  if (!mustExist && path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  if (!options.readonly && path !== ':memory:') requireWritable(path)
  // Only to read (the commands): nothing left behind in its folder (open-to-read.ts).
  const sqlite = options.readonly
    ? openToRead(path, addon)
    : new BetterSqlite3(path, {
        fileMustExist: mustExist,
        // In the single executable the addon comes from its assets; the types only know a path.
        ...(addon === undefined ? {} : { nativeBinding: addon as unknown as string }),
      })
  if (!options.readonly) sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('synchronous = FULL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  sqlite.pragma('cache_size = -65536')
  registerSearchFunction(sqlite)
  return {
    path,
    sqlite,
    query: createQueryBuilder(),
    statements: new LRUCache({ max: 500 }),
    identity: path === ':memory:' ? null : identityOf(path),
  }
}

/**
 * `matches_search(text, terms)`: whether `text` matches a search's words (a JSON array made by
 * src/shared/search-terms.ts `searchTerms`), as every search matches. For filters over a few rows
 * or over text the invoice search index does not hold (who acted, in the audit log). Used only in
 * queries, never in a trigger or the schema: another program opening the file does not need it.
 */
function registerSearchFunction(sqlite: BetterSqlite3.Database): void {
  const cache = new Map<string, string[]>()
  sqlite.function('matches_search', { deterministic: true }, (text: unknown, terms: unknown) => {
    if (typeof text !== 'string' || typeof terms !== 'string') return 0
    let words = cache.get(terms)
    if (words === undefined) {
      words = JSON.parse(terms) as string[]
      if (cache.size > 100) cache.clear()
      cache.set(terms, words)
    }
    return matchesSearch(text, words) ? 1 : 0
  })
}

/**
 * Why the file SQLite has open is no longer the one at `path` (deleted, moved, replaced or
 * truncated under the running service), or null when it still is. Only `stat` is used: opening and
 * closing any descriptor of the database file would drop every POSIX lock SQLite holds on it, and
 * the next outside reader would then delete the live write-ahead log (contract §9).
 */
export function databaseFileProblem(db: Database): string | null {
  if (db.identity === null) return null
  let stats
  try {
    stats = statSync(db.path)
  } catch (error) {
    return `el archivo ${db.path} ya no existe (${(error as NodeJS.ErrnoException).code ?? 'error'}): se borró o se movió con el servicio en marcha`
  }
  if (stats.dev !== db.identity.dev || stats.ino !== db.identity.ino || stats.nlink === 0) {
    return `el archivo ${db.path} fue reemplazado por otro con el servicio en marcha`
  }
  const pageSize = db.sqlite.pragma('page_size', { simple: true }) as number
  if (stats.size < pageSize || stats.size % pageSize !== 0) {
    return `el archivo ${db.path} fue truncado o sobrescrito (${stats.size} bytes no es un múltiplo de la página de ${pageSize})`
  }
  return null
}

/** The folder, the file or its -wal/-shm cannot be written (read-only file system, immutable, permissions). */
export class DatabaseNotWritableError extends Error {
  override readonly name = 'DatabaseNotWritableError'

  constructor(
    readonly path: string,
    readonly code: string,
  ) {
    super(`no se puede escribir en ${path} (${code})`)
  }
}

/**
 * SQLite in WAL mode writes the folder (-wal and -shm are created there), the file and its -wal
 * and -shm; when any of them cannot be written it fails later and less clearly (a -shm it may
 * only read is mapped read-only). `access` checks them without opening them.
 */
function requireWritable(path: string): void {
  for (const candidate of [dirname(path), path, `${path}-wal`, `${path}-shm`]) {
    if (!existsSync(candidate)) continue
    try {
      accessSync(candidate, constants.W_OK)
    } catch (error) {
      throw new DatabaseNotWritableError(candidate, (error as NodeJS.ErrnoException).code ?? 'error')
    }
  }
}

function identityOf(path: string): FileIdentity {
  const stats = statSync(path)
  return { dev: stats.dev, ino: stats.ino }
}

/** The SQLite library's version (`manifiesto version`). */
export function sqliteVersion(): string {
  const db = openDatabase(':memory:')
  try {
    return db.sqlite.prepare('SELECT sqlite_version()').pluck().get() as string
  } finally {
    closeDatabase(db)
  }
}

export function closeDatabase(db: Database): void {
  db.statements.clear()
  if (db.sqlite.open) db.sqlite.close()
}

/**
 * How many rows this connection has changed since it opened (SQLite's `total_changes()`): equal at
 * two moments when nothing was written in between by anyone (the service is the only writer of
 * its data). Work computed from stored data ahead of a transaction is still valid in it when this
 * has not moved.
 */
export function changesSoFar(db: Database): number {
  return prepare(db, 'SELECT total_changes()').pluck().get() as number
}

/** Runs a Kysely-built query and returns every row. */
export function all<Row>(db: Database, query: Compilable<Row>): Row[] {
  const compiled = query.compile()
  return prepare(db, compiled.sql).all(...(compiled.parameters as unknown[])) as Row[]
}

/** Runs a Kysely-built query and returns its first row, or undefined. */
export function first<Row>(db: Database, query: Compilable<Row>): Row | undefined {
  const compiled = query.compile()
  return prepare(db, compiled.sql).get(...(compiled.parameters as unknown[])) as Row | undefined
}

/** Runs a Kysely-built statement that returns no rows. */
export function run(db: Database, query: Compilable<unknown>): BetterSqlite3.RunResult {
  const compiled = query.compile()
  return prepare(db, compiled.sql).run(...(compiled.parameters as unknown[]))
}

/**
 * Runs `work` in one IMMEDIATE transaction (the write lock is taken at BEGIN, so the
 * transaction cannot fail half-way for lack of it). Rolls back if `work` throws.
 * `work` must be synchronous: no awaits, no network or file I/O inside.
 * @throws DatabaseFileGoneError (rolled back) when the file was deleted or replaced under the
 * service: its commit would be acknowledged and lost.
 */
export function transaction<T>(db: Database, work: () => T): T {
  return db.sqlite
    .transaction(() => {
      const result = work()
      const problem = databaseFileProblem(db)
      if (problem !== null) throw new DatabaseFileGoneError(problem)
      return result
    })
    .immediate()
}

/**
 * Runs `work` in one IMMEDIATE transaction like `transaction`, and always rolls it back: `work`
 * sees and answers from its own writes, and the database is left as it was (a dry run of the
 * real code, not of a copy of it). `work` must be synchronous, as in `transaction`.
 * @returns what `work` returned. @throws whatever `work` threw (also rolled back).
 */
export function rolledBack<T>(db: Database, work: () => T): T {
  const rollback = new RollbackSignal<T>()
  try {
    db.sqlite
      .transaction(() => {
        rollback.result = work()
        throw rollback // better-sqlite3 rolls back a transaction whose function throws
      })
      .immediate()
  } catch (error) {
    if (error !== rollback) throw error
  }
  return rollback.result as T
}

class RollbackSignal<T> {
  result: T | undefined
}

/** Prepares once per distinct SQL text; the LRU bound keeps IN-lists of many sizes in check. */
export function prepare(db: Database, sql: string): BetterSqlite3.Statement {
  let statement = db.statements.get(sql)
  if (statement === undefined) {
    statement = db.sqlite.prepare(sql)
    db.statements.set(sql, statement)
  }
  return statement
}

/**
 * A statement built once with Kysely and prepared once per database, for the statements run for
 * every row of a batch (compiling a Kysely query per row would cost more than the insert).
 * Parameters are passed in the order the builder lists them.
 */
export function preparedStatement(
  db: Database,
  name: string,
  build: (query: Kysely<Tables>) => Compilable<unknown>,
): BetterSqlite3.Statement {
  const key = `named:${name}`
  let statement = db.statements.get(key)
  if (statement === undefined) {
    statement = db.sqlite.prepare(build(db.query).compile().sql)
    db.statements.set(key, statement)
  }
  return statement
}

function createQueryBuilder(): Kysely<Tables> {
  return new Kysely<Tables>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (kysely) => new SqliteIntrospector(kysely),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  })
}
