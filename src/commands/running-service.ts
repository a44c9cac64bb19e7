import { get as getHttp } from 'node:http'
import { get as getHttps } from 'node:https'
import BetterSqlite3 from 'better-sqlite3'
import type { Config } from '../config/config.ts'
import { nativeAddon } from '../db/native-addon.ts'

/** How long the service's address is given to answer before it counts as not running. */
const PING_WAIT_MS = 2000

/**
 * Where the service of this configuration answers its ping, or null when nothing does: a
 * service running with the same configuration uses the same database. An address that listens
 * everywhere (0.0.0.0, ::) is asked on this machine's loopback; HTTPS is asked without checking
 * the certificate (only whether it is manifiesto that answers).
 */
export async function findRunningService(server: Config['server']): Promise<string | null> {
  const host = server.host === '0.0.0.0' ? '127.0.0.1' : server.host === '::' ? '::1' : server.host
  const https = server.https.certFile !== ''
  const url = `${https ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${server.port}/api/v1/ping`
  if (server.port === 0) return null
  return new Promise((resolve) => {
    const request = (https ? getHttps : getHttp)(
      url,
      { timeout: PING_WAIT_MS, rejectUnauthorized: false },
      (response) => {
        let body = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (body += chunk.slice(0, 2000)))
        response.on('end', () =>
          resolve(/"service"\s*:\s*"manifiesto"/.test(body) ? url.replace(/\/api\/v1\/ping$/, '/') : null),
        )
        response.on('error', () => resolve(null))
      },
    )
    request.on('timeout', () => request.destroy())
    request.on('error', () => resolve(null))
  })
}

/**
 * Whether another connection — of the service, or of a `check` or `backup` under way, in any
 * process — has the database open: an exclusive lock is refused while one does. Nothing is
 * written. A file SQLite cannot read is not in use by it.
 */
export function isDatabaseInUse(path: string): boolean {
  const addon = nativeAddon()
  let probe: BetterSqlite3.Database
  try {
    probe = new BetterSqlite3(path, {
      fileMustExist: true,
      timeout: 0,
      ...(addon === undefined ? {} : { nativeBinding: addon as unknown as string }),
    })
  } catch {
    return false
  }
  try {
    // In WAL mode every open connection holds a shared lock on the file's write-ahead index, so
    // the exclusive lock of EXCLUSIVE locking mode is only granted to a connection alone.
    probe.pragma('locking_mode = EXCLUSIVE')
    probe.exec('BEGIN EXCLUSIVE')
    probe.exec('COMMIT')
    return false
  } catch (error) {
    return (
      (error as { code?: unknown }).code === 'SQLITE_BUSY' || (error as { code?: unknown }).code === 'SQLITE_LOCKED'
    )
  } finally {
    probe.close()
  }
}
