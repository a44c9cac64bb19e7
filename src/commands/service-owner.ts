import { spawnSync } from 'node:child_process'
import { chmodSync, chownSync, existsSync, mkdirSync, statSync } from 'node:fs'
import { dirname } from 'node:path'

/**
 * Who the files of the service's data folder belong to: on Linux run as root, the service's user
 * (files are given to it); otherwise whoever runs the command (Linux), or the service's virtual
 * account, given the right to modify by ACL (Windows).
 */
export type Owner =
  { kind: 'user'; name: string; uid: number; gid: number } | { kind: 'self' } | { kind: 'windows'; account: string }

/** The service's user by default: the one the systemd unit and the guide create. */
const SERVICE_USER = 'manifiesto'
const SERVICE_ACCOUNT = 'NT SERVICE\\manifiesto'

/**
 * The owner the data folder's files must have: `name` when given; else the owner of the folder,
 * or of the nearest folder above it, that is not root's; else the user `manifiesto`.
 * @throws Error (Spanish) when `name` is not a user of this machine.
 */
export function ownerFor(folder: string, name: string | undefined): Owner {
  if (process.platform === 'win32') return { kind: 'windows', account: name ?? SERVICE_ACCOUNT }
  if (process.getuid?.() !== 0) return { kind: 'self' }
  if (name !== undefined) {
    const user = lookUpUser(name)
    if (user === null)
      throw new Error(
        `El usuario «${name}» no existe en este servidor: créelo como dice la guía (useradd --system … ${name}) o corrija --propietario.`,
      )
    return user
  }
  for (let at = folder; ; at = dirname(at)) {
    if (existsSync(at)) {
      const stats = statSync(at)
      if (stats.uid !== 0) return { kind: 'user', name: nameOf(stats.uid), uid: stats.uid, gid: stats.gid }
    }
    if (dirname(at) === at) break
  }
  return lookUpUser(SERVICE_USER) ?? { kind: 'self' }
}

/**
 * Makes the data folder when it is missing, with every folder above it that is missing too,
 * each only for the owner (Linux: mode 750, owned by the service's user; Windows: modify rights for
 * the service's account). @returns what was done, as lines to show.
 */
export function makeDataFolder(folder: string, owner: Owner): string[] {
  if (existsSync(folder)) return []
  const missing: string[] = []
  for (let at = folder; !existsSync(at) && dirname(at) !== at; at = dirname(at)) missing.unshift(at)
  mkdirSync(folder, { recursive: true, mode: 0o750 })
  const lines: string[] = []
  for (const created of missing) {
    if (owner.kind === 'windows') {
      const granted =
        spawnSync('icacls', [created, '/grant', `${owner.account}:(OI)(CI)M`], { stdio: 'ignore' }).status === 0
      lines.push(
        granted
          ? `carpeta creada: ${created} (${owner.account} puede modificarla)`
          : `carpeta creada: ${created}; dele permiso al servicio en un PowerShell de administrador: icacls ${created} /grant "${owner.account}:(OI)(CI)M"`,
      )
      continue
    }
    giveToOwner(created, owner, 0o750)
    lines.push(`carpeta creada: ${created} (${owner.kind === 'user' ? `de ${owner.name}, ` : ''}modo 750)`)
  }
  return lines
}

/** The file or folder given to the owner, with `mode` (Linux); on Windows it inherits its folder's rights. */
export function giveToOwner(path: string, owner: Owner, mode: number): void {
  if (owner.kind === 'windows') return
  chmodSync(path, mode)
  if (owner.kind === 'user') chownSync(path, owner.uid, owner.gid)
}

function lookUpUser(name: string): Owner | null {
  const id = (flag: string) => {
    const result = spawnSync('id', [flag, name], { encoding: 'utf8' })
    return result.status === 0 && /^\d+$/.test(result.stdout.trim()) ? Number(result.stdout.trim()) : null
  }
  const uid = id('-u')
  const gid = id('-g')
  return uid === null || gid === null ? null : { kind: 'user', name, uid, gid }
}

/** A user's name from its number (`id -nu`), or the number itself. */
function nameOf(uid: number): string {
  const result = spawnSync('id', ['-nu', String(uid)], { encoding: 'utf8' })
  return result.status === 0 && result.stdout.trim() !== '' ? result.stdout.trim() : String(uid)
}
