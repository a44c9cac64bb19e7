/**
 * What an administrator downloads: per platform one archive with everything needed to install
 * under a single folder `manifiesto-<version>/`, and `SHA256SUMS` to verify the download.
 *
 *   manifiesto-<version>-linux-x64.tar.gz    manifiesto, manifiesto.service
 *   manifiesto-<version>-win-x64.zip         manifiesto.exe, manifiesto-service.xml (WinSW)
 *
 * Both also hold config.example.json, docs/administracion.md (the guide, which installs from the
 * archive) and README.md, at the same relative places as in the repository so the guide's links
 * work in both (the README links to the guide).
 */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { tarGz, zip, type ArchiveEntry } from './archive.ts'

export type Platform = 'linux-x64' | 'win-x64'

interface Layout {
  format: 'tar.gz' | 'zip'
  /** The executable's name inside the archive (the name the guide and the service definition use). */
  executable: string
  /** The service definition: its file in the repository and its name inside the archive. */
  service: { from: string; as: string }
}

const LAYOUTS: Record<Platform, Layout> = {
  'linux-x64': { format: 'tar.gz', executable: 'manifiesto', service: { from: 'build/manifiesto.service', as: 'manifiesto.service' } },
  // WinSW finds its XML by its own name: the guide renames WinSW-x64.exe to manifiesto-service.exe.
  'win-x64': { format: 'zip', executable: 'manifiesto.exe', service: { from: 'build/manifiesto.xml', as: 'manifiesto-service.xml' } },
}

const DOCUMENTS = ['config.example.json', 'docs/administracion.md', 'README.md']

export interface ReleaseInput {
  root: string
  dist: string
  version: string
  /** The time every entry carries (see releaseTime). */
  mtime: Date
}

/** Writes the platform's archive into `dist` around the built executable; returns its path. */
export function writeReleaseArchive(platform: Platform, executable: string, input: ReleaseInput): string {
  const layout = LAYOUTS[platform]
  const top = `manifiesto-${input.version}`
  const entries: ArchiveEntry[] = [
    { path: `${top}/${layout.executable}`, data: readFileSync(executable), executable: true },
    { path: `${top}/${layout.service.as}`, data: readFileSync(join(input.root, layout.service.from)), executable: false },
    ...DOCUMENTS.map((document) => ({ path: `${top}/${document}`, data: readFileSync(join(input.root, document)), executable: false })),
  ]
  const file = join(input.dist, `${top}-${platform}.${layout.format}`)
  writeFileSync(file, layout.format === 'zip' ? zip(entries, input.mtime) : tarGz(entries, input.mtime))
  return file
}

/**
 * `SHA256SUMS` in `dist` over the given files, in the format `sha256sum -c` reads (hash, two
 * spaces, name), sorted by name. It lists exactly what this build made: a build of one platform
 * does not vouch for another platform's files left from an earlier build.
 */
export function writeChecksums(dist: string, files: string[]): string {
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
  const epoch = process.env.SOURCE_DATE_EPOCH ?? execFileSync('git', ['log', '-1', '--format=%ct'], { cwd: root, encoding: 'utf8' }).trim()
  const seconds = Number(epoch)
  if (!Number.isSafeInteger(seconds) || seconds <= 0) throw new Error(`SOURCE_DATE_EPOCH o la fecha del commit no es un número de segundos: «${epoch}»`)
  return new Date(seconds * 1000)
}
