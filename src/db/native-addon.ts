import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import sea from 'node:sea'

/**
 * SQLite's native addon when running as the single executable, or undefined from source (where
 * better-sqlite3 finds its own). Inside the executable `require` reaches only built-in modules,
 * so the addon travels as an asset: it is written once, atomically, under a name made of its
 * hash in a per-user cache folder (or, failing that, beside the executable or in the temp folder
 * — a `noexec` mount is skipped), and loaded with process.dlopen.
 */
export function nativeAddon(): object | undefined {
  const file = nativeAddonFile()
  if (file === undefined) return undefined
  const module = { exports: {} as object }
  process.dlopen(module, file)
  return module.exports
}

/**
 * Where the addon was written for this executable (a worker thread loads it from there too), or
 * undefined from source. Writes it on the first call of a machine (see nativeAddon).
 */
export function nativeAddonFile(): string | undefined {
  if (!sea.isSea()) return undefined
  // The build stores the addon's hash beside it, so a start that finds the file already written
  // does not read (and keep in memory) the 3 MB asset just to name it.
  const hash = Buffer.from(sea.getAsset('better_sqlite3.node.sha256')).toString('utf8').trim().slice(0, 16)
  const name = `better_sqlite3-${hash}.node`
  const failures: string[] = []
  for (const folder of candidateFolders()) {
    const file = join(folder, name)
    try {
      if (!existsSync(file)) writeAtomically(file, verifiedAsset(hash))
      // Loadable from here (a noexec mount is not): the caller loads it for real.
      process.dlopen({ exports: {} }, file)
      return file
    } catch (error) {
      failures.push(`${file}: ${(error as Error).message}`)
    }
  }
  throw new Error(`No se pudo cargar el complemento nativo de SQLite:\n  ${failures.join('\n  ')}`)
}

function verifiedAsset(hash: string): Buffer {
  const bytes = Buffer.from(sea.getAsset('better_sqlite3.node'))
  if (!createHash('sha256').update(bytes).digest('hex').startsWith(hash))
    throw new Error('el complemento nativo incluido está dañado')
  return bytes
}

function candidateFolders(): string[] {
  const home = homedir()
  const perUser =
    process.platform === 'win32' ? join(home, 'AppData', 'Local', 'manifiesto') : join(home, '.cache', 'manifiesto')
  return [
    perUser,
    join(dirname(process.execPath), '.manifiesto'),
    join(tmpdir(), `manifiesto-${process.getuid?.() ?? 'usuario'}`),
  ]
}

function writeAtomically(file: string, bytes: Buffer): void {
  mkdirSync(dirname(file), { recursive: true })
  const temporary = `${file}.${process.pid}.tmp`
  try {
    writeFileSync(temporary, bytes, { mode: 0o755 })
    renameSync(temporary, file)
  } catch (error) {
    rmSync(temporary, { force: true })
    throw error
  }
}
