import type { IncomingHttpHeaders } from 'node:http'
import { isIP } from 'node:net'

/**
 * Who the client is, when `server.trustProxy` proxies stand in front of the service. Each proxy
 * appends to `X-Forwarded-For` the address that connected to it, so only the right-most
 * `trustProxy` entries were written by proxies we trust; anything to their left came from the
 * client and can be forged. The client is the entry that many places from the right: the address
 * that connected to the outermost trusted proxy.
 */
export interface ForwardedRequest {
  headers: IncomingHttpHeaders
  /** The socket's peer: the client itself, or the nearest proxy. */
  socketAddress: string | undefined
}

/**
 * The client's address: with `proxies` = 0 the socket's peer; otherwise the entry `proxies` places
 * from the right of every `X-Forwarded-For` header joined in order (the left-most one when there
 * are fewer entries). An entry there that is no IP address (`unknown`, garbage) is never taken:
 * the nearest valid entry to its right is — an address a trusted proxy wrote — else the socket's.
 */
export function clientAddressOf(request: ForwardedRequest, proxies: number): string {
  const socket = normalizeIp(request.socketAddress ?? 'desconocida')
  if (proxies === 0) return socket
  const entries = headerEntries(request.headers['x-forwarded-for'])
  const from = Math.max(0, entries.length - proxies)
  for (let i = from; i < entries.length; i++) {
    const address = addressIn(entries[i]!)
    if (address !== null) return address
  }
  return socket
}

/**
 * Whether the browser reached the service over HTTPS, and at which host — as `Origin` names them.
 * With trusted proxies, the nearest proxy's `X-Forwarded-Proto` and `X-Forwarded-Host` (the
 * right-most value: a proxy that appends puts its own last, one that replaces leaves only its own)
 * say it; a value the client sent ahead of them is never read. Without them, or without those
 * headers, the service's own listener says it.
 */
export function browserOriginOf(
  request: ForwardedRequest,
  proxies: number,
  https: boolean,
): { secure: boolean; host: string } {
  const { headers } = request
  const proto = proxies > 0 ? headerEntries(headers['x-forwarded-proto']).at(-1)?.toLowerCase() : undefined
  const host = proxies > 0 ? headerEntries(headers['x-forwarded-host']).at(-1) : undefined
  return {
    secure: proto === 'https' || proto === 'http' ? proto === 'https' : https,
    host: host || (headers.host ?? ''),
  }
}

/** `::ffff:1.2.3.4` (an IPv4 client of a dual-stack socket) is `1.2.3.4`: one client, one address. */
export function normalizeIp(ip: string): string {
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip
}

/** Every comma-separated entry of a header, all its occurrences joined in order. */
function headerEntries(value: string | string[] | undefined): string[] {
  if (value === undefined) return []
  return (Array.isArray(value) ? value.join(',') : value).split(',').map((entry) => entry.trim())
}

/**
 * The IP address an `X-Forwarded-For` entry names, or null. Proxies write a bare address; some
 * add the port (`1.2.3.4:5678`, `[2001:db8::1]:443`), which is dropped.
 */
function addressIn(entry: string): string | null {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(entry)
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(entry)
  const candidate = bracketed?.[1] ?? withPort?.[1] ?? entry
  return isIP(candidate) === 0 ? null : normalizeIp(candidate.toLowerCase())
}
