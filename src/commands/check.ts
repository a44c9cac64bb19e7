import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { IntegrityCheckFailed } from '../backup/integrity-thread.ts'
import type { LoadedConfig } from '../config/config.ts'
import { closeDatabase, openDatabase } from '../db/database.ts'
import { foreignDatabaseProblem, LATEST_SCHEMA_VERSION, schemaVersion } from '../db/migrate.ts'
import { checkServiceFolders, writeDenied } from './folders.ts'
import { say, type CliIo } from './io.ts'
import { verifyWithProgress } from './verify.ts'
import { REASONS } from './start-failure.ts'

/**
 * `manifiesto check [BASE]`: the configuration is valid (it was loaded to get here), the service
 * can create or write each of its folders, and the database — or BASE, a file named on the
 * command line (a backup) — passes SQLite's integrity check, with its progress on stderr. Never
 * creates, changes or migrates anything: the database is opened read-only. On a fresh
 * installation (no database yet) it says the service will create it. Prints its report on stdout
 * as it goes.
 * @returns 0 healthy, 1 a problem (each named with what to do).
 */
export async function runCheckCommand(
  { config, file }: LoadedConfig,
  argument: string | undefined,
  io: CliIo,
): Promise<number> {
  const path = argument === undefined ? config.database.path : resolve(io.cwd, argument)
  say(io, `configuración: ok (${file ?? 'valores por defecto'})`)
  say(io, `contrato con el cliente: ${config.clientContract}`)
  say(io, `base de datos: ${path}`)
  let healthy = true
  if (argument === undefined) {
    for (const folder of checkServiceFolders(config)) {
      say(
        io,
        folder.problem === null
          ? `carpeta de ${folder.key}: ${folder.folder} (${folder.note})`
          : `error: carpeta de ${folder.key}: ${folder.problem}`,
      )
      healthy &&= folder.problem === null
    }
  }
  if (!existsSync(path)) {
    if (argument !== undefined) return fail(io, 'error: el archivo no existe')
    say(
      io,
      'la base de datos todavía no existe: el servicio la creará, con su carpeta, al iniciar por primera vez (manifiesto serve)',
    )
    return healthy ? 0 : 1
  }
  if (argument === undefined) {
    for (const candidate of [path, `${path}-wal`, `${path}-shm`].filter((candidate) => existsSync(candidate))) {
      const denied = writeDenied(candidate)
      if (denied === null) continue
      say(
        io,
        `error: el servicio no podrá escribir en ${candidate}: ${denied}. Dele el archivo al usuario del servicio (Linux: sudo chown manifiesto:manifiesto ${candidate}).`,
      )
      healthy = false
    }
  }
  const schema = describeSchema(path)
  if ('problem' in schema) return fail(io, `error: ${schema.problem}`)
  say(io, schema.line)
  let integrity
  try {
    integrity = await verifyWithProgress(
      path,
      io,
      argument === undefined ? 'verificando la base de datos' : 'verificando la copia',
    )
  } catch (error) {
    if (error instanceof IntegrityCheckFailed) return fail(io, `error: ${reasonOf(error.code, error.message)}`)
    throw error
  }
  const { problems } = integrity
  say(
    io,
    problems.length === 0
      ? `integridad: ok (${integrity.summary})`
      : `integridad: ${problems.length} problemas\n  ${problems.slice(0, 20).join('\n  ')}`,
  )
  if (problems.length > 0)
    say(
      io,
      'La base de datos está dañada: detenga el servicio y restaure la copia más reciente que pase check (manifiesto restaurar COPIA).',
    )
  return healthy && problems.length === 0 && !schema.newer ? 0 : 1
}

function fail(io: CliIo, line: string): number {
  say(io, line)
  return 1
}

/** The file is one of ours, and which schema version it holds; opened read-only for a moment. */
function describeSchema(path: string): { line: string; newer: boolean } | { problem: string } {
  let db
  try {
    db = openDatabase(path, { readonly: true })
  } catch (error) {
    return {
      problem: reasonOf((error as { code?: string }).code ?? null, `no se puede abrir: ${(error as Error).message}`),
    }
  }
  try {
    const foreign = foreignDatabaseProblem(db)
    const tables = db.sqlite.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'table'").pluck().get() as number
    if (foreign !== null || tables === 0)
      return { problem: `no es una base de datos de manifiesto: ${foreign ?? 'está vacía (0 bytes o sin tablas)'}` }
    const version = schemaVersion(db)
    const newer = version > LATEST_SCHEMA_VERSION
    return {
      line: `esquema: versión ${version} (esta versión de manifiesto conoce hasta la ${LATEST_SCHEMA_VERSION})${newer ? ' — escrita por una versión más nueva: instale esa versión o una posterior' : ''}`,
      newer,
    }
  } catch (error) {
    return { problem: reasonOf((error as { code?: string }).code ?? null, (error as Error).message) }
  } finally {
    closeDatabase(db)
  }
}

function reasonOf(code: string | null, message: string): string {
  if (code === 'SQLITE_NOTADB') return 'no es una base de datos de manifiesto: no es un archivo SQLite'
  return code !== null && code in REASONS && !code.startsWith('SQLITE_') ? `${REASONS[code]} (${code})` : message
}
