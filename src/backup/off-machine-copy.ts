import { createReadStream, createWriteStream, existsSync, renameSync, rmSync, statSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { Logger } from 'pino'
import { nowMillis, type Clock } from '../core/clock.ts'
import type { Config } from '../config/config.ts'
import { IntegrityCheckFailed, checkIntegrityInThread } from './integrity-thread.ts'
import { removeLeftovers, snapshotsIn } from './snapshot-names.ts'

/** Copies a file to a new one (which must not exist yet), stopping when `signal` aborts. */
export type CopyFile = (from: string, to: string, signal: AbortSignal) => Promise<void>

/** The last copy off the machine tried since the start. */
export interface CopyAttempt {
  /** Epoch milliseconds. */
  at: number
  /** The copy's final name in backup.copyTo. */
  file: string
  bytes: number | null
  /** Why it failed, in Spanish; null when it was copied, checked and renamed. */
  error: string | null
  durationMs: number
}

/**
 * `backup.copyTo`: a second folder off the machine — a mounted network share, a NAS, a USB disk —
 * that receives each snapshot once it is written and checked in `backup.dir`. The snapshot is
 * copied to a temporary name there, checked there with SQLite's integrity check (what a restore
 * would read), renamed, and the folder pruned to the newest `backup.keep`. The folder is never
 * created: a missing one is a share or disk that is not mounted, and a copy into the empty mount
 * point would fill the server's own disk. A failure is recorded (lastAttempt), logged and never
 * thrown: the local snapshot is there either way, and the copy is tried again at the next round.
 */
export class OffMachineCopies {
  private attempt: CopyAttempt | null = null

  constructor(
    private readonly settings: Pick<Config['backup'], 'copyTo' | 'keep'>,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly copyFile: CopyFile = streamCopy,
  ) {}

  get folder(): string {
    return this.settings.copyTo
  }

  /** Copies `snapshot` (a checked local snapshot) off the machine; `signal` stops it. Never throws. */
  async copy(snapshot: string, signal: AbortSignal = new AbortController().signal): Promise<CopyAttempt> {
    const at = nowMillis(this.clock)
    const file = join(this.folder, basename(snapshot))
    const temporary = join(this.folder, `.${basename(snapshot)}.${process.pid}.tmp`)
    let written = false
    try {
      if (!existsSync(this.folder)) {
        throw new CopyProblem(`la carpeta ${this.folder} no existe: ¿el recurso compartido o el disco no está montado?`)
      }
      removeLeftovers(this.folder)
      written = true
      await this.copyFile(snapshot, temporary, signal)
      const bytes = statSync(snapshot).size
      if (statSync(temporary).size !== bytes)
        throw new CopyProblem(
          `la copia en ${this.folder} quedó incompleta (${statSync(temporary).size} de ${bytes} bytes)`,
        )
      const { problems } = await checkIntegrityInThread(temporary, undefined, signal)
      if (problems.length > 0)
        throw new CopyProblem(
          `la copia en ${this.folder} no pasó la verificación de integridad de SQLite (${problems.slice(0, 3).join('; ')})`,
        )
      renameSync(temporary, file)
      this.prune()
      this.attempt = { at, file, bytes, error: null, durationMs: nowMillis(this.clock) - at }
      this.log.info(
        { file, bytes, segundos: Math.round(this.attempt.durationMs / 100) / 10 },
        'copia fuera del servidor creada',
      )
    } catch (error) {
      if (written) rmSync(temporary, { force: true, maxRetries: 2 })
      this.attempt = {
        at,
        file,
        bytes: null,
        error: describeCopyError(error, this.folder),
        durationMs: nowMillis(this.clock) - at,
      }
      this.log.error(
        { file, carpeta: this.folder, error: this.attempt.error },
        'no se pudo crear la copia fuera del servidor (backup.copyTo)',
      )
    }
    return this.attempt
  }

  /** The last copy tried since the start, or null. */
  lastAttempt(): CopyAttempt | null {
    return this.attempt
  }

  /** The copies in the folder, newest first (none when it cannot be read). */
  copies(): Array<{ file: string; takenAt: number }> {
    return snapshotsIn(this.folder, this.clock)
  }

  /** Whether the folder already holds a copy named like `snapshot`. */
  holds(snapshot: string): boolean {
    return existsSync(join(this.folder, basename(snapshot)))
  }

  private prune(): void {
    for (const old of this.copies().slice(this.settings.keep)) rmSync(old.file, { force: true })
  }
}

/** A copy that went wrong in a way said here, in Spanish, rather than by the system. */
class CopyProblem extends Error {}

/** The reason a copy failed, in Spanish, naming the folder. */
function describeCopyError(error: unknown, folder: string): string {
  if (error instanceof CopyProblem) return error.message
  if (error instanceof IntegrityCheckFailed)
    return `SQLite no pudo abrir la copia en ${folder} para verificarla (${error.message})`
  const code = (error as NodeJS.ErrnoException).code
  const name = (error as Error).name
  if (name === 'AbortError' || (error instanceof Error && error.message.startsWith('se interrumpió')))
    return 'se interrumpió: el servicio se detuvo durante la copia'
  if (code === 'ENOSPC' || code === 'EDQUOT') return `no queda espacio en ${folder} (${code})`
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
    return `el servicio no puede escribir en ${folder} (${code})`
  if (code === 'ENOENT' || code === 'ENOTDIR')
    return `la carpeta ${folder} dejó de existir durante la copia (${code}): ¿se desmontó?`
  return `${folder}: ${error instanceof Error ? error.message : String(error)}${code === undefined ? '' : ` (${code})`}`
}

/**
 * Reads the snapshot (a finished file no SQLite connection of this process has open) and writes
 * the copy, synced to its disk before it counts. On the thread pool: the event loop is free.
 */
async function streamCopy(from: string, to: string, signal: AbortSignal): Promise<void> {
  await pipeline(createReadStream(from), createWriteStream(to, { flags: 'wx' }), { signal })
  // fsync through a descriptor of its own: it flushes the file, whichever descriptor wrote it.
  const written = await open(to, 'r+')
  try {
    await written.sync()
  } finally {
    await written.close()
  }
}
