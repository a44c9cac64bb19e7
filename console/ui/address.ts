/**
 * The segment of the address that follows `name` (`/consola/facturas/{nfactura}/devolver`),
 * decoded once, as the link that led there encoded it (`encodeURIComponent`). Not wouter's
 * params: it decodes the whole address with `decodeURI`, which leaves `%2F`, `%3F`, `%23`, `%26`…
 * encoded and decodes `%25`, so an Nfactura holding `/`, `?`, `#`, `&` or `%` (any text is a valid
 * Nfactura) would reach its screen changed.
 */
export function addressSegmentAfter(name: string): string {
  const segments = window.location.pathname.split('/')
  const raw = segments[segments.indexOf(name) + 1] ?? ''
  try {
    return decodeURIComponent(raw)
  } catch {
    return raw
  }
}
