import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { freePort } from '../support/cli.ts'
import { startServe, stop } from '../support/processes.ts'

/** More connections than the service's 1,024 open files: without a cap they exhaust its descriptors. */
const FLOOD_CONNECTIONS = 1_100
const OPEN_FILES = 1_024
/** How long another address pings while the flood goes on, and how fast each ping must answer. */
const PING_FOR_MS = 6_000
const PING_WITHIN_MS = 2_000

test('connections: 1,100 slow connections from one address, against a service limited to 1,024 open files, never keep another address from ping', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'manifiesto-flood-'))
  const port = await freePort()
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({
      server: { host: '127.0.0.1', port },
      auth: { apiKey: 'clave-de-prueba-flood' },
      backup: { everyHours: 0 },
    }),
  )
  const url = `http://127.0.0.1:${port}`
  const served = await startServe([], { cwd: dir, maxOpenFiles: OPEN_FILES, url })
  const { child } = served
  const flood = new SlowFlood(port, '127.0.0.1')
  try {
    // The limit reached the service itself (sh's `ulimit` then `exec`), so the test means something.
    assert.match(
      readFileSync(`/proc/${child.pid}/limits`, 'utf8'),
      new RegExp(`^Max open files\\s+${OPEN_FILES}\\s+${OPEN_FILES}\\s`, 'm'),
    )

    flood.start(FLOOD_CONNECTIONS)
    await sleep(1_500)
    const pings: Array<{ status: number | string; ms: number }> = []
    const until = Date.now() + PING_FOR_MS
    while (Date.now() < until) {
      pings.push(await pingFrom(url, '127.0.0.2', PING_WITHIN_MS))
      await sleep(200)
    }
    assert.ok(flood.attempts >= FLOOD_CONNECTIONS, `the flood opened ${flood.attempts} connections`)
    const late = pings.filter((ping) => ping.status !== 200 || ping.ms > PING_WITHIN_MS)
    assert.deepEqual(
      late,
      [],
      `${late.length} of ${pings.length} pings from 127.0.0.2 were not answered 200 within ${PING_WITHIN_MS} ms`,
    )
    assert.ok(pings.length >= 10, `${pings.length} pings`)
    flood.stop()
    const output = await stop(served)
    // The administrator hears of it, in one line a minute rather than one per refused connection.
    const warnings = output.stdout.split('\n').filter((line) => line.includes('conexiones rechazadas'))
    assert.equal(warnings.length, 1, warnings.join('\n'))
    assert.match(
      warnings[0]!,
      /"ip":"127\.0\.0\.1".*"msg":"conexiones rechazadas: 127\.0\.0\.1 ya tiene 32 abiertas \(server\.maxConnectionsPerIp\)"/,
    )
  } finally {
    flood.stop()
    await stop(served)
    rmSync(dir, { recursive: true, force: true })
  }
})

/**
 * Connections that send a request's first line and then one header line a second, never
 * finishing (slowloris), each reopened soon after the service drops it.
 */
class SlowFlood {
  attempts = 0
  private readonly sockets = new Set<Socket>()
  private readonly pending = new Set<NodeJS.Timeout>()
  private trickle: NodeJS.Timeout | undefined
  private stopped = false

  constructor(
    private readonly port: number,
    private readonly from: string,
  ) {}

  start(connections: number): void {
    for (let i = 0; i < connections; i++) this.open()
    this.trickle = setInterval(() => {
      for (const socket of this.sockets) if (socket.writable && !socket.connecting) socket.write('X-Lento: 1\r\n')
    }, 1_000)
  }

  stop(): void {
    this.stopped = true
    clearInterval(this.trickle)
    for (const timer of this.pending) clearTimeout(timer)
    for (const socket of this.sockets) socket.destroy()
    this.sockets.clear()
  }

  private open(): void {
    if (this.stopped) return
    this.attempts += 1
    const socket = connect({ host: '127.0.0.1', port: this.port, localAddress: this.from })
    this.sockets.add(socket)
    socket.on('connect', () => socket.write('GET /api/v1/ping HTTP/1.1\r\nHost: 127.0.0.1\r\n'))
    socket.on('error', () => {})
    socket.on('close', () => {
      this.sockets.delete(socket)
      if (this.stopped) return
      // Reopened a little later, as a client that retries would (a tight loop would only measure the test's own CPU).
      const timer = setTimeout(
        () => {
          this.pending.delete(timer)
          this.open()
        },
        200 + Math.random() * 300,
      )
      this.pending.add(timer)
    })
  }
}

/** GET /api/v1/ping from a chosen loopback address; the status, or why there was none, and the time taken. */
function pingFrom(
  url: string,
  localAddress: string,
  timeoutMs: number,
): Promise<{ status: number | string; ms: number }> {
  const started = Date.now()
  return new Promise((resolve) => {
    const done = (status: number | string) => resolve({ status, ms: Date.now() - started })
    const ping = request(`${url}/api/v1/ping`, { localAddress, agent: false, timeout: timeoutMs }, (response) => {
      response.resume()
      response.on('end', () => done(response.statusCode ?? 0))
      response.on('error', (error) => done(error.message))
    })
    ping.on('timeout', () => ping.destroy(new Error(`sin respuesta en ${timeoutMs} ms`)))
    ping.on('error', (error) => done(error.message))
    ping.end()
  })
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
