/** The service under measure: started in its own process on a fresh folder, talked to over HTTP. */
import { spawn, type ChildProcess } from 'node:child_process'
import { Agent, request } from 'node:http'
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'
import { freePort } from '../build/free-port.ts'

export const API_KEY = 'bench-api-key-0123456789'
export const OPERATOR_KEY = 'bench-operator-key'
export const ROOT = fileURLToPath(new URL('..', import.meta.url))
export const EXECUTABLE = join(ROOT, 'build/dist/manifiesto-linux-x64')
/**
 * Batches and listings are measured on the service's bundle on plain node (not through tsx): the
 * same Node as the floors, so a ratio compares code, not runtimes. The executable's own rows
 * (start, idle memory) are measured on the executable.
 */
export const BUNDLE = join(ROOT, 'build/cache/bench/manifiesto.mjs')

export interface Service {
  url: string
  /** The service's folder: its config.json, and its data/ and backups/ by default. */
  folder: string
  child: ChildProcess
  /** The database file the service uses (by default data/manifiesto.db beside its config). */
  database: string
  stop: () => Promise<void>
}

export interface ServiceOptions {
  /** The command line before `--config` (default: the bundle on this node). */
  command?: string[]
  /** Keys merged into the config's `server`. */
  server?: Record<string, unknown>
  /** Top-level config sections, replacing the defaults'. */
  config?: Record<string, unknown>
  /** How long the service may take to answer its first ping (a big database opens slower). */
  startMs?: number
}

export async function startService(work: string, options: ServiceOptions = {}): Promise<Service> {
  const dir = mkdtempSync(join(work, 'service-'))
  const port = await freePort()
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({
      server: { host: '127.0.0.1', port, ...options.server },
      auth: { apiKey: API_KEY, operatorKey: OPERATOR_KEY },
      rateLimits: {
        insertPerMinute: 1000,
        returnsPerMinute: 100_000,
        generalPerMinute: 100_000,
        operatorPerMinute: 100_000,
      },
      log: { level: 'warn' },
      ...options.config,
    }),
  )
  const [executable, ...args] = options.command ?? [process.execPath, BUNDLE, 'serve']
  const child = spawn(executable!, [...args, '--config', join(dir, 'config.json')], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const url = `http://127.0.0.1:${port}`
  const deadline = performance.now() + (options.startMs ?? 10_000)
  for (;;) {
    try {
      if ((await fetch(`${url}/api/v1/ping`)).ok) break
    } catch {
      if (performance.now() > deadline || child.exitCode !== null) throw new Error('the service did not start')
      await sleep(2)
    }
  }
  const path = (options.config?.database as { path?: unknown } | undefined)?.path
  return {
    url,
    folder: dir,
    child,
    database: typeof path === 'string' ? path : join(dir, 'data', 'manifiesto.db'),
    stop: async () => {
      if (child.exitCode !== null) return
      child.kill('SIGTERM')
      await new Promise((resolve) => child.once('exit', resolve))
    },
  }
}

export interface Answer {
  status: number
  text: string
}

/**
 * POST /api/v1/facturas/insertar with `body` as it is (extra headers, e.g. Content-Encoding), by
 * node:http with its Content-Length, as a client holding the batch in memory sends it. Not fetch:
 * undici works over a 56 MB body for ~60 ms on this side before the request's first byte leaves
 * (measured: its headers reach a bare server 55–65 ms after the call, node:http's in 1–3 ms), so
 * it timed the client as much as the service.
 */
export async function postBatch(url: string, body: Buffer, headers: Record<string, string> = {}): Promise<Answer> {
  const { status, bytes } = await exchange(
    'POST',
    `${url}/api/v1/facturas/insertar`,
    { ApiKey: API_KEY, 'Content-Type': 'application/json', 'Content-Length': String(body.length), ...headers },
    body,
  )
  return { status, text: bytes.toString('utf8') }
}

/**
 * A GET by node:http, answered with its bytes undecoded: a timed read ends at the last byte. Not
 * fetch: on a ~1 MB page undici and its decoding to a string take ~1.6 ms on this side (measured
 * on a cached listing page: 2.7 ms by fetch, 1.1 ms by node:http), more than the service's part.
 */
export function getBytes(url: string, headers: Record<string, string>): Promise<{ status: number; bytes: Buffer }> {
  return exchange('GET', url, headers)
}

function exchange(
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: Buffer,
): Promise<{ status: number; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { method, headers }, (response) => {
      const pieces: Buffer[] = []
      response.on('data', (piece: Buffer) => pieces.push(piece))
      response.on('end', () => resolve({ status: response.statusCode!, bytes: Buffer.concat(pieces) }))
      response.on('error', reject)
    })
    sent.on('error', reject)
    sent.end(body)
  })
}

export async function postOperator(url: string, path: string, body: unknown): Promise<Answer> {
  const response = await fetch(`${url}/api/v1/operador/${path}`, {
    method: 'POST',
    headers: { OperatorKey: OPERATOR_KEY, Operador: 'bench', 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: response.status, text: await response.text() }
}

export async function getOperator(url: string, path: string): Promise<Answer> {
  const response = await fetch(`${url}/api/v1/operador/${path}`, { headers: { OperatorKey: OPERATOR_KEY } })
  return { status: response.status, text: await response.text() }
}

/** A line of /proc/<pid>/status in MB (VmRSS: resident now, VmHWM: peak resident). */
export function memoryOf(child: ChildProcess, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8')
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)
  return match ? Number(match[1]) / 1024 : NaN
}

/**
 * What a stopped service's database takes on disk: the file plus its WAL if one was left (a clean
 * stop checkpoints it away), and how many invoices it stores. Sizes are read before the database
 * is opened to count, since opening it may create a WAL of its own.
 */
export function storedSize(database: string): { bytes: number; invoices: number } {
  let bytes = statSync(database).size
  if (existsSync(`${database}-wal`)) bytes += statSync(`${database}-wal`).size
  const db = new Database(database, { fileMustExist: true })
  try {
    const { invoices } = db.prepare('SELECT count(*) AS invoices FROM invoices').get() as { invoices: number }
    return { bytes, invoices }
  } finally {
    db.close()
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/**
 * The bench's own garbage (batches generated, parsed answers) collected before a timed request,
 * so a collection in this process does not land inside a measure of the service: with 2 cores,
 * a major collection here added 100–300 ms to a resend the service answered in ~100 ms. Needs
 * `--expose-gc` (the `bench` script passes it); without it, nothing happens.
 */
export function settleClient(): void {
  ;(globalThis as { gc?: () => void }).gc?.()
}

/** What `pingsWhile` saw: the longest round-trip of a ping while the work ran, and how many. */
export interface PingStall {
  longestMs: number
  count: number
}

/** A ping every 20 ms (the next one 20 ms after the previous answered). */
export const PING_EVERY_MS = 20

/**
 * Pings the service from just before `work` starts until it ends, on a keep-alive connection of
 * their own (never behind the work's upload in a shared pool); the longest round-trip is how long
 * the service could not answer anyone else (contract §8: ≤ 1 s).
 */
export async function pingsWhile<T>(url: string, work: () => Promise<T>): Promise<{ result: T; stall: PingStall }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  let done = false
  const stall: PingStall = { longestMs: 0, count: 0 }
  const pings = (async () => {
    while (!done) {
      const started = performance.now()
      await ping(url, agent)
      stall.longestMs = Math.max(stall.longestMs, performance.now() - started)
      stall.count++
      if (!done) await sleep(PING_EVERY_MS)
    }
  })()
  try {
    const result = await work().finally(() => (done = true))
    await pings
    return { result, stall }
  } finally {
    agent.destroy()
  }
}

function ping(url: string, agent: Agent): Promise<void> {
  return new Promise((resolve, reject) => {
    request(`${url}/api/v1/ping`, { agent }, (response) => {
      response.resume()
      response.on('end', () =>
        response.statusCode === 200 ? resolve() : reject(new Error(`ping answered ${response.statusCode}`)),
      )
    })
      .on('error', reject)
      .end()
  })
}

/** POST /api/v1/facturas/validar (the dry run), like `postBatch`. */
export async function postDryRun(url: string, body: Buffer): Promise<Answer> {
  const { status, bytes } = await exchange(
    'POST',
    `${url}/api/v1/facturas/validar`,
    { ApiKey: API_KEY, 'Content-Type': 'application/json', 'Content-Length': String(body.length) },
    body,
  )
  return { status, text: bytes.toString('utf8') }
}
