/**
 * Smoke test of a built executable, as an administrator would use it: the file copied alone into
 * an empty folder and run with a PATH that has no node — serve, ping, a batch, `backup` (checked
 * with the sqlite3 command-line tool), `check`, `version`, and a clean stop.
 *
 *   npm run smoke:linux      build/dist/manifiesto-linux-x64
 *   npm run smoke:windows    build/dist/manifiesto-win-x64.exe under Wine (Debian's `wine`)
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { closeSync, copyFileSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from './free-port.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const windows = process.argv[2] === 'windows'
const NAME = windows ? 'manifiesto-win-x64.exe' : 'manifiesto-linux-x64'
const API_KEY = 'clave-de-humo'

const dir = mkdtempSync(join(tmpdir(), 'manifiesto-smoke-'))
const exe = join(dir, NAME)
copyFileSync(join(ROOT, 'build/dist', NAME), exe)
const port = await freePort()
writeFileSync(join(dir, 'config.json'), JSON.stringify({ server: { host: '127.0.0.1', port }, auth: { apiKey: API_KEY }, backup: { everyHours: 0 } }))
// No node anywhere on this PATH: the executable must not need one.
const env: NodeJS.ProcessEnv = windows
  ? { PATH: '/usr/bin:/bin', HOME: dir, WINEDEBUG: '-all', WINEPREFIX: join(tmpdir(), 'manifiesto-wine') }
  : { PATH: join(dir, 'no-node-here'), HOME: dir }
if (!windows && execFileSync('/bin/sh', ['-c', 'command -v node || true'], { env, encoding: 'utf8' }).trim() !== '') throw new Error('node is on the PATH')

/**
 * Runs a command of the executable and returns what it printed. Its output goes to a file, not a
 * pipe: under Wine, Node cannot open a Unix pipe as its stdout (EBADF).
 */
const run = (args: string[]) => {
  const [command, ...rest] = windows ? ['wine', exe, ...args] : [exe, ...args]
  const output = join(dir, 'salida.txt')
  const fd = openSync(output, 'w')
  try {
    execFileSync(command!, rest, { cwd: dir, env, stdio: ['ignore', fd, fd] })
  } finally {
    closeSync(fd)
  }
  return readFileSync(output, 'utf8')
}
const step = (name: string, detail = '') => console.log(`ok  ${name}${detail ? ` — ${detail}` : ''}`)

step('version', run(['version']).trim())

const started = performance.now()
const service = start()
const url = `http://127.0.0.1:${port}`
await waitForPing(service)
step('serve: first ping answered', `${Math.round(performance.now() - started)} ms after start`)

const today = new Date(Date.now() - 6 * 3600_000).toISOString().slice(0, 10)
const batch = (JSON.parse(readFileSync(join(ROOT, 'test/fixtures/batch-small.json'), 'utf8')) as Array<Record<string, unknown>>).map((invoice) => ({
  ...invoice,
  FechaFactura: `${today}T00:00:00.000Z`,
}))
const inserted = await fetch(`${url}/api/v1/facturas/insertar`, { method: 'POST', headers: { ApiKey: API_KEY }, body: JSON.stringify(batch) })
const answer = (await inserted.json()) as { resumen?: { insertadas: number } }
if (inserted.status !== 200 || answer.resumen?.insertadas !== 2) throw new Error(`batch: ${inserted.status} ${JSON.stringify(answer)}`)
step('a batch inserted', JSON.stringify(answer.resumen))

step('backup while serving', run(['backup', 'copia.db']).trim())
const sqlite = execFileSync('sqlite3', [join(dir, 'copia.db'), 'PRAGMA integrity_check; SELECT count(*) FROM invoices;'], { encoding: 'utf8' }).trim().split('\n')
if (sqlite[0] !== 'ok' || sqlite[1] !== '2') throw new Error(`sqlite3 on the snapshot: ${sqlite.join(' ')}`)
step('sqlite3 opens the snapshot', `integrity_check = ${sqlite[0]}, invoices = ${sqlite[1]}`)

step('check', run(['check']).trim().split('\n').pop()!)

if (windows) {
  service.kill('SIGKILL')
  execFileSync('wineserver', ['-k'], { env })
  step('stopped (Wine: the Windows service stop is WinSW sending Ctrl+C; not reproduced here)')
} else {
  const stopped = new Promise<number | null>((resolve) => service.once('exit', (code) => resolve(code)))
  service.kill('SIGTERM')
  const code = await stopped
  if (code !== 0) throw new Error(`SIGTERM: exit code ${code}`)
  step('SIGTERM: clean stop', 'exit code 0')
}
console.log(`\nsmoke ${windows ? 'windows (wine)' : 'linux'}: every step passed`)

function start(): ChildProcess {
  const [command, ...rest] = windows ? ['wine', exe, 'serve'] : [exe, 'serve']
  const log = openSync(join(dir, 'servicio.log'), 'w')
  const child = spawn(command!, rest, { cwd: dir, env, stdio: ['ignore', log, log] })
  child.once('exit', (code) => {
    closeSync(log)
    if (code !== 0 && code !== null) console.error(`the service exited with ${code}:\n${readFileSync(join(dir, 'servicio.log'), 'utf8')}`)
  })
  return child
}

async function waitForPing(child: ChildProcess): Promise<void> {
  for (let i = 0; i < 3000; i++) {
    try {
      const response = await fetch(`${url}/api/v1/ping`)
      if (response.ok) return
    } catch {
      if (child.exitCode !== null) throw new Error('the service stopped')
    }
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error('no ping answer')
}

