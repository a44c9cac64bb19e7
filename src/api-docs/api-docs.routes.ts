import Type from 'typebox'
import { defineRoute, type Route } from '../http/route.ts'
import { DOCS_FILES, DocsFiles, type DocsFileName } from './api-docs.assets.ts'

/**
 * What the reference's browser may do: run and style from this server only (Swagger UI's
 * initializer is a file of its own, no inline script), draw its icons (data: images), call this
 * server only ("try it"), and nothing else — no frames, no forms elsewhere, no other origin.
 */
export const DOCS_SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
}

const SERVED = Object.keys(DOCS_FILES).filter((name) => name !== 'pagina.html') as DocsFileName[]

const DocsFileParams = Type.Object({
  archivo: Type.Union(
    SERVED.map((name) => Type.Literal(name)),
    { description: 'Un archivo de la página de referencia' },
  ),
})

/** `GET /api/v1/docs`: the API reference in the browser (no key), and the files it loads. */
export function apiDocsRoutes(files = new DocsFiles()): Route[] {
  const reply = (name: DocsFileName) => ({
    status: 200,
    bytes: files.read(name),
    contentType: DOCS_FILES[name].contentType,
    // The page is small and follows the service; the files change only with a new version.
    headers: { ...DOCS_SECURITY_HEADERS, 'Cache-Control': name === 'pagina.html' ? 'no-cache' : 'max-age=3600' },
  })
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/docs',
      access: 'public',
      operationId: 'verReferenciaApi',
      rateGroup: 'general',
      tag: 'cliente: documentación',
      summary: 'Esta referencia de la API, en el navegador',
      description:
        'El documento OpenAPI (/api/v1/openapi.json) mostrado con Swagger UI, servido por el propio servicio (funciona sin Internet). ' +
        'No requiere clave; para probar operaciones se escribe la ApiKey en «Authorize», y solo vive en esa pestaña.',
      responses: { 200: { description: 'La página HTML de la referencia' } },
      handle: () => reply('pagina.html'),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/docs/:archivo',
      access: 'public',
      operationId: 'obtenerArchivoReferenciaApi',
      rateGroup: 'general',
      tag: 'cliente: documentación',
      summary: 'Un archivo de la página de referencia (Swagger UI y su inicio)',
      params: DocsFileParams,
      paramsNotFound: (raw) =>
        `No existe el archivo ${raw.archivo ?? ''} de la referencia de la API; ábrala en /api/v1/docs.`,
      responses: { 200: { description: 'El archivo (JavaScript o CSS)' } },
      handle: ({ params }) => reply(params.archivo as DocsFileName),
    }),
  ]
}
