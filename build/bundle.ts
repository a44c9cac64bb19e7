import { build } from 'esbuild'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { INTEGRITY_WORKER_BUNDLE } from '../src/backup/integrity-thread.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

/**
 * Bundles the service into one ESM file for plain `node` (what the bench measures and what the
 * executable will embed): TypeScript compiled away, dependencies inlined except better-sqlite3,
 * whose native addon is loaded from node_modules.
 */
export async function bundleService(outfile: string, entry = 'src/manifiesto.ts'): Promise<void> {
  await bundleOne(`${ROOT}/${entry}`, outfile)
  // The integrity check's worker thread (src/backup/integrity-thread.ts) is loaded from beside the service's bundle.
  if (entry === 'src/manifiesto.ts')
    await bundleOne(`${ROOT}/src/backup/integrity.worker.ts`, join(dirname(outfile), INTEGRITY_WORKER_BUNDLE))
}

async function bundleOne(entry: string, outfile: string): Promise<void> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['better-sqlite3'],
    sourcemap: 'linked',
    logLevel: 'warning',
    // Some bundled CommonJS dependencies call require(); give the ESM bundle one.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  })
}
