import { build } from 'esbuild'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

/**
 * Bundles the service into one ESM file for plain `node` (what the bench measures and what the
 * executable will embed): TypeScript compiled away, dependencies inlined except better-sqlite3,
 * whose native addon is loaded from node_modules.
 */
export async function bundleService(outfile: string, entry = 'src/cli.ts'): Promise<void> {
  await build({
    entryPoints: [`${ROOT}/${entry}`],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['better-sqlite3'],
    sourcemap: 'linked',
    logLevel: 'warning',
    // Some bundled CommonJS dependencies call require(); give the ESM bundle one.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  })
}
