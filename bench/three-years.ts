/**
 * `npm run bench:anios`: three years of data at the supplier's volume (issue 44), measured on the
 * built executable (build/dist/manifiesto-linux-x64: run `npm run build -- linux-x64` first). A
 * separate script from `npm run bench`: the database it builds is ~8 GB and takes ~4 minutes; the
 * whole run takes ~12 minutes and ~25 GB of the temporary folder (the snapshot and its copy).
 *
 *   --db=DIR     build the database in DIR once and reuse it in later runs (a run adds batches to it)
 *   --smoke      100 manifests (30,000 invoices), one run, no budget enforced
 *
 * One table: the database's size per invoice, start to first ping, `check` (and that it only
 * reads), a snapshot while batches and pings come in (and its copy off the machine), the
 * 10,000-invoice batch against the same batch on an empty database, the operator lists and the
 * client's listing — each against its budget (issue 44 and contract §8).
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bundleService } from '../build/bundle.ts'
import { requireSharedPerf, generateSupplierBatch } from './floors.ts'
import {
  EXECUTABLE,
  API_KEY,
  BUNDLE,
  getBytes,
  getOperator,
  pingsWhile,
  postBatch,
  settleClient,
  sleep,
  startService,
  type Service,
} from './service.ts'
import { format, headerLine, median, printTable, type Row } from './table.ts'
import { buildThreeYears, MANIFESTS, type ThreeYears } from './three-years-db.ts'

const smoke = process.argv.includes('--smoke')
const option = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3)
const RUNS = smoke ? 1 : 3
const MS = 'ms'

/** Issue 44: start ≤ 1 s, a ping or a batch waits ≤ 1 s during a snapshot, the batch ≤ 1.2× empty, ≤ 3 KB per invoice. */
const START_BUDGET_MS = 1000
const WAIT_BUDGET_MS = 1000
const BATCH_RATIO_BUDGET = 1.2
const BYTES_PER_INVOICE_BUDGET = 3072
/** Contract §8: an operator list page ≤ 50 ms; the client's listing cold ≤ 50 ms, cached ≤ 5 ms. */
const LIST_BUDGET_MS = 50
const LISTING_COLD_MS = 50
const LISTING_CACHED_MS = 5

const rows: Row[] = []
const work = mkdtempSync(join(tmpdir(), 'manifiesto-anios-'))
const today = new Date(Date.now() - 6 * 3_600_000).toISOString().slice(0, 10)

try {
  requireSharedPerf()
  if (!existsSync(EXECUTABLE))
    throw new Error(`no hay ejecutable en ${EXECUTABLE}: constrúyalo antes con npm run build -- linux-x64`)
  await bundleService(BUNDLE)
  const data = await prepareDatabase()
  measureSize(data)
  await measureStart(data)
  measureCheck(data)
  await measureLists(data)
  await measureListing(data)
  await measureSnapshot(data)
  await measureBatch(data)
} finally {
  rmSync(work, { recursive: true, force: true })
}
const missed = printTable(
  headerLine(
    smoke
      ? 'three years, smoke (100 manifests, 1 run, no budget enforced)'
      : `three years on the executable, median of ${RUNS} runs`,
  ),
  rows,
)
process.exitCode = !smoke && missed > 0 ? 1 : 0

async function prepareDatabase(): Promise<ThreeYears & { note: string }> {
  const folder = option('db') ?? join(work, 'anios')
  const manifests = smoke ? 100 : MANIFESTS
  const marker = join(folder, `construida-${manifests}.json`)
  if (existsSync(marker))
    return { ...(JSON.parse(readFileSync(marker, 'utf8')) as ThreeYears), note: `reused from ${folder}` }
  rmSync(folder, { recursive: true, force: true })
  const built = await buildThreeYears(folder, mkdtempSync(join(work, 'plantilla-')), manifests)
  writeFileSync(marker, JSON.stringify(built))
  return { ...built, note: `built by SQL in ${format(built.seconds)} s` }
}

/** The executable on the three years' database; `backup` settings and a copy off the machine when asked. */
function startExecutable(data: ThreeYears, config: Record<string, unknown> = {}): Promise<Service> {
  return startService(work, {
    command: [EXECUTABLE, 'serve'],
    startMs: 120_000,
    config: { database: { path: data.file }, backup: { everyHours: 0 }, ...config },
  })
}

function measureSize(data: ThreeYears & { note: string }): void {
  const bytes = statSync(data.file).size + (existsSync(`${data.file}-wal`) ? statSync(`${data.file}-wal`).size : 0)
  rows.push(
    {
      measure: `database: ${data.invoices.toLocaleString('en')} invoices, ${data.returns.toLocaleString('en')} returns (3 years)`,
      value: bytes / 1024 ** 3,
      unit: 'GB',
      note: data.note,
    },
    {
      measure: 'disk per stored invoice (lines, indexes, returns, audit and batch bodies included)',
      value: bytes / data.invoices,
      unit: 'bytes',
      budget: BYTES_PER_INVOICE_BUDGET,
    },
    {
      measure: 'disk a year takes (a third of the three years)',
      value: bytes / 3 / 1024 ** 3,
      unit: 'GB',
      note: 'plus backup.keep snapshots of the whole database in backup.dir (and in backup.copyTo)',
    },
  )
}

async function measureStart(data: ThreeYears): Promise<void> {
  const starts: number[] = []
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now()
    const service = await startExecutable(data)
    starts.push(performance.now() - started)
    await service.stop()
  }
  rows.push({
    measure: 'executable: start to first ping, on the three years',
    value: median(starts),
    unit: MS,
    budget: START_BUDGET_MS,
  })
}

/** `check` on the executable: how long, and that it only read (same file, nothing new beside it). */
function measureCheck(data: ThreeYears): void {
  const folder = join(data.file, '..')
  const before = { stat: statSync(data.file), files: readdirSync(folder).sort().join(', ') }
  const config = join(work, 'check.json')
  writeFileSync(config, JSON.stringify({ database: { path: data.file }, backup: { everyHours: 0 } }))
  const started = performance.now()
  const output = execFileSync(EXECUTABLE, ['check', '--config', config], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
    maxBuffer: 1 << 24,
  })
  const took = performance.now() - started
  const after = { stat: statSync(data.file), files: readdirSync(folder).sort().join(', ') }
  const readOnly =
    before.stat.mtimeMs === after.stat.mtimeMs &&
    before.stat.size === after.stat.size &&
    before.stat.ino === after.stat.ino &&
    before.files === after.files
  if (!/integridad: ok/.test(output)) throw new Error(`check did not pass:\n${output}`)
  rows.push({
    measure: 'check (integrity of the whole database), on the executable',
    value: took / 1000,
    unit: 's',
    note: readOnly ? 'read-only: the file and its folder unchanged' : `WROTE: ${before.files} → ${after.files}`,
  })
}

async function measureLists(data: ThreeYears): Promise<void> {
  const service = await startExecutable(data)
  try {
    const lists = [
      { measure: 'manifests, paged', path: 'manifiestos?pagina=1' },
      { measure: 'invoices of one manifest', path: `manifiestos/${data.middleManifest}/facturas?pagina=1` },
      { measure: 'returns', path: 'devoluciones?pagina=1' },
      { measure: 'batches of one day', path: `lotes?fecha=${data.middleDay}` },
      { measure: 'audit log', path: 'auditoria?pagina=1' },
      { measure: 'dashboard (resumen)', path: 'resumen' },
    ]
    for (const list of lists) {
      let started = performance.now()
      const first = await getOperator(service.url, list.path)
      const cold = performance.now() - started
      if (first.status !== 200)
        throw new Error(`GET operador/${list.path}: ${first.status} ${first.text.slice(0, 200)}`)
      const times: number[] = []
      for (let run = 0; run < 7; run++) {
        started = performance.now()
        await getOperator(service.url, list.path)
        times.push(performance.now() - started)
      }
      rows.push({
        measure: `operator list at 3 years: ${list.measure}`,
        value: median(times),
        unit: MS,
        budget: LIST_BUDGET_MS,
        note: `cold ${format(cold)} ms`,
      })
    }
  } finally {
    await service.stop()
  }
}

/** The client's listing for the busiest day of approvals and the four days before it: each first read cold, then cached. */
async function measureListing(data: ThreeYears): Promise<void> {
  const service = await startExecutable(data)
  try {
    const cold: number[] = []
    const cached: number[] = []
    let listed = 0
    for (let back = 0; back < 5; back++) {
      const day = new Date(Date.parse(`${data.busiestDay}T00:00:00Z`) - back * 86_400_000).toISOString().slice(0, 10)
      const headers = { ApiKey: API_KEY, Fecha: day.split('-').reverse().join('/') }
      settleClient()
      let started = performance.now()
      const first = await getBytes(`${service.url}/api/v1/devoluciones/listar`, headers)
      cold.push(performance.now() - started)
      if (first.status !== 200) throw new Error(`listing: ${first.status}`)
      listed = Math.max(listed, (JSON.parse(first.bytes.toString('utf8')) as unknown[]).length)
      for (let i = 0; i < 10; i++) {
        started = performance.now()
        await getBytes(`${service.url}/api/v1/devoluciones/listar`, headers)
        cached.push(performance.now() - started)
      }
    }
    rows.push(
      {
        measure: `client's returns listing at 3 years, one day (up to ${listed} returns): cold`,
        value: median(cold),
        unit: MS,
        budget: LISTING_COLD_MS,
      },
      {
        measure: "client's returns listing at 3 years: cached",
        value: median(cached),
        unit: MS,
        budget: LISTING_CACHED_MS,
      },
    )
  } finally {
    await service.stop()
  }
}

/**
 * The automatic snapshot of the three years, taken as the service starts (none exists yet), and
 * its copy off the machine (another folder): while they run, a ping every 20 ms and a
 * 1,000-invoice batch; the same batch size after, for its time without a snapshot.
 */
async function measureSnapshot(data: ThreeYears): Promise<void> {
  const backups = join(work, 'copias')
  const offMachine = join(work, 'nas')
  mkdirSync(offMachine, { recursive: true })
  const batchDuring = supplierBatch(1_000, 21)
  const batchAfter = supplierBatch(1_000, 22)
  const service = await startExecutable(data, { backup: { everyHours: 24, keep: 2, dir: backups, copyTo: offMachine } })
  try {
    let batchMs = 0
    const { result: status, stall } = await pingsWhile(service.url, async () => {
      await sleep(2_000)
      const sent = performance.now()
      const answer = await postBatch(service.url, batchDuring)
      batchMs = performance.now() - sent
      if (answer.status !== 200)
        throw new Error(`batch during the snapshot: ${answer.status} ${answer.text.slice(0, 200)}`)
      return waitForCopies(service)
    })
    const sent = performance.now()
    if ((await postBatch(service.url, batchAfter)).status !== 200) throw new Error('batch after the snapshot refused')
    const baseline = performance.now() - sent
    const local = status.copias.ultima!
    const remote = status.copias.fuera_del_servidor!.ultima!
    if (local.resultado !== 'ok' || remote.resultado !== 'ok')
      throw new Error(`snapshot: ${JSON.stringify(status.copias)}`)
    rows.push(
      {
        measure: 'automatic snapshot of the 3 years (written and checked)',
        value: local.duracion_segundos!,
        unit: 's',
        note: `${format(local.tamano_bytes! / 1024 ** 3)} GB`,
      },
      { measure: 'its copy off the machine (copied and checked there)', value: remote.duracion_segundos!, unit: 's' },
      {
        measure: 'longest ping wait while both ran',
        value: stall.longestMs,
        unit: MS,
        budget: WAIT_BUDGET_MS,
        note: `${stall.count} pings`,
      },
      {
        measure: 'a 1,000-invoice batch during the snapshot: extra wait',
        value: Math.max(0, batchMs - baseline),
        unit: MS,
        budget: WAIT_BUDGET_MS,
        note: `${format(batchMs)} ms during, ${format(baseline)} ms after`,
      },
    )
  } finally {
    await service.stop()
  }
}

interface Copies {
  copias: {
    ultima: { resultado: string; duracion_segundos: number | null; tamano_bytes: number | null } | null
    fuera_del_servidor: { ultima: { resultado: string; duracion_segundos: number | null } | null } | null
  }
}

async function waitForCopies(service: Service): Promise<Copies> {
  for (;;) {
    const status = JSON.parse((await getOperator(service.url, 'estado')).text) as Copies
    if (status.copias.fuera_del_servidor?.ultima != null || status.copias.ultima?.resultado === 'error') return status
    await sleep(500)
  }
}

/** The 10,000-invoice batch on the three years (each run a new batch) against a fresh service on an empty database. */
async function measureBatch(data: ThreeYears): Promise<void> {
  const size = smoke ? 1_000 : 10_000
  const empty: number[] = []
  const full: number[] = []
  for (let run = 0; run < RUNS; run++) {
    const body = supplierBatch(size, 31 + run)
    const fresh = await startService(work, { command: [EXECUTABLE, 'serve'], config: { backup: { everyHours: 0 } } })
    try {
      empty.push(await timedBatch(fresh, body))
    } finally {
      await fresh.stop()
    }
    const service = await startExecutable(data)
    try {
      full.push(await timedBatch(service, body))
    } finally {
      await service.stop()
    }
  }
  rows.push({
    measure: `${size.toLocaleString('en')}-invoice batch on the 3 years`,
    value: median(full),
    unit: MS,
    floor: median(empty),
    basis: 'empty database',
    ratioBudget: BATCH_RATIO_BUDGET,
  })
}

async function timedBatch(service: Service, body: Buffer): Promise<number> {
  settleClient()
  const started = performance.now()
  const answer = await postBatch(service.url, body)
  const took = performance.now() - started
  if (answer.status !== 200 || !answer.text.includes(`"insertadas":${JSON.parse(body.toString('utf8')).length}`))
    throw new Error(`batch: ${answer.status} ${answer.text.slice(0, 300)}`)
  return took
}

/** A supplier-shaped batch of `count` invoices dated today; each seed its own invoice and manifest numbers. */
function supplierBatch(count: number, seed: number): Buffer {
  const file = join(work, `lote-${count}-${seed}.json`)
  generateSupplierBatch(count, file, today, seed)
  return readFileSync(file)
}
