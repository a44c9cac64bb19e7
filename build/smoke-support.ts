/**
 * What both smoke tests do with a built executable: run a command of it, start `serve`, wait for
 * its ping, send a batch, open a snapshot with the sqlite3 tool. Every command's output goes to a
 * file, so a failing step can show what the executable itself printed.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = fileURLToPath(new URL('..', import.meta.url))
export const API_KEY = 'clave-de-humo-del-proveedor'

/** How to start the executable on this platform: its command line before the arguments, and where. */
export interface Launcher {
  command: string[]
  cwd: string
  env: NodeJS.ProcessEnv
  /** A folder for what the executable prints: servicio.log (serve), salida.txt (the last command). */
  logs: string
}

/** One platform's smoke test: its steps, and what to stop when one of them failed. */
export interface Smoke {
  launcher: Launcher
  run: () => Promise<void>
  cleanup: () => void
}

export interface Finished {
  code: number | null
  output: string
}

/** A step that passed. */
export function step(name: string, detail = ''): void {
  console.log(`ok  ${name}${detail ? ` — ${detail}` : ''}`)
}

/**
 * Runs one command to its end; its stdout and stderr go to a file, not a pipe: under Wine, Node
 * cannot open a Unix pipe as its stdout (EBADF).
 */
export function runCommand(launcher: Launcher, args: string[], input?: string): Finished {
  const [command, ...rest] = [...launcher.command, ...args]
  const file = join(launcher.logs, 'salida.txt')
  const fd = openSync(file, 'w')
  let code: number | null
  try {
    const stdin = input === undefined ? 'ignore' : 'pipe'
    code = spawnSync(command!, rest, {
      cwd: launcher.cwd,
      env: launcher.env,
      stdio: [stdin, fd, fd],
      ...(input === undefined ? {} : { input }),
    }).status
  } finally {
    closeSync(fd)
  }
  return { code, output: readFileSync(file, 'utf8') }
}

/** Runs a command that must exit 0; otherwise the error carries everything it printed. */
export function runOk(launcher: Launcher, args: string[], input?: string): string {
  const result = runCommand(launcher, args, input)
  if (result.code !== 0)
    throw new Error(`manifiesto ${args.join(' ')}: exit code ${result.code}; it printed:\n${result.output}`)
  return result.output
}

/** Starts `serve`; its output goes to servicio.log. */
export function startService(launcher: Launcher, args: string[]): ChildProcess {
  const [command, ...rest] = [...launcher.command, 'serve', ...args]
  const log = openSync(join(launcher.logs, 'servicio.log'), 'w')
  const child = spawn(command!, rest, { cwd: launcher.cwd, env: launcher.env, stdio: ['ignore', log, log] })
  child.once('exit', () => closeSync(log))
  return child
}

export async function waitForPing(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 3000; i++) {
    try {
      if ((await fetch(`${url}/api/v1/ping`)).ok) return
    } catch {
      if (child.exitCode !== null)
        throw new Error(`the service stopped with exit code ${child.exitCode} before answering ping`)
    }
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error('no ping answer within 30 s')
}

/** Sends the two-invoice fixture batch dated today (Honduras) and returns its summary. */
export async function sendBatch(url: string): Promise<string> {
  const today = new Date(Date.now() - 6 * 3600_000).toISOString().slice(0, 10)
  const invoices = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/batch-small.json'), 'utf8')) as Array<
    Record<string, unknown>
  >
  const batch = invoices.map((invoice) => ({ ...invoice, FechaFactura: `${today}T00:00:00.000Z` }))
  const response = await fetch(`${url}/api/v1/facturas/insertar`, {
    method: 'POST',
    headers: { ApiKey: API_KEY },
    body: JSON.stringify(batch),
  })
  const answer = (await response.json()) as { resumen?: { insertadas: number } }
  if (response.status !== 200 || answer.resumen?.insertadas !== 2)
    throw new Error(`batch: ${response.status} ${JSON.stringify(answer)}`)
  return JSON.stringify(answer.resumen)
}

/** The sqlite3 tool (not the executable) opens the snapshot: it is a whole, healthy database. */
export function checkSnapshot(file: string): string {
  const lines = execFileSync('sqlite3', [file, 'PRAGMA integrity_check; SELECT count(*) FROM invoices;'], {
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
  if (lines[0] !== 'ok' || lines[1] !== '2') throw new Error(`sqlite3 on the snapshot ${file}: ${lines.join(' ')}`)
  return `integrity_check = ${lines[0]}, invoices = ${lines[1]}`
}

/** Stops with SIGTERM and requires the clean exit code 0. */
export async function stopService(child: ChildProcess): Promise<void> {
  const stopped = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  child.kill('SIGTERM')
  const code = await stopped
  if (code !== 0) throw new Error(`SIGTERM: exit code ${code}`)
}

/** What the service printed, for the report of a failed step ('' before it started). */
export function serviceOutput(launcher: Launcher): string {
  const file = join(launcher.logs, 'servicio.log')
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : ''
}

/**
 * The operator console from inside the executable: /consola/ answers the app (not the API's
 * 404), its hashed script is served with a long cache, and a deep link answers the app too.
 */
export async function checkConsole(url: string): Promise<string> {
  const page = await fetch(`${url}/consola/`)
  const html = await page.text()
  const script = /<script type="module" src="(\/consola\/assets\/app-[A-Za-z0-9]+\.js)"/.exec(html)?.[1]
  if (page.status !== 200 || !html.includes('<div id="app">') || script === undefined)
    throw new Error(`/consola/ answered ${page.status}: ${html.slice(0, 300)}`)
  if (!(page.headers.get('content-security-policy') ?? '').includes("default-src 'self'"))
    throw new Error('/consola/ has no Content-Security-Policy')
  const asset = await fetch(url + script)
  const bytes = (await asset.arrayBuffer()).byteLength
  if (asset.status !== 200 || !(asset.headers.get('cache-control') ?? '').includes('immutable') || bytes < 1000) {
    throw new Error(
      `${script} answered ${asset.status}, ${bytes} bytes, cache-control ${asset.headers.get('cache-control')}`,
    )
  }
  const deep = await fetch(`${url}/consola/manifiestos/905112`)
  if (deep.status !== 200 || !(await deep.text()).includes(script))
    throw new Error(`a deep link answered ${deep.status}`)
  return `/consola/ and ${script} (${Math.round(bytes / 1024)} KB) served from the executable; a deep link answers the app`
}
