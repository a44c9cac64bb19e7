import { accessSync, constants } from 'node:fs'
import { createServer, type Socket } from 'node:net'
import { listen, type Listener } from 'listhen'
import type { Config } from '../config.ts'

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
 * (the client system is configured with this one), HTTPS when certificate files are given.
 * @throws ListenError when the address cannot be listened on, with the system's reason.
 */
export async function startServer(
  listener: Parameters<typeof listen>[0],
  server: Config['server'],
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
  // The body timeout of each route (server.bodyTimeoutSeconds) answers first; Node's own limit on
  // receiving a whole request is a backstop a little later.
  started.server.requestTimeout = (server.bodyTimeoutSeconds + 10) * 1000
  started.server.on('clientError', answerClientError)
  return started
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
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'Los encabezados de la solicitud son demasiado grandes.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'La solicitud no terminó de llegar a tiempo; revise la conexión y reenvíe.'],
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
