/**
 * `npm run bench`: the service against the budgets of contract §8, measured as ratios to a floor
 * measured in the same run, so the table means the same on any machine. `--smoke` runs a
 * 200-invoice batch once (CI runs it so the bench cannot rot) and enforces no budget.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from '../build/free-port.ts'
import { bundleService } from '../build/bundle.ts'
import { closeDatabase, openDatabase } from '../src/db/database.ts'
import { generateBatch } from './generator.ts'

const smoke = process.argv.includes('--smoke')
/** `--only=hostile,listing`: run only those groups (batches, listing, hostile, executable). */
const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice(7).split(',')
const wanted = (group: string) => only === undefined || only.includes(group)
const RUNS = smoke ? 1 : 3
const SIZES = smoke ? [200] : [1_000, 10_000]
const API_KEY = 'bench-api-key'
const OPERATOR_KEY = 'bench-operator-key'
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const EXECUTABLE = join(ROOT, 'build/dist/manifiesto-linux-x64')
/**
 * Batches and listings are measured on the service's bundle on plain node (not through tsx): the
 * same Node as the floor, so the ratio compares code, not runtimes. The executable's own rows
 * (start, idle memory) are measured on the executable.
 */
const BUNDLE = join(ROOT, 'build/cache/bench/manifiesto.mjs')
const FLOOR = join(ROOT, 'build/cache/bench/floor.mjs')

interface Row {
  measure: string
  value: number | null
  unit: string
  budget?: number
  floor?: number
  /** Budget as a multiple of the floor. */
  ratioBudget?: number
}

const rows: Row[] = []
const work = mkdtempSync(join(tmpdir(), 'manifiesto-bench-'))
const today = new Date(Date.now() - 6 * 3600_000).toISOString().slice(0, 10) // Honduras, UTC-6

try {
  await bundleService(BUNDLE)
  await bundleService(FLOOR, 'bench/floor.ts')
  if (wanted('batches')) for (const size of SIZES) await benchBatch(size)
  if (wanted('listing')) await benchListing(smoke ? 50 : 1_000)
  if (wanted('hostile')) await benchHostileBodies(smoke ? 4 : 128)
  if (wanted('executable')) await benchIdleAndStart()
} finally {
  rmSync(work, { recursive: true, force: true })
}
const missed = printTable()
process.exitCode = !smoke && missed > 0 ? 1 : 0

async function benchBatch(size: number): Promise<void> {
  const file = join(work, `batch-${size}.json`)
  const bytes = Buffer.from(JSON.stringify(generateBatch(size, { fecha: today, perManifest: 100 })))
  writeFileSync(file, bytes)
  const floors = []
  for (let run = 0; run < RUNS; run++) {
    const dir = mkdtempSync(join(work, 'floor-'))
    const out = spawnSync(process.execPath, [FLOOR, file, dir], { encoding: 'utf8' })
    if (out.status !== 0) throw new Error(`floor failed: ${out.stderr}`)
    floors.push(JSON.parse(out.stdout) as { ms: number; peakMB: number })
  }
  const floorMs = median(floors.map((floor) => floor.ms))
  const floorPeak = median(floors.map((floor) => floor.peakMB))

  const times: number[] = []
  const duplicates: number[] = []
  const peaks: number[] = []
  for (let run = 0; run < RUNS; run++) {
    const service = await startService()
    try {
      const started = performance.now()
      const answer = await post(service.url, bytes)
      times.push(performance.now() - started)
      if (answer.status !== 200) throw new Error(`batch answered ${answer.status}: ${answer.text.slice(0, 300)}`)
      peaks.push(memoryOf(service.child, 'VmHWM'))
      const again = performance.now()
      const duplicate = await post(service.url, bytes)
      duplicates.push(performance.now() - again)
      if (!duplicate.text.includes('ya fue procesado')) throw new Error('the resend was not answered as a duplicate')
    } finally {
      await service.stop()
    }
  }
  const label = `${size.toLocaleString('en')}-invoice batch (${(bytes.length / 1e6).toFixed(1)} MB)`
  rows.push({ measure: `${label}: floor (JSON.parse + bare inserts)`, value: floorMs, unit: 'ms' })
  rows.push({ measure: `${label}: end to end`, value: median(times), unit: 'ms', floor: floorMs, ratioBudget: size === 10_000 ? 2 : undefined })
  rows.push({ measure: `${label}: same batch resent (duplicate)`, value: median(duplicates), unit: 'ms', floor: floorMs })
  rows.push({ measure: `${label}: floor peak memory`, value: floorPeak, unit: 'MB' })
  rows.push({ measure: `${label}: service peak memory`, value: median(peaks), unit: 'MB', floor: floorPeak, ratioBudget: size === 10_000 ? 1.5 : undefined })
}

async function benchListing(count: number): Promise<void> {
  const service = await startService()
  const listed = Math.min(count, 1000)
  let onRangePage = listed
  try {
    const batch = generateBatch(count, { fecha: today, perManifest: 200, prefix: 'L' })
    if ((await post(service.url, Buffer.from(JSON.stringify(batch)))).status !== 200) throw new Error('listing batch refused')
    await operator(service.url, 'conceptos', { codigo: 'DANADO', idProveedor: '7', descripcion: 'Producto dañado' })
    for (let i = 0; i < count; i++) {
      const lineas = [1, 2, 3, 4, 5].map((numeroLinea) => ({ numeroLinea, unidades: 1 }))
      const created = await operator(service.url, 'devoluciones', { factura: batch[i]!.Nfactura, concepto: 'DANADO', fecha: today, lineas, aprobar: true })
      if (created.status !== 201) throw new Error(`return refused: ${created.text}`)
    }
    const fecha = dayMonthYear(today)
    const cold: number[] = []
    const cached: number[] = []
    for (let run = 0; run < Math.max(RUNS, 5); run++) {
      // Approving one more return forgets today's cached pages: the next read is cold.
      const extra = await operator(service.url, 'devoluciones', { factura: batch[count - 1 - run]!.Nfactura, concepto: 'DANADO', fecha: today, lineas: [{ numeroLinea: 6, unidades: 1 }], aprobar: true })
      if (extra.status !== 201) throw new Error(`return refused: ${extra.text}`)
      const onPage = Math.min(count + run + 1, 1000)
      cold.push(await timeListing(service.url, { Fecha: fecha }, onPage))
      for (let i = 0; i < 20; i++) cached.push(await timeListing(service.url, { Fecha: fecha }, onPage))
    }
    rows.push({ measure: `returns listing, one full page (${listed} returns × 5 lines): cold`, value: median(cold), unit: 'ms', budget: 50 })
    rows.push({ measure: 'returns listing, same page: cached', value: median(cached), unit: 'ms', budget: 5 })
    // The extra approvals above are on the page too (their returns have a sixth line).
    onRangePage = Math.min(count + Math.max(RUNS, 5), 1000)
    await benchListingRange(service.url, 'v1', onRangePage)
  } finally {
    await service.stop()
  }
  // Contract v2 on the same returns (a copy of the database): their manifests' windows closed
  // yesterday, so the range lists their complete packages, filed under the invoices' issue day.
  const dir = mkdtempSync(join(work, 'service-v2-'))
  const database = join(dir, 'manifiesto.db')
  for (const suffix of ['', '-wal']) if (existsSync(service.database + suffix)) copyFileSync(service.database + suffix, database + suffix)
  const db = openDatabase(database)
  try {
    db.sqlite.prepare('UPDATE manifests SET returns_deadline = ?').run(addDays(today, -1))
  } finally {
    closeDatabase(db)
  }
  const v2 = await startService(undefined, {}, { clientContract: 'v2', database: { path: database } })
  try {
    await benchListingRange(v2.url, 'v2', onRangePage)
  } finally {
    await v2.stop()
  }
}

/**
 * A 31-day range (`FechaHasta`) holding the returns: each run asks for a range shifted by one day
 * (every one still holds them all), so its first read is cold and the next 20 are cached.
 */
async function benchListingRange(url: string, contract: 'v1' | 'v2', onPage: number): Promise<void> {
  const cold: number[] = []
  const cached: number[] = []
  for (let run = 0; run < Math.max(RUNS, 5); run++) {
    const range = { Fecha: dayMonthYear(addDays(today, run - 30)), FechaHasta: dayMonthYear(addDays(today, run)) }
    cold.push(await timeListing(url, range, onPage))
    for (let i = 0; i < 20; i++) cached.push(await timeListing(url, range, onPage))
  }
  rows.push({ measure: `returns listing, 31-day range, contract ${contract} (${onPage} returns × 5 lines): cold`, value: median(cold), unit: 'ms', budget: 50 })
  rows.push({ measure: `returns listing, 31-day range, contract ${contract}: cached`, value: median(cached), unit: 'ms', budget: 5 })
}

/** `YYYY-MM-DD` plus `days`. */
function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)
}

function dayMonthYear(date: string): string {
  return date.split('-').reverse().join('/')
}

/**
 * Bodies of the worst shapes up to server.maxBodyMB (contract §9: any body answered within 10 s,
 * with bounded memory): floods of tiny values, and bodies padded to sit exactly at the density the
 * intake still parses. Each on a fresh service, so its peak memory is its own.
 */
async function benchHostileBodies(megabytes: number): Promise<void> {
  const size = megabytes * 1024 * 1024 - 2
  const flood = (element: string) => Buffer.from(`[${`${element},`.repeat(Math.floor(size / (element.length + 1)) - 1)}${element}]`)
  const padded = (element: string, width: number) => flood(element.padEnd(width - 1, ' '))
  const shapes: Array<[string, () => Buffer]> = [
    ['empty objects', () => flood('{}')],
    ['zeros', () => flood('0')],
    ['fractions, one per 8 bytes (parsed)', () => padded('1.5', 8)],
    ['empty objects, one per 32 bytes (parsed)', () => padded('{}', 32)],
    ['nested arrays, 4 per 128 bytes (parsed)', () => padded('[[[[0]]]]', 128)],
    ['strings that are not invoices (parsed)', () => padded('"no soy una factura"', 24)],
  ]
  let slowest = 0
  let peak = 0
  for (const [, make] of shapes) {
    const body = make()
    const service = await startService(undefined, { maxBodyMB: megabytes })
    try {
      const started = performance.now()
      const answer = await post(service.url, body)
      slowest = Math.max(slowest, performance.now() - started)
      if (answer.status !== 422) throw new Error(`hostile body answered ${answer.status}: ${answer.text.slice(0, 200)}`)
      peak = Math.max(peak, memoryOf(service.child, 'VmHWM'))
    } finally {
      await service.stop()
    }
  }
  rows.push({ measure: `hostile bodies (${shapes.length} shapes × ${megabytes} MB): slowest answer`, value: slowest, unit: 'ms', budget: 10_000 })
  rows.push({ measure: 'hostile bodies: largest service peak memory', value: peak, unit: 'MB', budget: 1_500 })
}

async function benchIdleAndStart(): Promise<void> {
  const service = await startService()
  try {
    await new Promise((resolve) => setTimeout(resolve, 1000))
    rows.push({ measure: `service resident memory, idle (bundled, on node ${process.versions.node})`, value: memoryOf(service.child, 'VmRSS'), unit: 'MB', budget: existsSync(EXECUTABLE) ? undefined : 120 })
  } finally {
    await service.stop()
  }
  if (!existsSync(EXECUTABLE)) {
    rows.push({ measure: 'executable: start to first ping (not built: npm run build)', value: null, unit: 'ms', budget: 500 })
    return
  }
  const starts: number[] = []
  let idle = 0
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now()
    const service = await startService([EXECUTABLE, 'serve'])
    starts.push(performance.now() - started)
    await new Promise((resolve) => setTimeout(resolve, 1000))
    idle = memoryOf(service.child, 'VmRSS')
    await service.stop()
  }
  rows.push({ measure: 'executable: start to first ping', value: median(starts), unit: 'ms', budget: 500 })
  rows.push({ measure: 'executable: resident memory, idle', value: idle, unit: 'MB', budget: 120 })
}

async function startService(command?: string[], server: Record<string, unknown> = {}, config: Record<string, unknown> = {}) {
  const dir = mkdtempSync(join(work, 'service-'))
  const port = await freePort()
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({
      server: { host: '127.0.0.1', port, ...server },
      auth: { apiKey: API_KEY, operatorKey: OPERATOR_KEY },
      rateLimits: { insertPerMinute: 1000, returnsPerMinute: 100_000, generalPerMinute: 100_000, operatorPerMinute: 100_000 },
      log: { level: 'warn' },
      ...config,
    }),
  )
  const [executable, ...args] = command ?? [process.execPath, BUNDLE, 'serve']
  const child = spawn(executable!, [...args, '--config', join(dir, 'config.json')], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] })
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/api/v1/ping`)).ok) break
    } catch {
      if (i > 2000 || child.exitCode !== null) throw new Error('the service did not start')
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
  }
  return {
    url,
    child,
    /** The database file the service uses (by default data/manifiesto.db beside its config). */
    database: typeof (config.database as { path?: unknown } | undefined)?.path === 'string' ? ((config.database as { path: string }).path) : join(dir, 'data', 'manifiesto.db'),
    stop: async () => {
      child.kill('SIGTERM')
      await new Promise((resolve) => child.once('exit', resolve))
    },
  }
}

async function post(url: string, body: Buffer): Promise<{ status: number; text: string }> {
  const response = await fetch(`${url}/api/v1/facturas/insertar`, { method: 'POST', headers: { ApiKey: API_KEY, 'Content-Type': 'application/json' }, body })
  return { status: response.status, text: await response.text() }
}

async function operator(url: string, path: string, body: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(`${url}/api/v1/operador/${path}`, {
    method: 'POST',
    headers: { OperatorKey: OPERATOR_KEY, Operador: 'bench', 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: response.status, text: await response.text() }
}

/** One listing request, timed; it must answer `expected` returns (an empty page measures nothing). */
async function timeListing(url: string, headers: Record<string, string>, expected: number): Promise<number> {
  const started = performance.now()
  const response = await fetch(`${url}/api/v1/devoluciones/listar`, { headers: { ApiKey: API_KEY, ...headers } })
  const text = await response.text()
  const elapsed = performance.now() - started
  if (response.status !== 200 || !text.startsWith('[')) throw new Error(`listing answered ${response.status}: ${text.slice(0, 200)}`)
  const count = (JSON.parse(text) as unknown[]).length
  if (count !== expected) throw new Error(`listing ${JSON.stringify(headers)} answered ${count} returns, not ${expected}`)
  return elapsed
}

/** A line of /proc/<pid>/status in MB (VmRSS: resident now, VmHWM: peak resident). */
function memoryOf(child: ChildProcess, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8')
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)
  return match ? Number(match[1]) / 1024 : NaN
}


function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** Prints the table; returns how many budgets were missed. */
function printTable(): number {
  let missed = 0
  const lines = rows.map((row) => {
    const limit = row.ratioBudget !== undefined && row.floor !== undefined ? row.ratioBudget * row.floor : row.budget
    const verdict = limit === undefined || row.value === null ? (row.value === null ? 'n/a' : '') : row.value <= limit ? 'pass' : 'MISS'
    if (verdict === 'MISS') missed++
    const budget = row.ratioBudget !== undefined ? `≤ ${row.ratioBudget}× floor (${format(limit!)} ${row.unit})` : row.budget !== undefined ? `≤ ${row.budget} ${row.unit}` : ''
    const ratio = row.floor !== undefined && row.value !== null ? `${(row.value / row.floor).toFixed(2)}×` : ''
    return [row.measure, row.value === null ? '—' : `${format(row.value)} ${row.unit}`, budget, ratio, verdict]
  })
  const header = ['measure', 'median', 'budget', 'vs floor', 'result']
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i]!.length)))
  const print = (cells: string[]) => console.log(`| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`)
  console.log(`\nmanifiesto bench — ${smoke ? 'smoke (200 invoices, 1 run)' : `${RUNS} runs each, median`} — node ${process.versions.node}, ${new Date().toISOString()}\n`)
  print(header)
  print(widths.map((width) => '-'.repeat(width)))
  for (const line of lines) print(line)
  console.log(missed === 0 ? '\nEvery budget met.' : `\n${missed} budget(s) missed.`)
  return missed
}

function format(value: number): string {
  return value >= 100 ? value.toFixed(0) : value.toFixed(1)
}
