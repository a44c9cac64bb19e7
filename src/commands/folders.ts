import { accessSync, constants, existsSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import type { Config } from '../config/config.ts'
import { REASONS } from './start-failure.ts'

/** One folder the service writes in, as `check` reports it. */
export interface FolderReport {
  /** The configuration key that names it. */
  key: string
  folder: string
  /** What is wrong, with what to do; null when the service can use it. */
  problem: string | null
  /** What `check` says when it is fine. */
  note: string
}

/**
 * The folders the service writes in — the database's, the backups', the log's and the copies'
 * off the machine — and whether it can: a folder the service makes at its first start (all but
 * `backup.copyTo`, a mounted share or disk, never made) must have a writable folder above it.
 * Checked with `access` as the user running the command (the guide runs `check` as the service's
 * user); nothing is created or opened.
 */
export function checkServiceFolders(config: Config): FolderReport[] {
  const folders = [
    { key: 'database.path', folder: dirname(config.database.path), create: true },
    ...(config.backup.everyHours > 0 ? [{ key: 'backup.dir', folder: config.backup.dir, create: true }] : []),
    ...(config.backup.copyTo === '' ? [] : [{ key: 'backup.copyTo', folder: config.backup.copyTo, create: false }]),
    ...(config.log.file === '' ? [] : [{ key: 'log.file', folder: dirname(config.log.file), create: true }]),
  ]
  return folders.map(({ key, folder, create }) => ({ key, folder, ...usable(key, folder, create) }))
}

function usable(key: string, folder: string, create: boolean): { problem: string | null; note: string } {
  if (existsSync(folder)) {
    if (!statSync(folder).isDirectory()) return { problem: `${folder} no es una carpeta: corrija ${key}.`, note: '' }
    const denied = writeDenied(folder)
    return denied === null
      ? { problem: null, note: 'se puede escribir' }
      : { problem: `no se puede escribir en ${folder}: ${denied}. ${advice(folder)}`, note: '' }
  }
  if (!create) {
    return {
      problem: `${folder} no existe. Si es un recurso compartido o un disco, móntelo (y que se monte al reiniciar el servidor); si no, créelo para el usuario del servicio, o corrija ${key}.`,
      note: '',
    }
  }
  let above = dirname(folder)
  while (!existsSync(above) && dirname(above) !== above) above = dirname(above)
  if (!statSync(above).isDirectory())
    return { problem: `no se puede crear ${folder}: ${above} no es una carpeta. Corrija ${key}.`, note: '' }
  const denied = writeDenied(above)
  if (denied === null) return { problem: null, note: `todavía no existe: el servicio la creará en ${above}` }
  return {
    problem: `el servicio no podrá crear ${folder}: no se puede escribir en ${above} (${denied}). Créela antes para el usuario del servicio: ${advice(folder)}`,
    note: '',
  }
}

/** Why the file or folder cannot be written by this process's user (a Spanish reason), or null when it can. */
export function writeDenied(folder: string): string | null {
  try {
    accessSync(folder, constants.W_OK)
    return null
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error'
    return `${REASONS[code] ?? 'error del sistema'} (${code})`
  }
}

/** How to give the service's user a folder of its own, on this system. */
function advice(folder: string): string {
  if (process.platform === 'win32') {
    return `New-Item -ItemType Directory -Force ${folder}; icacls ${folder} /grant "NT SERVICE\\manifiesto:(OI)(CI)M" (PowerShell de administrador).`
  }
  return `sudo install -d -o manifiesto -g manifiesto -m 750 ${folder} (y ejecute check como ese usuario: sudo -u manifiesto …).`
}
