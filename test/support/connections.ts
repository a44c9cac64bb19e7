import { connect as connectTcp, type Socket } from 'node:net'
import { connect as connectTls } from 'node:tls'

/**
 * A raw connection to the service from a chosen loopback address (Linux answers on all of
 * 127/8), over TCP or TLS, that starts a `GET /api/v1/ping` and leaves it unfinished until told:
 * what a slow client holds open. Whatever happens, `closed` settles when the socket is gone.
 */
export class HeldConnection {
  readonly socket: Socket
  /** True once the connection is up (TLS: after the handshake) and the request begun; false if it closed first. */
  readonly ready: Promise<boolean>
  /** Settles when the socket closes, with the milliseconds it lived. */
  readonly closed: Promise<number>
  /** Every byte the service sent, as text. */
  received = ''

  constructor(port: number, options: { from: string; ca?: Buffer; start?: string }) {
    const opened = Date.now()
    const target = { host: '127.0.0.1', port, localAddress: options.from }
    this.socket = options.ca === undefined ? connectTcp(target) : connectTls({ ...target, ca: options.ca })
    this.socket.on('data', (chunk: Buffer) => (this.received += chunk.toString('utf8')))
    this.socket.on('error', () => {})
    this.closed = new Promise((resolve) => this.socket.once('close', () => resolve(Date.now() - opened)))
    const start = options.start ?? 'GET /api/v1/ping HTTP/1.1\r\nHost: 127.0.0.1\r\n'
    this.ready = new Promise((resolve) => {
      this.socket.once(options.ca === undefined ? 'connect' : 'secureConnect', () => {
        if (start !== '') this.socket.write(start)
        resolve(true)
      })
      this.socket.once('close', () => resolve(false))
    })
  }

  /** Ends the request's headers and waits for the answer's status: 0 if the connection closes first, or after `ms`. */
  async finish(ms = 5_000): Promise<number> {
    if (!(await this.ready)) return 0
    this.socket.write('\r\n')
    let timer: NodeJS.Timeout | undefined
    const answered = new Promise<void>((resolve) => {
      const check = () => this.received.includes('\r\n\r\n') && resolve()
      this.socket.on('data', check)
      check()
      timer = setTimeout(resolve, ms)
    })
    await Promise.race([answered, this.closed])
    clearTimeout(timer)
    return Number(/^HTTP\/1\.1 (\d{3})/.exec(this.received)?.[1] ?? 0)
  }

  /** Whether the socket is still open `ms` from now. */
  async openAfter(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined
    const still = new Promise<'open'>((resolve) => (timer = setTimeout(() => resolve('open'), ms)))
    const outcome = await Promise.race([this.closed, still])
    clearTimeout(timer)
    return outcome === 'open'
  }

  close(): Promise<number> {
    this.socket.destroy()
    return this.closed
  }
}

/** Opens `count` held connections from one address, each up (and its request begun) before the next. */
export async function holdConnections(
  port: number,
  count: number,
  options: { from: string; ca?: Buffer },
): Promise<HeldConnection[]> {
  const held: HeldConnection[] = []
  for (let i = 0; i < count; i++) {
    const connection = new HeldConnection(port, options)
    held.push(connection)
    if (!(await connection.ready)) throw new Error(`la conexión ${i + 1} desde ${options.from} se cerró al abrirse`)
  }
  return held
}
