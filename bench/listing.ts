/**
 * The client's returns listing (GET /api/v1/devoluciones/listar): a full page cold (right after an
 * approval forgot the cached pages) and cached, for one day and for a 31-day range, in contract v1
 * and (on a copy of the same database) v2.
 */
import { copyFileSync, existsSync, mkdtempSync } from 'node:fs'
import { join } from 'node:path'
import { closeDatabase, openDatabase } from '../src/db/database.ts'
import { generateBatch } from './generator.ts'
import { API_KEY, getBytes, postBatch, postOperator, settleClient, startService } from './service.ts'
import { median, type Bench } from './table.ts'

/** Contract §8: a full page cold ≤ 50 ms, cached ≤ 5 ms. */
const COLD_BUDGET_MS = 50
const CACHED_BUDGET_MS = 5

export async function benchListing(bench: Bench, count: number): Promise<void> {
  const rounds = Math.max(bench.runs, 5)
  const service = await startService(bench.work)
  const listed = Math.min(count, 1000)
  let onRangePage = listed
  try {
    const batch = generateBatch(count, { fecha: bench.today, perManifest: 200, prefix: 'L' })
    if ((await postBatch(service.url, Buffer.from(JSON.stringify(batch)))).status !== 200)
      throw new Error('listing batch refused')
    await postOperator(service.url, 'conceptos', { codigo: 'DANADO', idProveedor: '7', descripcion: 'Producto dañado' })
    for (let i = 0; i < count; i++) {
      const lineas = [1, 2, 3, 4, 5].map((numeroLinea) => ({ numeroLinea, unidades: 1 }))
      const created = await postOperator(service.url, 'devoluciones', {
        factura: batch[i]!.Nfactura,
        concepto: 'DANADO',
        fecha: bench.today,
        lineas,
        aprobar: true,
      })
      if (created.status !== 201) throw new Error(`return refused: ${created.text}`)
    }
    const fecha = dayMonthYear(bench.today)
    const cold: number[] = []
    const cached: number[] = []
    for (let run = 0; run < rounds; run++) {
      // Approving one more return forgets today's cached pages: the next read is cold.
      const extra = await postOperator(service.url, 'devoluciones', {
        factura: batch[count - 1 - run]!.Nfactura,
        concepto: 'DANADO',
        fecha: bench.today,
        lineas: [{ numeroLinea: 6, unidades: 1 }],
        aprobar: true,
      })
      if (extra.status !== 201) throw new Error(`return refused: ${extra.text}`)
      const onPage = Math.min(count + run + 1, 1000)
      settleClient()
      cold.push(await timeListing(service.url, { Fecha: fecha }, onPage))
      for (let i = 0; i < 20; i++) cached.push(await timeListing(service.url, { Fecha: fecha }, onPage))
    }
    bench.rows.push(
      {
        measure: `returns listing, one full page (${listed} returns × 5 lines): cold`,
        value: median(cold),
        unit: 'ms',
        budget: COLD_BUDGET_MS,
      },
      { measure: 'returns listing, same page: cached', value: median(cached), unit: 'ms', budget: CACHED_BUDGET_MS },
    )
    // The extra approvals above are on the page too (their returns have a sixth line).
    onRangePage = Math.min(count + rounds, 1000)
    await benchListingRange(bench, service.url, 'v1', onRangePage)
  } finally {
    await service.stop()
  }
  // Contract v2 on the same returns (a copy of the database): their manifests' windows closed
  // yesterday, so the range lists their complete packages, filed under the invoices' issue day.
  const dir = mkdtempSync(join(bench.work, 'service-v2-'))
  const database = join(dir, 'manifiesto.db')
  for (const suffix of ['', '-wal'])
    if (existsSync(service.database + suffix)) copyFileSync(service.database + suffix, database + suffix)
  const db = openDatabase(database)
  try {
    db.sqlite.prepare('UPDATE manifests SET returns_deadline = ?').run(addDays(bench.today, -1))
  } finally {
    closeDatabase(db)
  }
  const v2 = await startService(bench.work, { config: { clientContract: 'v2', database: { path: database } } })
  try {
    await benchListingRange(bench, v2.url, 'v2', onRangePage)
  } finally {
    await v2.stop()
  }
}

/**
 * A 31-day range (`FechaHasta`) holding the returns: each run asks for a range shifted by one day
 * (every one still holds them all), so its first read is cold and the next 20 are cached.
 */
async function benchListingRange(bench: Bench, url: string, contract: 'v1' | 'v2', onPage: number): Promise<void> {
  const cold: number[] = []
  const cached: number[] = []
  for (let run = 0; run < Math.max(bench.runs, 5); run++) {
    const range = {
      Fecha: dayMonthYear(addDays(bench.today, run - 30)),
      FechaHasta: dayMonthYear(addDays(bench.today, run)),
    }
    settleClient()
    cold.push(await timeListing(url, range, onPage))
    for (let i = 0; i < 20; i++) cached.push(await timeListing(url, range, onPage))
  }
  bench.rows.push(
    {
      measure: `returns listing, 31-day range, contract ${contract} (${onPage} returns × 5 lines): cold`,
      value: median(cold),
      unit: 'ms',
      budget: COLD_BUDGET_MS,
    },
    {
      measure: `returns listing, 31-day range, contract ${contract}: cached`,
      value: median(cached),
      unit: 'ms',
      budget: CACHED_BUDGET_MS,
    },
  )
}

/**
 * One listing request, timed to its last byte (by node:http, see `getBytes`); it must answer
 * `expected` returns (an empty page measures nothing).
 */
async function timeListing(url: string, headers: Record<string, string>, expected: number): Promise<number> {
  const started = performance.now()
  const { status, bytes } = await getBytes(`${url}/api/v1/devoluciones/listar`, { ApiKey: API_KEY, ...headers })
  const elapsed = performance.now() - started
  const text = bytes.toString('utf8')
  if (status !== 200 || !text.startsWith('[')) throw new Error(`listing answered ${status}: ${text.slice(0, 200)}`)
  const count = (JSON.parse(text) as unknown[]).length
  if (count !== expected)
    throw new Error(`listing ${JSON.stringify(headers)} answered ${count} returns, not ${expected}`)
  return elapsed
}

/** `YYYY-MM-DD` plus `days`. */
function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)
}

function dayMonthYear(date: string): string {
  return date.split('-').reverse().join('/')
}
