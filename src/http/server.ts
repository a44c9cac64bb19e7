import { listen, type Listener } from 'listhen'
import type { Config } from '../config.ts'

/**
 * Serves the app with listhen on exactly the configured address: no fallback to another port
 * (the client system is configured with this one), HTTPS when certificate files are given.
 */
export async function startServer(
  listener: Parameters<typeof listen>[0],
  server: Config['server'],
): Promise<Listener> {
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
    throw new Error(`No se pudo escuchar en el puerto ${server.port} (se obtuvo ${started.address.port}).`)
  }
  return started
}
