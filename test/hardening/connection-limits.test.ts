import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, test } from 'node:test'
import { HeldConnection, holdConnections } from '../support/connections.ts'
import { withService, type ConfigOverrides } from '../support/service.ts'
import { selfSignedCertificate } from '../support/tls.ts'

/** A refused connection is closed as it arrives; this is "at once" with room for a loaded machine. */
const AT_ONCE_MS = 1_000

interface CapScenario {
  name: string
  config: ConfigOverrides['server']
  tls: boolean
  /** Connections held open from 127.0.0.3 first: exactly as many as the cap allows. */
  hold: number
  /** Where the connection over the cap comes from. */
  extraFrom: string
  /** Whether yet another address still gets in while the cap is reached. */
  othersStillConnect: boolean
}

const caps: CapScenario[] = [
  {
    name: 'the 33rd connection from one address (default server.maxConnectionsPerIp)',
    config: {},
    tls: false,
    hold: 32,
    extraFrom: '127.0.0.3',
    othersStillConnect: true,
  },
  {
    name: 'the 33rd connection from one address over HTTPS, before its TLS handshake',
    config: {},
    tls: true,
    hold: 32,
    extraFrom: '127.0.0.3',
    othersStillConnect: true,
  },
  {
    name: 'a connection over server.maxConnectionsPerIp 2',
    config: { maxConnectionsPerIp: 2 },
    tls: false,
    hold: 2,
    extraFrom: '127.0.0.3',
    othersStillConnect: true,
  },
  {
    name: 'a connection over server.maxConnections 4, from an address with none open',
    config: { maxConnections: 4 },
    tls: false,
    hold: 4,
    extraFrom: '127.0.0.4',
    othersStillConnect: false,
  },
]

for (const scenario of caps) {
  test(`connections: ${scenario.name} is closed at once, unanswered; a slot freed lets the next in`, async () => {
    const https = scenario.tls ? selfSignedCertificate() : undefined
    const ca = https === undefined ? undefined : readFileSync(https.certFile)
    const tls = ca === undefined ? {} : { ca }
    await withService({ config: { server: { ...scenario.config, ...(https ? { https } : {}) } } }, async (service) => {
      const port = Number(new URL(service.url).port)
      const opened: HeldConnection[] = []
      const open = (from: string) => {
        const connection = new HeldConnection(port, { from, ...tls })
        opened.push(connection)
        return connection
      }
      try {
        const held = await holdConnections(port, scenario.hold, { from: '127.0.0.3', ...tls })
        opened.push(...held)

        const extra = open(scenario.extraFrom)
        // Over TCP the kernel completes the connection before the service sees it; over TLS the handshake never happens.
        if (scenario.tls) assert.equal(await extra.ready, false, 'no TLS handshake')
        assert.equal(await extra.openAfter(AT_ONCE_MS), false, 'the connection over the cap is closed at once')
        assert.equal(extra.received, '', 'nothing is answered on it')
        const other = open('127.0.0.5')
        if (scenario.othersStillConnect) assert.equal(await other.finish(), 200, 'another address is served meanwhile')
        else assert.equal(await other.openAfter(AT_ONCE_MS), false, 'no other address gets in either')

        await held[0]!.close()
        // The service learns of the close a moment later: the next connection is tried until then.
        let next = 0
        for (let attempt = 0; attempt < 20 && next !== 200; attempt++) {
          if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 50))
          next = await open(scenario.extraFrom).finish()
        }
        assert.equal(next, 200, 'a slot freed is taken again')
        // The connections held all along were served too: capped, never dropped.
        const statuses = await Promise.all(held.slice(1).map((connection) => connection.finish()))
        assert.deepEqual(
          statuses,
          held.slice(1).map(() => 200),
        )
        const warnings = service.logLines().filter((line) => String(line.msg).startsWith('conexiones rechazadas'))
        assert.equal(warnings.length, 1, 'one warning a minute at most')
      } finally {
        await Promise.all(opened.map((connection) => connection.close()))
      }
    })
  })
}

/** server.headersTimeoutSeconds at its minimum: one more than the 5-s keep-alive time. */
const HEADERS_SECONDS = 6

describe('connections: headers that do not arrive within server.headersTimeoutSeconds', { concurrency: true }, () => {
  const slow = [
    { name: 'a connection that never sends a byte', start: '', trickle: false },
    {
      name: 'a request that trickles a header line every half second',
      start: 'GET /api/v1/ping HTTP/1.1\r\nHost: 127.0.0.1\r\n',
      trickle: true,
    },
  ]
  for (const scenario of slow) {
    test(`${scenario.name} → 408 in Spanish and closed, within a second of the limit`, () =>
      withService({ config: { server: { headersTimeoutSeconds: HEADERS_SECONDS } } }, async (service) => {
        const connection = new HeldConnection(Number(new URL(service.url).port), {
          from: '127.0.0.3',
          start: scenario.start,
        })
        const trickle = scenario.trickle ? setInterval(() => connection.socket.write('X-Lento: 1\r\n'), 500) : undefined
        try {
          assert.equal(await connection.ready, true)
          const lived = await Promise.race([
            connection.closed,
            new Promise<number>((resolve) => setTimeout(() => resolve(-1), (HEADERS_SECONDS + 5) * 1000)),
          ])
          assert.ok(
            lived >= HEADERS_SECONDS * 1000 - 100 && lived <= (HEADERS_SECONDS + 1.5) * 1000,
            `closed after ${lived} ms (-1: still open)`,
          )
          assert.match(connection.received, /^HTTP\/1\.1 408 Request Timeout\r\n/)
          assert.match(
            connection.received,
            /"message":"La solicitud no terminó de llegar a tiempo; revise la conexión y reenvíe\."/,
          )
        } finally {
          clearInterval(trickle)
          await connection.close()
        }
      }))
  }
})
