import { existsSync, renameSync, rmSync, statSync } from 'node:fs'
import { basename, dirname, extname, join, resolve } from 'node:path'
import { IntegrityCheckFailed } from '../backup/integrity-thread.ts'
import { snapshotsIn, STAMP } from '../backup/snapshot-names.ts'
import { formatLocalDateTime, localDateTime, systemClock, type Clock } from '../core/clock.ts'
import type { LoadedConfig } from '../config/config.ts'
import { closeDatabase, openDatabase } from '../db/database.ts'
import { foreignDatabaseProblem, LATEST_SCHEMA_VERSION, schemaVersion } from '../db/migrate.ts'
import { complain, say, type CliIo } from './io.ts'
import { formatBytes, formatDuration, startProgress } from './progress.ts'
import { findRunningService, isDatabaseInUse } from './running-service.ts'
import { makeDataFolder, ownerFor, giveToOwner, type Owner } from './service-owner.ts'
import { REASONS } from './start-failure.ts'
import { verifyWithProgress } from './verify.ts'

/**
 * `manifiesto restaurar COPIA`: the backup COPIA in place of the database (database.path), in one
 * command, with the service stopped. Refuses (exit 1, nothing changed) while the service runs on
 * that database or anything else has it open, when COPIA is not a whole manifiesto database of
 * this version or an earlier one. Then: makes the data folder when it is missing (a new server),
 * owned by the service's user; keeps the current database beside it under a dated name; copies
 * COPIA in under a temporary name and renames it; and says how to start the service and which
 * batches to ask the supplier for again. Should the copy fail, the current database is put back.
 * @returns 0 restored, 1 refused or failed (the current database untouched), 2 bad usage.
 */
export async function runRestoreCommand(
  { config, file: configFile }: LoadedConfig,
  argument: string,
  options: { owner: string | undefined },
  io: CliIo,
): Promise<number> {
  const started = performance.now()
  const clock = io.clock ?? systemClock(config.dates.timezone)
  const copy = resolve(io.cwd, argument)
  const target = config.database.path
  const refuse = (line: string) => {
    complain(io, `No se restauró nada: ${line}`)
    return 1
  }
  if (!existsSync(copy) || !statSync(copy).isFile())
    return refuse(`${copy} no existe o no es un archivo. ${whereCopiesAre(config, clock, copy)}`)
  if (resolve(copy) === resolve(target))
    return refuse(`${copy} es la base de datos misma (database.path), no una copia.`)

  const running = await findRunningService(config.server)
  if (running !== null)
    return refuse(
      `el servicio está en marcha (responde en ${running}). Deténgalo primero: ${stopCommand()}; luego vuelva a ejecutar este comando.`,
    )
  if (existsSync(target) && isDatabaseInUse(target)) {
    return refuse(
      `otro programa tiene abierta la base de datos ${target}: el servicio, o un check o backup en curso. Deténgalo (${stopCommand()}) o espere a que termine, y vuelva a ejecutar este comando.`,
    )
  }

  let owner: Owner
  try {
    owner = ownerFor(dirname(target), options.owner)
  } catch (error) {
    complain(io, (error as Error).message)
    return 2
  }
  const described = describeCopy(copy)
  if ('problem' in described) return refuse(`${copy} ${described.problem}`)
  say(io, `copia: ${copy} (${formatBytes(statSync(copy).size)}), ${described.schema}`)
  let check
  try {
    check = await verifyWithProgress(copy, io, 'verificando la copia')
  } catch (error) {
    if (error instanceof IntegrityCheckFailed) return refuse(`SQLite no puede leer ${copy}: ${error.message}.`)
    throw error
  }
  if (check.problems.length > 0) {
    return refuse(
      `la copia ${copy} está dañada (${check.problems.length} problemas: ${check.problems.slice(0, 3).join('; ')}). Elija otra: ${whereCopiesAre(config, clock, copy)}`,
    )
  }
  say(io, `integridad de la copia: ok (${check.summary})`)

  const folder = dirname(target)
  try {
    for (const line of makeDataFolder(folder, owner)) say(io, line)
  } catch (error) {
    return refuse(
      `no se pudo crear la carpeta ${folder}: ${reasonOf(error)}. Ejecute el comando como administrador (Linux: sudo; Windows: un PowerShell de administrador).`,
    )
  }

  const kept = existsSync(target) ? keepCurrent(target, clock) : null
  if (kept !== null) say(io, `la base de datos anterior quedó en: ${kept} (bórrela cuando ya no la necesite)`)
  const temporary = join(folder, `.${basename(target)}.restaurando-${process.pid}`)
  try {
    await copyInto(copy, temporary, io)
    giveToOwner(temporary, owner, 0o640)
    renameSync(temporary, target)
  } catch (error) {
    rmSync(temporary, { force: true })
    if (kept !== null) putBack(kept, target)
    return refuse(
      `no se pudo escribir ${target}: ${reasonOf(error)}. ${kept === null ? '' : 'La base de datos anterior volvió a su lugar. '}Revise el espacio libre y los permisos de ${folder}.`,
    )
  }

  say(
    io,
    `restaurada: ${target} ← ${copy} (${formatBytes(statSync(target).size)}) en ${formatDuration(performance.now() - started)}`,
  )
  if (described.lastBatch !== null) {
    say(
      io,
      `la copia tiene los lotes recibidos hasta el ${formatLocalDateTime(clock, described.lastBatch)} (hora de Honduras): pida al proveedor que reenvíe los lotes de después (las facturas que ya estén responden sin_cambios)`,
    )
  }
  const config_ = configFile === null ? '' : ` --config ${configFile}`
  say(io, `Ahora inicie el servicio: ${startCommand()}; y compruébelo con: manifiesto check${config_}`)
  return 0
}

/** Whether it is one of ours and of a version this program can run; its last batch's time. */
function describeCopy(copy: string): { schema: string; lastBatch: string | null } | { problem: string } {
  let db
  try {
    db = openDatabase(copy, { readonly: true })
  } catch (error) {
    return { problem: `no se puede abrir como base de datos: ${reasonOf(error)}` }
  }
  try {
    const foreign = foreignDatabaseProblem(db)
    const tables = db.sqlite.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'table'").pluck().get() as number
    if (foreign !== null || tables === 0)
      return { problem: `no es una copia de manifiesto: ${foreign ?? 'está vacía (0 bytes o sin tablas)'}` }
    const version = schemaVersion(db)
    if (version > LATEST_SCHEMA_VERSION) {
      return {
        problem: `es de una versión más nueva de manifiesto (esquema ${version}; esta versión conoce hasta la ${LATEST_SCHEMA_VERSION}): restáurela con el programa de esa versión o una posterior.`,
      }
    }
    const lastBatch = db.sqlite.prepare('SELECT max(received_at) FROM batches').pluck().get() as string | null
    const schema =
      version === LATEST_SCHEMA_VERSION
        ? `esquema versión ${version}`
        : `esquema versión ${version}: el servicio la llevará a la ${LATEST_SCHEMA_VERSION} al iniciar`
    return { schema, lastBatch }
  } catch (error) {
    return { problem: `no se puede leer: ${reasonOf(error)}` }
  } finally {
    closeDatabase(db)
  }
}

/** Renames the database and its -wal and -shm (a -wal may hold its last batches) to a dated name beside it. */
function keepCurrent(target: string, clock: Clock): string {
  const extension = extname(target)
  const kept = join(
    dirname(target),
    `${basename(target, extension)}-antes-de-restaurar-${localDateTime(clock).format(STAMP)}${extension}`,
  )
  for (const suffix of ['', '-wal', '-shm']) if (existsSync(target + suffix)) renameSync(target + suffix, kept + suffix)
  return kept
}

function putBack(kept: string, target: string): void {
  for (const suffix of ['', '-wal', '-shm']) if (existsSync(kept + suffix)) renameSync(kept + suffix, target + suffix)
}

/** SQLite's backup API from the copy into `temporary`: every page, with its progress on stderr. */
async function copyInto(copy: string, temporary: string, io: CliIo): Promise<void> {
  rmSync(temporary, { force: true })
  const source = openDatabase(copy, { readonly: true })
  try {
    const progress = startProgress(io.stderr, 'copiando la copia a su lugar', 'paginas')
    await source.sqlite.backup(temporary, {
      progress: ({ totalPages, remainingPages }) => {
        progress.update({ done: totalPages - remainingPages, total: totalPages })
        return 1024
      },
    })
    progress.finish()
  } finally {
    closeDatabase(source)
  }
}

/** Where the automatic copies are, and the newest of them (other than `not`): where to look for a COPIA. */
function whereCopiesAre(config: LoadedConfig['config'], clock: Clock, not: string): string {
  const folders = [config.backup.dir, ...(config.backup.copyTo === '' ? [] : [config.backup.copyTo])]
  const newest = folders.map((folder) => ({
    folder,
    newest: snapshotsIn(folder, clock).find((snapshot) => resolve(snapshot.file) !== resolve(not)),
  }))
  return (
    newest
      .map(({ folder, newest }) =>
        newest === undefined ? `en ${folder} no hay otras copias` : `la más reciente de ${folder} es ${newest.file}`,
      )
      .join('; ') + '.'
  )
}

function stopCommand(): string {
  return process.platform === 'win32' ? 'Stop-Service manifiesto' : 'sudo systemctl stop manifiesto'
}

function startCommand(): string {
  return process.platform === 'win32' ? 'Start-Service manifiesto' : 'sudo systemctl start manifiesto'
}

function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown }).code
  return typeof code === 'string' && code in REASONS ? `${REASONS[code]} (${code})` : (error as Error).message
}
