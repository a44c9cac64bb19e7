import { accessSync, constants, existsSync } from 'node:fs'
import { dirname } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'

/**
 * Opens a database file only to read it, leaving its folder as it was. A read-only connection to
 * a database in WAL mode creates its -wal and -shm files and cannot remove them when it closes
 * (run as root, they would be root's, and the service could no longer write its database). So
 * when no connection has the file open (no -wal, no -shm beside it) and it can be written, it is
 * opened for writing with `query_only` — nothing can be written through it, and closing it, the
 * last connection, removes what it made; otherwise (the service has it open) read-only, with the
 * service's own -wal and -shm. Used by `check`, `backup` and `restaurar`, never by the service.
 * @param nativeBinding the executable's SQLite addon (a worker thread loads its own).
 */
export function openToRead(path: string, nativeBinding?: object): BetterSqlite3.Database {
  const alone = !existsSync(`${path}-wal`) && !existsSync(`${path}-shm`) && writable(path) && writable(dirname(path))
  const db = new BetterSqlite3(path, {
    readonly: !alone,
    fileMustExist: true,
    ...(nativeBinding === undefined ? {} : { nativeBinding: nativeBinding as unknown as string }),
  })
  if (alone) db.pragma('query_only = ON')
  return db
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK)
    return true
  } catch {
    return false
  }
}
