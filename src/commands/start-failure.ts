import { DatabaseNotWritableError } from '../db/database.ts'

const REASONS: Record<string, string> = {
  EROFS: 'el sistema de archivos es de solo lectura',
  EPERM: 'la operación no está permitida (¿archivo o carpeta inmutable, chattr +i?)',
  EACCES: 'el usuario del servicio no tiene permiso',
  ENOSPC: 'no queda espacio en el disco',
  ENOENT: 'la ruta no existe',
  ENOTDIR: 'una parte de la ruta no es una carpeta',
  SQLITE_CANTOPEN: 'SQLite no pudo abrir el archivo',
  SQLITE_READONLY: 'SQLite solo puede leer el archivo, no escribirlo',
  SQLITE_NOTADB: 'el archivo no es una base de datos SQLite',
  SQLITE_CORRUPT: 'la base de datos está dañada (restaure una copia de seguridad)',
  SQLITE_FULL: 'no queda espacio en el disco',
}

/**
 * One Spanish line for a failure to start: what failed, where, and what to look at — no stack
 * trace for the failures an administrator can fix (file system, permissions, disk). Unknown
 * failures are bugs: their stack follows, for the report.
 */
export function describeStartFailure(error: unknown, databasePath: string): string {
  if (error instanceof DatabaseNotWritableError) {
    return `No se pudo iniciar manifiesto: no se puede escribir en ${error.path}: ${REASONS[error.code] ?? error.code}. Revise la carpeta de la base de datos (database.path).`
  }
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code === 'string' && code in REASONS) {
    const where = (error as NodeJS.ErrnoException).path ?? databasePath
    return `No se pudo iniciar manifiesto: ${where}: ${REASONS[code]} (${code}). Revise la carpeta de la base de datos (database.path) y sus permisos.`
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error)
  return `No se pudo iniciar manifiesto (error inesperado; envíe este texto al equipo técnico):\n${detail}`
}
