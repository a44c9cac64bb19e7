import { DomainError } from '../core/errors.ts'
import { headerText } from './headers.ts'

/** How a request body travels: as it is, or gzip-compressed (inflated as it arrives, see `readBody`). */
export type BodyEncoding = 'identity' | 'gzip'

/**
 * The coding of a request body, from its Content-Encoding header. Only the batch intake's bodies
 * (raw routes: insertar and validar) may come gzip-compressed — the supplier's 56 MB batch crosses
 * the VPN as ~6 MB; every other body is at most 1 MB of JSON, and stays plain. No header, an empty
 * one or `identity` mean the body as it is; `gzip` and its old alias `x-gzip` are read in any case.
 * @throws DomainError UNSUPPORTED_MEDIA_TYPE (415, `Accept-Encoding` naming what is accepted) for
 *   any other coding, several codings at once, or gzip where the route takes none.
 */
export function requireBodyEncoding(header: string | string[] | undefined, acceptsGzip: boolean): BodyEncoding {
  const value = Array.isArray(header) ? header.join(', ') : (header ?? '')
  // `identity` is the absence of a coding (RFC 9110 §8.4.1), wherever it is listed.
  const codings = value
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity')
  if (codings.length === 0) return 'identity'
  if (acceptsGzip && codings.length === 1 && (codings[0] === 'gzip' || codings[0] === 'x-gzip')) return 'gzip'
  throw new DomainError(
    'UNSUPPORTED_MEDIA_TYPE',
    unsupportedMessage(shownValue(header), acceptsGzip),
    {},
    {
      'Accept-Encoding': acceptsGzip ? 'gzip' : 'identity',
      // The body was not read: closing spares the client sending the rest of it for nothing.
      Connection: 'close',
    },
  )
}

function unsupportedMessage(shown: string, acceptsGzip: boolean): string {
  return acceptsGzip
    ? `El cuerpo llegó con Content-Encoding: ${shown}, que el servicio no acepta. Envíe el lote sin comprimir (sin Content-Encoding) ` +
        'o comprimido una sola vez con gzip (Content-Encoding: gzip); br, deflate y compress no se aceptan.'
    : `El cuerpo llegó con Content-Encoding: ${shown}, que esta ruta no acepta: envíe el cuerpo JSON sin comprimir y sin Content-Encoding ` +
        '(solo los lotes de facturas pueden enviarse comprimidos con gzip).'
}

/** The header as the client sent it, cut short: it is echoed in the answer. */
function shownValue(header: string | string[] | undefined): string {
  const text = (headerText(Array.isArray(header) ? header.join(', ') : header) ?? '').trim()
  return text.length > 60 ? `${text.slice(0, 60)}…` : text
}
