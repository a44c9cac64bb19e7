import { existsSync } from 'node:fs'
import type { LoadedConfig } from '../config/config.ts'
import { closeDatabase, openDatabase } from '../db/database.ts'
import { foreignDatabaseProblem, LATEST_SCHEMA_VERSION, schemaVersion } from '../db/migrate.ts'

export interface CheckReport {
  healthy: boolean
  lines: string[]
}

/**
 * `manifiesto check`: the configuration is valid (it was loaded to get here) and the database
 * passes SQLite's integrity check. Never creates or migrates the database: on a fresh
 * installation (the configured database does not exist yet) it says the service will create it,
 * and is healthy; a file named on the command line (a backup) must exist.
 */
export function checkInstallation({ config, file }: LoadedConfig, databasePath?: string): CheckReport {
  const path = databasePath ?? config.database.path
  const lines = [`configuración: ok (${file ?? 'valores por defecto'})`, `contrato con el cliente: ${config.clientContract}`, `base de datos: ${path}`]
  if (!existsSync(path)) {
    if (databasePath !== undefined) return { healthy: false, lines: [...lines, 'error: el archivo no existe'] }
    return { healthy: true, lines: [...lines, 'la base de datos todavía no existe: el servicio la creará, con su carpeta, al iniciar por primera vez (manifiesto serve)'] }
  }
  let db
  try {
    db = openDatabase(path, { readonly: true })
  } catch (error) {
    return { healthy: false, lines: [...lines, `error: ${reasonOf(error, 'no se puede abrir: ')}`] }
  }
  try {
    const foreign = foreignDatabaseProblem(db)
    const tables = db.sqlite.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'table'").pluck().get() as number
    if (foreign !== null || tables === 0) {
      return { healthy: false, lines: [...lines, `error: no es una base de datos de manifiesto: ${foreign ?? 'está vacía (0 bytes o sin tablas)'}`] }
    }
    const version = schemaVersion(db)
    const integrity = db.sqlite.pragma('integrity_check', { simple: false }) as Array<{ integrity_check: string }>
    const problems = integrity.map((row) => row.integrity_check).filter((result) => result !== 'ok')
    const newer = version > LATEST_SCHEMA_VERSION
    lines.push(
      `esquema: versión ${version} (esta versión de manifiesto conoce hasta la ${LATEST_SCHEMA_VERSION})${newer ? ' — escrita por una versión más nueva' : ''}`,
      problems.length === 0 ? 'integridad: ok' : `integridad: ${problems.length} problemas\n  ${problems.slice(0, 20).join('\n  ')}`,
    )
    return { healthy: problems.length === 0 && !newer, lines }
  } catch (error) {
    return { healthy: false, lines: [...lines, `error: ${reasonOf(error, '')}`] }
  } finally {
    closeDatabase(db)
  }
}

function reasonOf(error: unknown, prefix: string): string {
  if ((error as { code?: unknown }).code === 'SQLITE_NOTADB') return 'no es una base de datos de manifiesto: no es un archivo SQLite'
  return `${prefix}${(error as Error).message}`
}
