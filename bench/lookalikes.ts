/**
 * Re-issue detection against many stored look-alikes (issue 38): the largest supplier-shaped batch
 * sent to a service that already stores `copies` look-alikes of each of its invoices (the same
 * customer, lines and total under other numbers and manifests, dated the same day: every one a
 * candidate), against the same batch on an empty database; and a 2 MB dry run (validar) against
 * them. A ping loop runs beside each. The stored database is built once through the service, then
 * each run starts on a copy of it.
 */
import { execFileSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdtempSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { expectProcessed, PING_STALL_BUDGET_MS, type MeasuredBatch } from './batches.ts'
import { pingsWhile, postBatch, postDryRun, sleep, startService } from './service.ts'
import { format, median, type Bench } from './table.ts'

/** Contract §8 (issue 38): against 100,000 stored look-alikes, ≤ 1.5× the batch on an empty database. */
const LOOKALIKE_BUDGET = 1.5
const DRY_RUN_BYTES = 2 * 1024 * 1024
const DRY_RUN_BUDGET_MS = 2000

type Invoice = Record<string, unknown>

export async function benchLookalikes(bench: Bench, batch: MeasuredBatch, copies: number): Promise<void> {
  const invoices = JSON.parse(batch.bytes.toString('utf8')) as Invoice[]
  const stored = await storeLookalikes(bench, invoices, copies)
  const storedCount = (copies * invoices.length).toLocaleString('en')
  const times: number[] = []
  const stalls: number[] = []
  for (let run = 0; run < bench.runs; run++) {
    await onCopyOf(bench, stored, async (url) => {
      const started = performance.now()
      const { result: answer, stall } = await pingsWhile(url, () => postBatch(url, batch.bytes))
      times.push(performance.now() - started)
      stalls.push(stall.longestMs)
      expectProcessed(answer, batch)
    })
  }
  const dryRun = dryRunBody(invoices)
  let dry = { ms: 0, stallMs: 0 }
  await onCopyOf(bench, stored, async (url) => {
    const started = performance.now()
    const { result: answer, stall } = await pingsWhile(url, () => postDryRun(url, dryRun.bytes))
    dry = { ms: performance.now() - started, stallMs: stall.longestMs }
    if (answer.status !== 200) throw new Error(`the dry run answered ${answer.status}: ${answer.text.slice(0, 300)}`)
  })
  const ms = median(times)
  bench.rows.push(
    {
      measure: `${batch.label}: against ${storedCount} stored look-alikes, end to end`,
      value: ms,
      unit: 'ms',
      floor: batch.endToEndMs,
      basis: 'on an empty database',
      ratioBudget: LOOKALIKE_BUDGET,
      note: `${copies} look-alikes of each invoice; empty database ${format(batch.endToEndMs)} ms`,
    },
    {
      measure: `${batch.label}: against ${storedCount} stored look-alikes, longest ping`,
      value: Math.max(...stalls),
      unit: 'ms',
      budget: PING_STALL_BUDGET_MS,
    },
    {
      measure: `dry run (validar) of ${(dryRun.bytes.length / 1e6).toFixed(1)} MB (${dryRun.invoices} invoices) against ${storedCount} stored look-alikes`,
      value: dry.ms,
      unit: 'ms',
      budget: DRY_RUN_BUDGET_MS,
    },
    {
      measure: 'dry run against the stored look-alikes: longest ping',
      value: dry.stallMs,
      unit: 'ms',
      budget: PING_STALL_BUDGET_MS,
    },
  )
}

/** A database holding `copies` look-alikes of every invoice, built through the service; its file. */
async function storeLookalikes(bench: Bench, invoices: Invoice[], copies: number): Promise<string> {
  const service = await startService(bench.work)
  try {
    for (let copy = 1; copy <= copies; copy++) {
      const lookalikes = invoices.map((invoice) => ({
        ...invoice,
        Nfactura: `${String(invoice.Nfactura)}-R${copy}`,
        NumeroManifiesto: String(Number(invoice.NumeroManifiesto) + copy * 1_000_000),
      }))
      const answer = await postBatch(service.url, Buffer.from(JSON.stringify(lookalikes)))
      expectProcessed(answer, { label: `look-alikes ${copy}`, invoices: invoices.length })
    }
  } finally {
    await service.stop()
  }
  return service.database
}

/**
 * A fresh service on a copy of the stored database (a run adds its batch to the copy only), once
 * the snapshot it takes as it starts (there is none yet in its backups/) is written and the copies
 * are on disk (`sync`): that is the service's daily work, not the batch's — on 250 MB it takes a
 * second of the same thread, and the system writing its pages out meanwhile held the batch's
 * commit (`synchronous=FULL`) behind them.
 */
async function onCopyOf(bench: Bench, database: string, work: (url: string) => Promise<void>): Promise<void> {
  const path = join(mkdtempSync(join(bench.work, 'lookalikes-')), 'manifiesto.db')
  copyFileSync(database, path)
  const service = await startService(bench.work, { config: { database: { path } }, startMs: 60_000 })
  try {
    await startupSnapshot(join(service.folder, 'backups'))
    execFileSync('sync')
    await work(service.url)
  } finally {
    await service.stop()
  }
}

async function startupSnapshot(folder: string): Promise<void> {
  const deadline = performance.now() + 120_000
  while (!(existsSync(folder) && readdirSync(folder).some((name) => /^manifiesto-.*\.db$/.test(name)))) {
    if (performance.now() > deadline) throw new Error(`no snapshot in ${folder} two minutes after the start`)
    await sleep(50)
  }
}

/** The batch's first invoices, about DRY_RUN_BYTES of them. */
function dryRunBody(invoices: Invoice[]): { bytes: Buffer; invoices: number } {
  const chosen: Invoice[] = []
  let bytes = 2
  for (const invoice of invoices) {
    if (bytes >= DRY_RUN_BYTES) break
    chosen.push(invoice)
    bytes += JSON.stringify(invoice).length + 1
  }
  return { bytes: Buffer.from(JSON.stringify(chosen)), invoices: chosen.length }
}
