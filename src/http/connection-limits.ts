import type { Server, Socket } from 'node:net'
import type { Logger } from 'pino'
import { nowMillis, type Clock } from '../core/clock.ts'
import { normalizeIp } from './client-address.ts'

export interface ConnectionLimits {
  /** server.maxConnections: open connections in all, kept below the process's open-file limit. */
  total: number
  /** server.maxConnectionsPerIp: open connections from one address (the socket's peer). */
  perAddress: number
}

export interface ConnectionNotices {
  log: Logger
  clock: Clock
}

/**
 * Caps the server's open connections, in all and per address, so that slow or idle connections
 * from one client (or many) can neither take every connection nor every file descriptor of the
 * process — SQLite, the log file and the backups need theirs. A connection over either cap is
 * closed as it arrives, before a byte of it is read: over HTTPS before the TLS handshake, since
 * the raw TCP socket is what `connection` hands over. The address is the socket's peer, never a
 * header (a header arrives later, and can be forged).
 */
export function limitConnections(server: Server, limits: ConnectionLimits, notices: ConnectionNotices): void {
  const open = new Map<string, number>()
  const refusals = new RefusalNotices(limits, notices)
  // Node itself closes a connection over the total before announcing it, and says so with 'drop'.
  server.maxConnections = limits.total
  server.on('drop', (dropped) => refusals.count('total', dropped?.remoteAddress))
  // Prepended: it runs before Node's own listener gives the socket an HTTP parser or a TLS wrapper.
  server.prependListener('connection', (socket: Socket) => {
    if (socket.remoteAddress === undefined) {
      // The peer is already gone (reset while it waited to be accepted).
      socket.destroy()
      return
    }
    const address = normalizeIp(socket.remoteAddress)
    const count = open.get(address) ?? 0
    if (count >= limits.perAddress) {
      // A reset rather than a close: a refused flood then leaves no TIME_WAIT state behind here.
      socket.resetAndDestroy()
      refusals.count('address', address)
      return
    }
    open.set(address, count + 1)
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1
      if (left === 0) open.delete(address)
      else open.set(address, left)
    })
  })
}

const NOTICE_EVERY_MS = 60_000

/**
 * One warning a minute at most while connections are refused, with how many were refused since the
 * previous one: the administrator learns of a flood without the log becoming one.
 */
class RefusalNotices {
  private refused = 0
  private lastNoticeAt = Number.NEGATIVE_INFINITY

  constructor(
    private readonly limits: ConnectionLimits,
    private readonly notices: ConnectionNotices,
  ) {}

  count(cap: 'address' | 'total', address: string | undefined): void {
    this.refused += 1
    const now = nowMillis(this.notices.clock)
    if (now - this.lastNoticeAt < NOTICE_EVERY_MS) return
    const ip = address === undefined ? undefined : normalizeIp(address)
    const message =
      cap === 'address'
        ? `conexiones rechazadas: ${ip} ya tiene ${this.limits.perAddress} abiertas (server.maxConnectionsPerIp)`
        : `conexiones rechazadas: el servicio ya tiene ${this.limits.total} abiertas (server.maxConnections)`
    this.notices.log.warn({ ip, rechazadas: this.refused }, message)
    this.refused = 0
    this.lastNoticeAt = now
  }
}
