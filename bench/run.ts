/**
 * `npm run bench`: the service against the budgets of issue 15 (contract §8), in one table. Batch
 * times and memory are ratios to the bare floor (../shared/perf/floor.mjs) measured in the same
 * run on the same file, so the table means the same on any machine.
 *
 *   --smoke            the smallest sizes, one run each, no budget enforced (CI: the bench cannot rot)
 *   --only=G1,G2       only these groups: batches (with the look-alikes), listing, workbook, hostile, executable, lists, print
 *   --lists-db=DIR     build the lists' big database in DIR once and reuse it in later runs
 *   --lists-invoices=N the lists' database size (default 1,000,000; 2,000 in --smoke)
 *
 * The lists group builds a database of a million invoices (minutes, ~5 GB in the temporary
 * folder): it runs in the full run and with --only=lists, and in --smoke on 2,000 invoices.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bundleService } from '../build/bundle.ts'
import { benchBatches, SMALL_BATCH_BELOW, SMALL_BATCH_RUNS } from './batches.ts'
import { benchIdleAndStart } from './executable.ts'
import { OWN_FLOOR } from './floors.ts'
import { benchHostileBodies } from './hostile.ts'
import { benchListing } from './listing.ts'
import { benchLookalikes } from './lookalikes.ts'
import { benchOperatorLists } from './lists.ts'
import { benchSupplierWorkbook } from './workbook.ts'
import { benchPrint } from './print.ts'
import { BUNDLE } from './service.ts'
import { headerLine, printTable, type Bench } from './table.ts'

const smoke = process.argv.includes('--smoke')
const option = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3)
const only = option('only')?.split(',')
const wanted = (group: string) => only === undefined || only.includes(group)

const bench: Bench = {
  smoke,
  runs: smoke ? 1 : 3,
  work: mkdtempSync(join(tmpdir(), 'manifiesto-bench-')),
  today: new Date(Date.now() - 6 * 3600_000).toISOString().slice(0, 10), // Honduras, UTC-6
  rows: [],
}
const sizes = smoke ? [200] : [1_000, 10_000]
const listsInvoices = Number(option('lists-invoices') ?? (smoke ? 2_000 : 1_000_000))

// A group that fails is a row that says so: the table of the groups measured before it is still printed.
let failed = false
try {
  await bundleService(BUNDLE)
  await bundleService(OWN_FLOOR, 'bench/floor.ts')
  if (wanted('batches')) {
    const largest = await benchBatches(bench, sizes)
    // 100,000 stored look-alikes of the 10,000-invoice batch (two of the smoke's 200).
    await benchLookalikes(bench, largest, smoke ? 2 : 10)
  }
  if (wanted('listing')) await benchListing(bench, smoke ? 50 : 1_000)
  if (wanted('workbook')) await benchSupplierWorkbook(bench, smoke ? 200 : 10_000)
  if (wanted('hostile')) await benchHostileBodies(bench, smoke ? 4 : 128)
  if (wanted('executable')) await benchIdleAndStart(bench)
  if (wanted('lists')) await benchOperatorLists(bench, listsInvoices, option('lists-db'))
  if (wanted('print')) await benchPrint(bench, smoke ? 50 : 1_000)
} catch (error) {
  failed = true
  bench.rows.push({
    measure: 'the bench stopped',
    value: null,
    unit: '',
    note: String((error as Error).stack ?? error)
      .split('\n')
      .slice(0, 3)
      .join(' · '),
  })
} finally {
  rmSync(bench.work, { recursive: true, force: true })
}
const mode = smoke
  ? 'smoke (smallest sizes, 1 run, no budget enforced)'
  : `median of ${bench.runs} runs (batches under ${SMALL_BATCH_BELOW.toLocaleString('en')} invoices: ${SMALL_BATCH_RUNS}; each batch run beside its floors)`
const missed = printTable(headerLine(only === undefined ? mode : `${mode}, only ${only.join(', ')}`), bench.rows)
process.exitCode = failed || (!smoke && missed > 0) ? 1 : 0
