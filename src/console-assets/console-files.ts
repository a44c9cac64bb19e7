import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import sea from 'node:sea'

/** One built file of the console, as it is sent. */
export interface ConsoleFile {
  bytes: Buffer
  contentType: string
}

/**
 * Where the built console comes from: the build folder (from source, `npm run dev`, tests) or the
 * executable's assets. Only names the build produced are ever looked up: a request's path is
 * matched against this list and never joined to a folder, so `/consola/../x` reaches nothing.
 */
export interface ConsoleFiles {
  /** `index.html`, or null when the console was not built (the answer then says how to build it). */
  index(): ConsoleFile | null
  /** A file under `assets/` by its exact name (`app-3F2K9QXA.js`), or undefined. */
  asset(name: string): ConsoleFile | undefined
}

/** The file listing the executable's console assets (written by build/build.ts). */
export const SEA_LIST_ASSET = 'consola/files.json'
export const SEA_ASSET_PREFIX = 'consola/'

/** Where `npm run build:consola` and `npm run dev` write the console (a function: the executable has no such folder). */
export function consoleBuildDir(): string {
  return fileURLToPath(new URL('../../console/dist/', import.meta.url))
}

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  png: 'image/png',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
  map: 'application/json; charset=utf-8',
}

export function contentTypeOf(name: string): string {
  return TYPES[name.slice(name.lastIndexOf('.') + 1)] ?? 'application/octet-stream'
}

/** The console of this process: the executable's assets inside it, else the build folder. */
export function defaultConsoleFiles(): ConsoleFiles {
  return sea.isSea() ? consoleFilesFromSea() : consoleFilesFromFolder(consoleBuildDir())
}

/**
 * The build folder (`index.html` and `assets/`). Read again whenever index.html changes, so
 * `npm run dev` serves each rebuild without a restart; otherwise held in memory.
 */
export function consoleFilesFromFolder(dir: string): ConsoleFiles {
  let loaded: { stamp: number; index: ConsoleFile; assets: Map<string, ConsoleFile> } | null = null
  const current = () => {
    const stamp = modifiedAt(join(dir, 'index.html'))
    if (stamp === null) return null
    if (loaded?.stamp !== stamp) {
      const assets = new Map<string, ConsoleFile>()
      const assetDir = join(dir, 'assets')
      for (const entry of readdirSync(assetDir, { withFileTypes: true })) {
        if (entry.isFile())
          assets.set(entry.name, {
            bytes: readFileSync(join(assetDir, entry.name)),
            contentType: contentTypeOf(entry.name),
          })
      }
      loaded = { stamp, index: { bytes: readFileSync(join(dir, 'index.html')), contentType: TYPES.html! }, assets }
    }
    return loaded
  }
  return {
    index: () => current()?.index ?? null,
    asset: (name) => current()?.assets.get(name),
  }
}

/** The executable's assets: `consola/files.json` lists them; each is read once, when first asked for. */
export function consoleFilesFromSea(): ConsoleFiles {
  let names: Set<string> | null = null
  const cache = new Map<string, ConsoleFile>()
  const read = (name: string): ConsoleFile => {
    let file = cache.get(name)
    if (file === undefined) {
      file = { bytes: Buffer.from(sea.getAsset(SEA_ASSET_PREFIX + name)), contentType: contentTypeOf(name) }
      cache.set(name, file)
    }
    return file
  }
  const listed = () =>
    (names ??= new Set(JSON.parse(Buffer.from(sea.getAsset(SEA_LIST_ASSET)).toString('utf8')) as string[]))
  return {
    index: () => (listed().has('index.html') ? read('index.html') : null),
    asset: (name) => (listed().has(`assets/${name}`) ? read(`assets/${name}`) : undefined),
  }
}

function modifiedAt(file: string): number | null {
  const stats = statSync(file, { throwIfNoEntry: false })
  return stats === undefined ? null : stats.mtimeMs
}
