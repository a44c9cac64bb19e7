import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import sea from 'node:sea'

/**
 * The files of the API reference (`/api/v1/docs`): Swagger UI's (npm `swagger-ui-dist`) and the
 * page's own (`static/`). The single executable carries them as assets (build/build.ts adds every
 * file listed here); from source they are read from node_modules and this folder. Either way each
 * is read once, on its first request.
 */
export const DOCS_FILES = {
  'pagina.html': { contentType: 'text/html; charset=utf-8', source: './static/pagina.html' },
  'pagina.css': { contentType: 'text/css; charset=utf-8', source: './static/pagina.css' },
  'inicio.js': { contentType: 'text/javascript; charset=utf-8', source: './static/inicio.js' },
  'swagger-ui.css': { contentType: 'text/css; charset=utf-8', source: 'swagger-ui-dist/swagger-ui.css' },
  'swagger-ui-bundle.js': {
    contentType: 'text/javascript; charset=utf-8',
    source: 'swagger-ui-dist/swagger-ui-bundle.js',
  },
} as const

export type DocsFileName = keyof typeof DOCS_FILES

/** The name of a file's asset in the executable. */
export const docsAssetKey = (name: DocsFileName): string => `api-docs/${name}`

/**
 * Where a file is in the source tree (for the build, and for running from source): a package's
 * file through Node's resolution, the page's own beside this module.
 */
export function docsSourcePath(name: DocsFileName): string {
  const source = DOCS_FILES[name].source
  if (source.startsWith('./')) return fileURLToPath(new URL(source, import.meta.url))
  return createRequire(import.meta.url).resolve(source)
}

export class DocsFiles {
  private readonly loaded = new Map<DocsFileName, Buffer>()

  /** The file's bytes: from the executable's assets, or from the source tree. */
  read(name: DocsFileName): Buffer {
    let bytes = this.loaded.get(name)
    if (bytes === undefined) {
      bytes = sea.isSea() ? Buffer.from(sea.getAsset(docsAssetKey(name))) : readFileSync(docsSourcePath(name))
      this.loaded.set(name, bytes)
    }
    return bytes
  }
}
