import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

const SRC = fileURLToPath(new URL('../../src', import.meta.url))

/** `node:fs` functions that open a file descriptor: closing one drops SQLite's POSIX locks on that file. */
const OPENERS = new Set([
  'open',
  'openSync',
  'readFile',
  'readFileSync',
  'writeFile',
  'writeFileSync',
  'appendFile',
  'appendFileSync',
  'copyFile',
  'copyFileSync',
  'createReadStream',
  'createWriteStream',
  'truncate',
  'truncateSync',
  'readSync',
  'writeSync',
])

/** The only files that may open files, and the files they open (never the database or its -wal/-shm). */
const ALLOWED: Record<string, string> = {
  'config/config.ts': 'reads the configuration file',
  'db/native-addon.ts': "writes SQLite's native addon out of the executable",
  'api-docs/api-docs.assets.ts': "reads the API reference's files from node_modules and its folder (from source only)",
  'logging/log-file.ts': 'writes log.file (the configuration refuses a log.file that is the database or its -wal/-shm)',
  'console-assets/console-files.ts':
    "reads the built console's own files (only names its build folder lists), never the database",
  'backup/off-machine-copy.ts':
    'copies a finished snapshot (never the live database) to backup.copyTo, with no SQLite connection of the process open on it',
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  )
}

for (const file of sources(SRC)) {
  const name = relative(SRC, file)
  test(`hardening: ${name} opens no file descriptor of the database outside SQLite`, () => {
    const text = readFileSync(file, 'utf8')
    assert.doesNotMatch(
      text,
      /import\s+(\*\s+as\s+\w+|\w+)\s+from\s+'node:fs(\/promises)?'/,
      'import named functions from node:fs, so they can be checked',
    )
    const imported = [...text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'node:fs(?:\/promises)?'/g)].flatMap((match) =>
      match[1]!.split(',').map((part) => part.trim().split(/\s+as\s+/)[0]!),
    )
    const opening = imported.filter((fn) => OPENERS.has(fn))
    if (opening.length > 0)
      assert.ok(
        name in ALLOWED,
        `${name} imports ${opening.join(', ')}: only ${Object.keys(ALLOWED).join(', ')} may open files`,
      )
  })
}
