import type { ConsoleFile, ConsoleFiles } from './console-files.ts'

/** Where the console lives; `/` sends a browser there. */
export const CONSOLE_PATH = '/consola/'

/**
 * Headers of every console answer: only the service's own scripts and styles run (no inline
 * script or style, no other origin), the page cannot be framed, types are not guessed, and the
 * address of a page is not sent to other sites.
 */
export const CONSOLE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'self'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'; object-src 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
}

/** Hashed names change with their content: a year, never revalidated. */
const IMMUTABLE = 'public, max-age=31536000, immutable'

export interface ConsoleAnswer {
  status: number
  headers: Record<string, string>
  body: Buffer | string
}

/**
 * The answer for a path of the console, or null when the path is not the console's (the API
 * answers it). `/consola/assets/NAME` is a built file or 404; every other path under `/consola/`
 * is a screen of the app (deep links), answered with index.html.
 */
export function consoleAnswer(files: ConsoleFiles, method: string, pathname: string): ConsoleAnswer | null {
  if (pathname === '/' || pathname === '/consola')
    return { status: 302, headers: { Location: CONSOLE_PATH, ...CONSOLE_SECURITY_HEADERS }, body: '' }
  if (!pathname.startsWith(CONSOLE_PATH)) return null
  if (method !== 'GET' && method !== 'HEAD') {
    return text(405, 'La consola solo responde a GET.', { Allow: 'GET, HEAD' })
  }
  const rest = pathname.slice(CONSOLE_PATH.length)
  if (rest.startsWith('assets/')) {
    const file = files.asset(rest.slice('assets/'.length))
    return file === undefined
      ? text(
          404,
          `No existe el archivo ${pathname} de la consola. Recargue la página: la consola pudo haberse actualizado.`,
        )
      : fileAnswer(file, IMMUTABLE)
  }
  const index = files.index()
  if (index === null) {
    return text(
      503,
      'La consola no está construida en esta instalación: ejecute «npm run build:consola» (desarrollo) o use el ejecutable publicado.',
    )
  }
  return fileAnswer(index, 'no-cache')
}

function fileAnswer(file: ConsoleFile, cacheControl: string): ConsoleAnswer {
  return {
    status: 200,
    headers: { 'Content-Type': file.contentType, 'Cache-Control': cacheControl, ...CONSOLE_SECURITY_HEADERS },
    body: file.bytes,
  }
}

function text(status: number, message: string, extra: Record<string, string> = {}): ConsoleAnswer {
  return {
    status,
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'no-cache',
      ...CONSOLE_SECURITY_HEADERS,
      ...extra,
    },
    body: message,
  }
}
