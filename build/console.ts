/**
 * The operator console (console/), built with esbuild into a folder the service serves at
 * /consola/: `index.html` and `assets/` with content-hashed names (cached for a year by the
 * browser; index.html is never cached, so a new build is picked up at the next load).
 *
 *   npm run build:consola          → console/dist/
 *   buildConsole({ outdir })       → used by build/build.ts (the executables) and the e2e test
 *   watchConsole({ outdir })       → npm run dev: rebuilds on every change
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { basename, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build, context, type BuildOptions, type Metafile, type Plugin } from 'esbuild'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
export const CONSOLE_DIST = join(ROOT, 'console/dist')
/** The budget for the console's JavaScript and CSS together, gzipped. */
export const GZIP_BUDGET_BYTES = 150 * 1024

export interface ConsoleBuild {
  outdir: string
  /** Every file written, relative to outdir (`index.html`, `assets/app-XXXX.js`, …). */
  files: string[]
  /** JS + CSS, gzipped, in bytes. */
  gzipBytes: number
}

function options(outdir: string, plugins: Plugin[] = []): BuildOptions {
  return {
    entryPoints: { app: join(ROOT, 'console/main.tsx') },
    outdir: join(outdir, 'assets'),
    entryNames: '[name]-[hash]',
    chunkNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome109', 'firefox115', 'edge109'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
    tsconfig: join(ROOT, 'console/tsconfig.json'),
    plugins,
  }
}

/** One build into `outdir` (emptied first). Throws when the bundle exceeds the budget. */
export async function buildConsole({ outdir = CONSOLE_DIST, quiet = false } = {}): Promise<ConsoleBuild> {
  rmSync(outdir, { recursive: true, force: true })
  mkdirSync(outdir, { recursive: true })
  const result = await build(options(outdir))
  const written = finish(outdir, result.metafile!)
  if (!quiet) report(written)
  if (written.gzipBytes > GZIP_BUDGET_BYTES)
    throw new Error(`La consola pesa ${kb(written.gzipBytes)} comprimida; el límite es ${kb(GZIP_BUDGET_BYTES)}.`)
  return written
}

/** Rebuilds on every change of console/ (npm run dev); index.html is written last, after the assets. */
export async function watchConsole({ outdir = CONSOLE_DIST } = {}): Promise<{ dispose: () => Promise<void> }> {
  rmSync(outdir, { recursive: true, force: true })
  mkdirSync(join(outdir, 'assets'), { recursive: true })
  const rebuilt: Plugin = {
    name: 'consola-index',
    setup(builder) {
      builder.onEnd((result) => {
        if (result.errors.length > 0 || !result.metafile) return
        report(finish(outdir, result.metafile))
      })
    },
  }
  const ctx = await context(options(outdir, [rebuilt]))
  await ctx.watch()
  return { dispose: () => ctx.dispose() }
}

/** Writes index.html naming the entry's hashed files and removes files of earlier builds. */
function finish(outdir: string, metafile: Metafile): ConsoleBuild {
  const outputs = Object.keys(metafile.outputs).map((file) => relative(outdir, join(ROOT, file)).split('\\').join('/'))
  const entry = Object.entries(metafile.outputs).find(([, output]) => output.entryPoint !== undefined)
  if (!entry) throw new Error('la compilación de la consola no produjo su archivo principal')
  const script = relative(outdir, join(ROOT, entry[0])).split('\\').join('/')
  const style = entry[1].cssBundle ? relative(outdir, join(ROOT, entry[1].cssBundle)).split('\\').join('/') : null
  const template = readFileSync(join(ROOT, 'console/index.html'), 'utf8')
  const html = template
    .replace('<!--estilos-->', style === null ? '' : `<link rel="stylesheet" href="/consola/${style}">`)
    .replace('<!--programa-->', `<script type="module" src="/consola/${script}"></script>`)
  const current = new Set(outputs.map((file) => basename(file)))
  for (const name of readdirSync(join(outdir, 'assets'))) if (!current.has(name)) rmSync(join(outdir, 'assets', name))
  writeFileSync(join(outdir, 'index.html'), html)
  const shipped = outputs.filter((file) => /\.(js|css)$/.test(file))
  const gzipBytes = shipped.reduce(
    (sum, file) => sum + gzipSync(readFileSync(join(outdir, file)), { level: 9 }).length,
    0,
  )
  return { outdir, files: ['index.html', ...outputs], gzipBytes }
}

function report(built: ConsoleBuild): void {
  console.log(
    `consola: ${built.files.length} archivos en ${relative(ROOT, built.outdir) || '.'}; JS + CSS comprimidos: ${kb(built.gzipBytes)} (límite ${kb(GZIP_BUDGET_BYTES)})`,
  )
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildConsole()
}
