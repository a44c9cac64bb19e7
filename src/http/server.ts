import { accessSync, constants } from 'node:fs'
import type { Server as HttpServer } from 'node:http'
import { createServer, type Socket } from 'node:net'
import { listen, type Listener } from 'listhen'
import { KEEP_ALIVE_SECONDS, type Config } from '../config/config.ts'
import { limitConnections, type ConnectionNotices } from './connection-limits.ts'

/** A certificate or key file of server.https cannot be read. */
export class CertificateFileError extends Error {
  override readonly name = 'CertificateFileError'

  constructor(
    readonly key: 'server.https.certFile' | 'server.https.keyFile',
    readonly path: string,
    readonly code: string,
  ) {
    super(`no se puede leer ${path} (${key}, ${code})`)
  }
}

/** The configured address cannot be listened on: the port is taken, not ours, or the host is not this machine's. */
export class ListenError extends Error {
  override readonly name = 'ListenError'

  constructor(
    readonly host: string,
    readonly port: number,
    readonly code: string,
  ) {
    super(`no se puede escuchar en ${host}:${port} (${code})`)
  }
}

/**
 * Serves the app with listhen on exactly the configured address: no fallback to another port
 * (the client system is configured with this one), HTTPS when certificate files are given. Open
 * connections are capped (in all and per address) and the time a request's headers and the whole
 * request may take is bounded, over HTTP and HTTPS alike; refused connections are logged.
 * @throws ListenError when the address cannot be listened on, with the system's reason.
 */
export async function startServer(
  listener: Parameters<typeof listen>[0],
  server: Config['server'],
  notices: ConnectionNotices,
): Promise<Listener> {
  // listhen's own port search says only "Unable to find an available port": a plain listen first
  // gives the reason (EADDRINUSE, EADDRNOTAVAIL, EACCES) the administrator can act on.
  if (server.https.certFile !== '') {
    requireReadable('server.https.certFile', server.https.certFile)
    requireReadable('server.https.keyFile', server.https.keyFile)
  }
  if (server.port !== 0) await probeAddress(server.host, server.port)
  const https = server.https.certFile !== '' ? { cert: server.https.certFile, key: server.https.keyFile } : false
  const started = await listen(listener, {
    hostname: server.host,
    // Port 0 means "any free port" (tests); listhen would otherwise read it as "unset" → 3000.
    port: server.port === 0 ? { port: 0, random: true } : server.port,
    https,
    isProd: true,
    showURL: false,
    autoClose: false,
    qr: false,
  })
  if (server.port !== 0 && started.address.port !== server.port) {
    await started.close()
    throw new ListenError(server.host, server.port, 'EADDRINUSE')
  }
  limitConnections(started.server, { total: server.maxConnections, perAddress: server.maxConnectionsPerIp }, notices)
  boundRequestTimes(started.server, server)
  started.server.on('clientError', answerClientError)
  return started
}

/** How often Node looks for requests over their time; its default, 30 s, would let a 20-s limit run to 50. */
const TIMEOUT_CHECK_MS = 1_000

/**
 * A request's headers must arrive within server.headersTimeoutSeconds (else 408 and the connection
 * closes): a client that trickles a header line now and then holds its connection that long, not
 * for ever. Node's guidance is a header time longer than the keep-alive time, which the
 * configuration's minimum keeps. The whole request (headers, then the body each route times with
 * server.bodyTimeoutSeconds and answers first) has Node's own limit as a backstop a little later.
 */
function boundRequestTimes(http: HttpServer, server: Config['server']): void {
  http.keepAliveTimeout = KEEP_ALIVE_SECONDS * 1000
  http.headersTimeout = server.headersTimeoutSeconds * 1000
  http.requestTimeout = (server.headersTimeoutSeconds + server.bodyTimeoutSeconds + 10) * 1000
  // listhen creates the server without options and Node starts its check when listening begins, at
  // the interval it had then: Node's own 'listening' handler restarts the check at ours. (Were it
  // ever renamed, the check would keep Node's interval: the limits would hold, 30 s less exactly.)
  Object.assign(http, { connectionsCheckingInterval: TIMEOUT_CHECK_MS })
  for (const restart of http.listeners('listening')) {
    if (restart.name === 'setupConnectionsTracking') (restart as (this: HttpServer) => void).call(http)
  }
}

/** `access` only: the files are read by listhen when it listens. @throws CertificateFileError */
function requireReadable(key: CertificateFileError['key'], path: string): void {
  try {
    accessSync(path, constants.R_OK)
  } catch (error) {
    throw new CertificateFileError(key, path, (error as NodeJS.ErrnoException).code ?? 'error')
  }
}

/** Listens on the address and closes at once. @throws ListenError with the system's reason. */
function probeAddress(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', (error: NodeJS.ErrnoException) => reject(new ListenError(host, port, error.code ?? 'error')))
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()))
  })
}

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'Request Header Fields Too Large',
    'Los encabezados de la solicitud son demasiado grandes.',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [
    408,
    'Request Timeout',
    'La solicitud no terminó de llegar a tiempo; revise la conexión y reenvíe.',
  ],
}
const BAD_REQUEST: [number, string, string] = [400, 'Bad Request', 'La solicitud HTTP está mal formada.']

/**
 * What Node answers by itself (a malformed request, headers too large, a request that never
 * finished arriving) gets the service's error shape in Spanish instead of an empty body. As in
 * Node's own handler, nothing is written once an answer to that request has begun.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage
  if (socket.writable && error.code !== 'ECONNRESET' && !inFlight?.headersSent) {
    const [status, reason, message] = CLIENT_ERRORS[error.code ?? ''] ?? BAD_REQUEST
    const body = JSON.stringify({ success: false, message })
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    )
  }
  socket.destroy(error)
}
