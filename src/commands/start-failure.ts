import { DatabaseNotWritableError } from '../db/database.ts'
import { CertificateFileError, ListenError } from '../http/server.ts'

/** A system or SQLite error code as a Spanish reason, for an administrator. */
export const REASONS: Record<string, string> = {
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
 * One Spanish line for a command that failed on something of the machine (a folder it cannot
 * write, a full disk): `serve`'s as describeStartFailure; the others name their command, since
 * nothing was starting.
 */
export function describeCommandFailure(command: string, error: unknown, databasePath: string): string {
  const line = describeStartFailure(error, databasePath)
  return command === 'serve'
    ? line
    : line.replace(/^No se pudo iniciar manifiesto/, `No se pudo completar «manifiesto ${command}»`)
}

/**
 * One Spanish line for a failure to start: what failed, where, and what to look at — no stack
 * trace for the failures an administrator can fix (file system, permissions, disk). Unknown
 * failures are bugs: their stack follows, for the report.
 */
export function describeStartFailure(error: unknown, databasePath: string): string {
  if (error instanceof ListenError) return describeListenFailure(error)
  if (error instanceof CertificateFileError) {
    return `No se pudo iniciar manifiesto: no se puede leer ${error.path}: ${REASONS[error.code] ?? error.code}. Corrija ${error.key} en la configuración (un archivo PEM que el usuario del servicio pueda leer).`
  }
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

/** A port or address that cannot be listened on, named with the configuration key to change. */
function describeListenFailure({ host, port, code }: ListenError): string {
  const start = 'No se pudo iniciar manifiesto:'
  if (code === 'EADDRINUSE') {
    return `${start} el puerto ${port} ya está en uso por otro programa. Cierre ese programa o cambie server.port (o MANIFIESTO_PORT) en la configuración.`
  }
  if (code === 'EACCES' || code === 'EPERM') {
    return `${start} no hay permiso para escuchar en el puerto ${port} (${code}). Use un puerto de 1024 o más en server.port (o MANIFIESTO_PORT).`
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return `${start} la dirección ${host} no pertenece a este servidor (${code}). Corrija server.host (o MANIFIESTO_HOST) en la configuración; 0.0.0.0 escucha en todas.`
  }
  return `${start} no se puede escuchar en ${host}:${port} (${code}). Revise server.host y server.port (o MANIFIESTO_HOST y MANIFIESTO_PORT) en la configuración.`
}
