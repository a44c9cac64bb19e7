/**
 * What an administrator downloads: per platform one archive that stands alone — everything needed
 * to install, run, back up and restore the service, and every guide a person needs, under a single
 * folder `manifiesto-<version>/` — and `SHA256SUMS` beside the archives to verify the download.
 *
 *   manifiesto-<version>-linux-x64.tar.gz    manifiesto, manifiesto.service
 *   manifiesto-<version>-win-x64.zip         manifiesto.exe, manifiesto-service.xml (WinSW)
 *
 * Both also hold LEAME.md (what is inside, where to start), config.example.json, the guides under
 * docs/ with every picture and example they link to (found by following their links, at the same
 * relative places as in the repository, so every link works in both), and a SHA256SUMS of their
 * own files. The developer's README is not shipped.
 */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { tarGz, zip, type ArchiveEntry } from './archive.ts'
import { linkedFiles } from './guide-links.ts'
import type { Platform } from './targets.ts'

export type { Platform }

interface Layout {
  format: 'tar.gz' | 'zip'
  /** The executable's name inside the archive (the name the guide and the service definition use). */
  executable: string
  /** The service definition: its file in the repository and its name inside the archive. */
  service: { from: string; as: string }
}

const LAYOUTS: Record<Platform, Layout> = {
  'linux-x64': {
    format: 'tar.gz',
    executable: 'manifiesto',
    service: { from: 'build/manifiesto.service', as: 'manifiesto.service' },
  },
  // WinSW finds its XML by its own name: the guide renames WinSW-x64.exe to manifiesto-service.exe.
  'win-x64': {
    format: 'zip',
    executable: 'manifiesto.exe',
    service: { from: 'build/manifiesto.xml', as: 'manifiesto-service.xml' },
  },
}

/**
 * The guides a person needs: the administrator's (LEAME.md first), the warehouse staff's (the
 * console, the operator API), the supplier's (integration, contract v2). What they link to comes
 * with them; the developer's guides stay in the repository.
 */
export const SHIPPED_GUIDES = [
  'LEAME.md',
  'docs/administracion.md',
  'docs/operacion.md',
  'docs/operacion-consola.md',
  'docs/operacion-api.md',
  'docs/integracion.md',
  'docs/contrato-v2.md',
] as const

/** The name, inside the archive's folder, of the checksums of its own files. */
export const INNER_CHECKSUMS = 'SHA256SUMS'

export interface ReleaseInput {
  root: string
  dist: string
  version: string
  /** The time every entry carries (see releaseTime). */
  mtime: Date
}

/**
 * Writes the platform's archive into `dist` around the built executable; returns its path.
 * @throws Error when a guide links to a file that does not exist (the archive would ship a broken link).
 */
export function writeReleaseArchive(platform: Platform, executable: string, input: ReleaseInput): string {
  const layout = LAYOUTS[platform]
  const top = `manifiesto-${input.version}`
  const documents = linkedFiles(input.root, SHIPPED_GUIDES)
  const missing = documents.filter((file) => !existsSync(join(input.root, file)))
  if (missing.length > 0) throw new Error(`las guías enlazan archivos que no existen: ${missing.join(', ')}`)
  const files: Array<{ path: string; data: Buffer; executable: boolean }> = [
    { path: layout.executable, data: readFileSync(executable), executable: true },
    { path: layout.service.as, data: readFileSync(join(input.root, layout.service.from)), executable: false },
    { path: 'config.example.json', data: readFileSync(join(input.root, 'config.example.json')), executable: false },
    ...documents.map((document) => ({
      path: document,
      data: readFileSync(join(input.root, document)),
      executable: false,
    })),
  ]
  const sums = files
    .map(({ path, data }) => `${createHash('sha256').update(data).digest('hex')}  ${path}\n`)
    .sort((a, b) => (a.slice(66) < b.slice(66) ? -1 : 1))
  const entries: ArchiveEntry[] = [
    ...files,
    { path: INNER_CHECKSUMS, data: Buffer.from(sums.join('')), executable: false },
  ].map((file) => ({ ...file, path: `${top}/${file.path}` }))
  const archive = join(input.dist, `${top}-${platform}.${layout.format}`)
  writeFileSync(archive, layout.format === 'zip' ? zip(entries, input.mtime) : tarGz(entries, input.mtime))
  return archive
}

/**
 * `SHA256SUMS` in `dist` over the given files, in the format `sha256sum -c` reads (hash, two
 * spaces, name), sorted by name. It lists exactly what this build made: a build of one platform
 * does not vouch for another platform's files left from an earlier build.
 * @throws Error when there is nothing to list (a build that made nothing must not publish a sum file).
 */
export function writeChecksums(dist: string, files: string[]): string {
  if (files.length === 0) throw new Error('no se construyó nada: no se escribe SHA256SUMS')
  const lines = files
    .map((file) => ({ name: basename(file), hash: createHash('sha256').update(readFileSync(file)).digest('hex') }))
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .map(({ name, hash }) => `${hash}  ${name}\n`)
  const file = join(dist, 'SHA256SUMS')
  writeFileSync(file, lines.join(''))
  return file
}

/**
 * The time stamped on every archive entry: SOURCE_DATE_EPOCH when set (the reproducible-builds
 * convention), otherwise the time of the commit being built — so rebuilding the same commit gives
 * the same archives, never "now".
 */
export function releaseTime(root: string): Date {
  const epoch =
    process.env.SOURCE_DATE_EPOCH ??
    execFileSync('git', ['log', '-1', '--format=%ct'], { cwd: root, encoding: 'utf8' }).trim()
  const seconds = Number(epoch)
  if (!Number.isSafeInteger(seconds) || seconds <= 0)
    throw new Error(`SOURCE_DATE_EPOCH o la fecha del commit no es un número de segundos: «${epoch}»`)
  return new Date(seconds * 1000)
}
