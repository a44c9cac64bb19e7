/** `::ffff:1.2.3.4` (an IPv4 client of a dual-stack socket) is `1.2.3.4`: one client, one address. */
export function normalizeIp(ip: string): string {
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip
}
