/**
 * The supplier's returns workbook (GET /api/v1/operador/devoluciones/exportar?formato=proveedor)
 * for a month: `lines` returned lines, four per approved return, one return per invoice, the
 * invoices in 30 daily batches of the supplier's shape (their originals kept in the batches'
 * bodies, as the intake stores them) and each return processed on its invoice's day. Timed to the
 * last byte (issue 42: ≤ 3 s for 10,000 lines), and the longest ping while it is made (≤ 1 s).
 */
import type { ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import Database from 'better-sqlite3'
import { strFromU8, unzipSync } from 'fflate'
import { generateBatch } from './generator.ts'
import { getBytes, OPERATOR_KEY, pingsWhile, postBatch, postOperator, settleClient, startService } from './service.ts'
import { median, type Bench } from './table.ts'

const BUDGET_MS = 3_000
const PING_BUDGET_MS = 1_000
const LINES_PER_RETURN = 4
const DAYS = 30
/** Returns registered at once: the service takes them one transaction at a time anyway. */
const CONCURRENT = 4

export async function benchSupplierWorkbook(bench: Bench, lines: number): Promise<void> {
  const returns = Math.ceil(lines / LINES_PER_RETURN)
  const service = await startService(bench.work)
  try {
    const invoices = await storeInvoices(service.url, bench.today, returns)
    await registerReturns(service.url, bench.today, invoices)
    processedOnInvoiceDays(service.database)
    const path = `/api/v1/operador/devoluciones/exportar?formato=proveedor&procesadas_desde=${addDays(bench.today, 1 - DAYS)}&procesadas_hasta=${bench.today}`
    const download = () => getBytes(`${service.url}${path}`, { OperatorKey: OPERATOR_KEY })
    settleClient()
    const coldStart = performance.now()
    const first = await download()
    const cold = performance.now() - coldStart
    const rows = rowsOf(first.status, first.bytes)
    if (rows !== returns * LINES_PER_RETURN)
      throw new Error(`the workbook has ${rows} rows, not ${returns * LINES_PER_RETURN}`)
    const times: number[] = []
    const pings: number[] = []
    const cpu: number[] = []
    for (let run = 0; run < bench.runs; run++) {
      settleClient()
      const cpuBefore = cpuMsOf(service.child)
      const started = performance.now()
      const { result, stall } = await pingsWhile(service.url, async () => {
        const answer = await download()
        return { answer, ms: performance.now() - started }
      })
      if (result.answer.status !== 200) throw new Error(`the workbook answered ${result.answer.status}`)
      times.push(result.ms)
      pings.push(stall.longestMs)
      cpu.push(cpuMsOf(service.child) - cpuBefore)
    }
    const note = `service CPU ${Math.round(median(cpu))} ms (all its threads); first ${Math.round(cold)} ms; ${(first.bytes.length / 1e6).toFixed(1)} MB; ${returns.toLocaleString('en')} returns of as many invoices in ${DAYS} daily batches`
    bench.rows.push(
      {
        measure: `supplier workbook, a month (${rows.toLocaleString('en')} returned lines)`,
        value: median(times),
        unit: 'ms',
        budget: BUDGET_MS,
        note,
      },
      {
        measure: 'supplier workbook: longest ping while it is made',
        value: median(pings),
        unit: 'ms',
        budget: PING_BUDGET_MS,
        note: "median of the runs' longest",
      },
    )
  } finally {
    await service.stop()
  }
}

/** `count` invoices in DAYS daily batches dated back from today; their numbers, each with its date. */
async function storeInvoices(url: string, today: string, count: number): Promise<string[]> {
  const numbers: string[] = []
  for (let day = 0; day < DAYS; day++) {
    const size = Math.floor((count * (day + 1)) / DAYS) - Math.floor((count * day) / DAYS)
    if (size === 0) continue
    const batch = generateBatch(size, {
      fecha: addDays(today, -day),
      perManifest: 330,
      prefix: `W${day}`,
      firstManifest: 800_000 + day * 10,
    })
    const answer = await postBatch(url, Buffer.from(JSON.stringify(batch)))
    if (answer.status !== 200) throw new Error(`workbook batch refused: ${answer.text.slice(0, 300)}`)
    numbers.push(...batch.map((invoice) => invoice.Nfactura as string))
  }
  return numbers
}

/** One approved return of four lines on each invoice: a unit, a box, a box and loose units of the mixed line, two units. */
async function registerReturns(url: string, today: string, invoices: readonly string[]): Promise<void> {
  const created = await postOperator(url, 'conceptos', {
    codigo: 'DANADO',
    idProveedor: '7',
    descripcion: 'Producto dañado',
  })
  if (created.status !== 201) throw new Error(`reason refused: ${created.text}`)
  const lineas = [
    { numeroLinea: 1, unidades: 1 },
    { numeroLinea: 2, cajas: 1 },
    { numeroLinea: 3, cajas: 1, unidades: 5 },
    { numeroLinea: 4, unidades: 2 },
  ]
  let next = 0
  const worker = async () => {
    while (next < invoices.length) {
      const factura = invoices[next++]!
      const answer = await postOperator(url, 'devoluciones', {
        factura,
        concepto: 'DANADO',
        fecha: today,
        lineas,
        aprobar: true,
      })
      if (answer.status !== 201) throw new Error(`return refused: ${answer.text}`)
    }
  }
  await Promise.all(Array.from({ length: CONCURRENT }, worker))
}

/** Each return processed on its invoice's day (they were all approved today): a month of processing dates. */
function processedOnInvoiceDays(database: string): void {
  const db = new Database(database, { fileMustExist: true })
  try {
    db.pragma('busy_timeout = 10000')
    db.prepare(
      'UPDATE returns SET processed_date = (SELECT fecha_factura FROM invoices WHERE invoices.id = returns.invoice_id)',
    ).run()
  } finally {
    db.close()
  }
}

/** The data rows of the workbook's sheet (its header left out). */
function rowsOf(status: number, bytes: Buffer): number {
  if (status !== 200) throw new Error(`the workbook answered ${status}: ${bytes.toString('utf8', 0, 300)}`)
  const sheet = strFromU8(unzipSync(new Uint8Array(bytes))['xl/worksheets/sheet1.xml']!)
  return (sheet.match(/<row /g)?.length ?? 0) - 1
}

/**
 * CPU time a process has used, every thread counted (its main thread, zlib's pool, the garbage
 * collector's): on a loaded machine the wall time grows with the load, this much less.
 */
function cpuMsOf(child: ChildProcess): number {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8')
    .replace(/^.*\) /s, '')
    .split(' ')
  // utime and stime are the 14th and 15th fields, in clock ticks of 10 ms (the state is the 3rd).
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/** `YYYY-MM-DD` plus `days`. */
function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)
}
