import { accessSync, constants, existsSync, mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { backupDatabase, SnapshotDamaged } from '../backup/backup.service.ts'
import type { LoadedConfig } from '../config/config.ts'
import { closeDatabase, openDatabase, type Database } from '../db/database.ts'
import { complain, say, type CliIo } from './io.ts'
import { formatBytes, formatDuration, startProgress } from './progress.ts'
import { REASONS } from './start-failure.ts'
import { verifyWithProgress } from './verify.ts'

/**
 * `manifiesto backup ARCHIVO`: a consistent snapshot of the database into ARCHIVO, also while the
 * service runs (one read transaction: the state when it began), checked, then renamed into place;
 * its progress on stderr, and at the end how long it took and how big it is. A failure names
 * the folder at fault — the copy's, or the database's (database.path) — and what to do.
 * @returns 0 written and checked, 1 not written (nothing is left behind).
 */
export async function runBackupCommand({ config }: LoadedConfig, argument: string, io: CliIo): Promise<number> {
  const file = resolve(io.cwd, argument)
  const source = config.database.path
  if (!existsSync(source)) {
    complain(
      io,
      `No hay base de datos que copiar: ${source} no existe (database.path). Revise que --config sea la configuración del servicio; en una instalación nueva, la base se crea al iniciar el servicio.`,
    )
    return 1
  }
  let db: Database
  try {
    db = openDatabase(source, { readonly: true })
  } catch (error) {
    complain(
      io,
      `No se pudo abrir la base de datos ${source} (database.path) para copiarla: ${reasonOf(error)}. Revise database.path y que el usuario que ejecuta backup pueda leerla.`,
    )
    return 1
  }
  const started = performance.now()
  try {
    requireWritableFolder(dirname(file))
    const writing = startProgress(io.stderr, `copiando ${source}`, 'paginas')
    let verified = ''
    const result = await backupDatabase({ db }, file, {
      holdReadTransaction: true,
      onProgress: (report) => writing.update(report),
      verify: async (copy) => {
        writing.finish()
        const check = await verifyWithProgress(copy, io, 'verificando la copia')
        verified = check.summary
        return check.problems
      },
    })
    say(
      io,
      `copia de seguridad creada: ${result.file} (${formatBytes(result.bytes)}) en ${formatDuration(performance.now() - started)}; integridad: ok (${verified}). Restáurela, si algún día hace falta, con: manifiesto restaurar ${result.file}`,
    )
    return 0
  } catch (error) {
    complain(io, describeBackupFailure(error, file, source))
    return 1
  } finally {
    closeDatabase(db)
  }
}

/**
 * What went wrong, at the copy's folder (most failures: a folder that cannot be made or written,
 * a full disk) or at the database itself (damaged), with what to do.
 */
function describeBackupFailure(error: unknown, file: string, source: string): string {
  const code = (error as { code?: unknown }).code
  if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB') {
    return `No se pudo copiar: la base de datos ${source} (database.path) está dañada (${code}). Ejecute manifiesto check; si lo confirma, restaure la copia más reciente que lo pase (manifiesto restaurar COPIA).`
  }
  const folder = dirname(file)
  if (error instanceof SnapshotDamaged) {
    return `No se escribió la copia en ${file}: ${error.message}; se borró. Ejecute manifiesto check para revisar la base de datos, y pruebe en otra carpeta o disco (el de ${folder} puede tener fallas).`
  }
  const where = (error as NodeJS.ErrnoException).path ?? folder
  const reason =
    typeof code === 'string' ? `${REASONS[code] ?? (error as Error).message} (${code})` : (error as Error).message
  return (
    `No se pudo escribir la copia en ${folder}: ${where === folder ? '' : `${where}: `}${reason}. La base de datos no tiene problemas. ` +
    'Elija una carpeta donde el usuario que ejecuta backup pueda escribir y con espacio (por ejemplo la de backup.dir), o dele permiso a ese usuario en esta.'
  )
}

/** The copy's folder, made when missing, must be writable: said with the system's reason before SQLite says less. */
function requireWritableFolder(folder: string): void {
  mkdirSync(folder, { recursive: true })
  accessSync(folder, constants.W_OK)
}

function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown }).code
  return typeof code === 'string' && code in REASONS ? `${REASONS[code]} (${code})` : (error as Error).message
}
