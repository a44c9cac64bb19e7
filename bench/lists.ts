/**
 * The operator lists with a big database (issue 15: one page ≤ 50 ms each with 1,000,000 stored
 * invoices): the database is built by SQL (bench/million.ts), then the bundled service is started
 * on it and each list is asked for over HTTP with the integration's operator key (every
 * warehouse). The first request of each list is reported as cold; the row is the median of the
 * requests after it.
 */
import { existsSync, mkdirSync, mkdtempSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { closeDatabase, openDatabase } from '../src/db/database.ts'
import { migrateDatabase } from '../src/db/migrate.ts'
import { fillDatabase, middleBatchDay, middleInvoice, middleManifest } from './million.ts'
import { getOperator, startService, type Answer } from './service.ts'
import { format, median, type Bench } from './table.ts'
import { DERIVED_VALUES } from '../src/app/derived-values.ts'

const PAGE_BUDGET_MS = 50
const REQUESTS = 7
/** A list slower than this is asked for fewer times: its median is clear enough, the run shorter. */
const SLOW_MS = 1000

interface List {
  measure: string
  path: string
  /** The plain manifest array, which may be gone by now: anything but an array is n/a, not a failure. */
  arrayOrGone?: boolean
  /** How many items an answer that is not a page holds (the header search: its invoices). */
  count?: (body: Answer) => number
  /** One object (Inicio's summary), not a list: it has no items to count. */
  single?: boolean
}

/** The header search's answer: how many invoices it found (issue 41). */
const searchHits = (body: Answer) => JSON.parse(body.text).facturas.resultados.length as number

/** `keep`: a folder where the database is built once and reused by later runs (`--lists-db=DIR`). */
export async function benchOperatorLists(bench: Bench, invoices: number, keep?: string): Promise<void> {
  const database = await prepareDatabase(bench, invoices, keep)
  const service = await startService(bench.work, {
    // No automatic snapshot: copying gigabytes while the lists are timed would measure the disk.
    config: { database: { path: database }, backup: { everyHours: 0 } },
    startMs: 120_000,
  })
  const lists: List[] = [
    { measure: 'manifests, paged (manifiestos?pagina=1)', path: 'manifiestos?pagina=1' },
    { measure: 'manifests, plain array (manifiestos)', path: 'manifiestos', arrayOrGone: true },
    {
      measure: 'invoices of one manifest (manifiestos/N/facturas?pagina=1)',
      path: `manifiestos/${middleManifest(invoices)}/facturas?pagina=1`,
    },
    { measure: 'returns (devoluciones?pagina=1)', path: 'devoluciones?pagina=1' },
    { measure: 'batches of one day (lotes?fecha=)', path: `lotes?fecha=${middleBatchDay(invoices)}` },
    { measure: 'audit log (auditoria?pagina=1)', path: 'auditoria?pagina=1' },
    // Issue 41: the header search through the invoice search index, as a person types it.
    {
      measure: 'header search, a client in two words, no accents, other order (buscar?q=mejia espinal)',
      path: 'buscar?q=mejia%20espinal',
      count: searchHits,
    },
    {
      measure: 'header search, a word one invoice in eight has (buscar?q=farmacia)',
      path: 'buscar?q=farmacia',
      count: searchHits,
    },
    { measure: 'header search, two letters as first typed (buscar?q=fa)', path: 'buscar?q=fa', count: searchHits },
    {
      measure: 'header search, an invoice number (buscar?q=G-…)',
      path: `buscar?q=${middleInvoice(invoices)}`,
      count: searchHits,
    },
    {
      measure: 'returns searched by client (devoluciones?buscar=mejia espinal&pagina=1)',
      path: 'devoluciones?buscar=mejia%20espinal&pagina=1',
    },
    {
      measure: 'invoices of one manifest searched (manifiestos/N/facturas?buscar=farmacia)',
      path: `manifiestos/${middleManifest(invoices)}/facturas?buscar=farmacia&pagina=1`,
    },
    // Issue 40: the money, with a deposit per invoice in ten (bench/million.ts).
    {
      measure:
        'manifests with their money, to settle, by diferencia (manifiestos?liquidacion=pendiente&orden=-diferencia&pagina=1)',
      path: 'manifiestos?liquidacion=pendiente&orden=-diferencia&pagina=1',
    },
    { measure: "Inicio's summary with its money (resumen)", path: 'resumen', single: true },
    { measure: 'deposits with their totals (depositos?pagina=1)', path: 'depositos?pagina=1' },
  ]
  try {
    for (const list of lists) await benchList(bench, service.url, invoices, list)
  } finally {
    await service.stop()
  }
}

async function prepareDatabase(bench: Bench, invoices: number, keep: string | undefined): Promise<string> {
  const dir = keep ?? mkdtempSync(join(bench.work, 'lists-'))
  mkdirSync(dir, { recursive: true })
  // Named by its schema: a database kept by --lists-db before the money (issue 40) is not reused.
  const database = join(dir, `manifiesto-${invoices}-v11.db`)
  let note = `reused from ${dir}`
  if (!existsSync(database)) {
    const started = performance.now()
    const db = openDatabase(database)
    try {
      migrateDatabase(db, DERIVED_VALUES)
      fillDatabase(db, invoices)
    } finally {
      closeDatabase(db)
    }
    note = `built by SQL in ${format((performance.now() - started) / 1000)} s`
  }
  bench.rows.push({
    measure: `operator lists: database of ${invoices.toLocaleString('en')} invoices and ${Math.floor(invoices / 10).toLocaleString('en')} deposits`,
    value: statSync(database).size / 1024 / 1024,
    unit: 'MB',
    note,
  })
  searchIndexRow(bench, database, invoices)
  return database
}

/** What the invoice search index (issue 41, migration 12) takes on disk per stored invoice: its tables' pages. */
function searchIndexRow(bench: Bench, database: string, invoices: number): void {
  const db = openDatabase(database, { readonly: true })
  try {
    const bytes = db.sqlite
      .prepare("SELECT sum(pgsize) FROM dbstat WHERE name LIKE 'invoice_search%'")
      .pluck()
      .get() as number
    bench.rows.push({
      measure: `search index on disk per invoice (${invoices.toLocaleString('en')} invoices)`,
      value: bytes / invoices,
      unit: 'B',
      note: `${format(bytes / 1024 / 1024)} MB in all`,
    })
  } finally {
    closeDatabase(db)
  }
}

async function benchList(bench: Bench, url: string, invoices: number, list: List): Promise<void> {
  const measure = `operator list at ${invoices.toLocaleString('en')} invoices: ${list.measure}`
  let started = performance.now()
  const first = await getOperator(url, list.path)
  const cold = performance.now() - started
  const items = list.single
    ? first.status === 200
      ? 1
      : null
    : list.count
      ? first.status === 200
        ? list.count(first)
        : null
      : itemsOf(first, list.arrayOrGone === true)
  if (items === null && list.arrayOrGone) {
    bench.rows.push({
      measure,
      value: null,
      unit: 'ms',
      note: `answered ${first.status}, not an array: the plain form is gone`,
    })
    return
  }
  if (items === null || items === 0)
    throw new Error(
      `GET operador/${list.path} answered ${first.status} with ${items ?? 'no'} items: ${first.text.slice(0, 200)}`,
    )
  const times: number[] = []
  for (let run = 0; run < (cold > SLOW_MS ? 3 : REQUESTS); run++) {
    started = performance.now()
    const answer = await getOperator(url, list.path)
    times.push(performance.now() - started)
    if (answer.status !== 200)
      throw new Error(`GET operador/${list.path} answered ${answer.status}: ${answer.text.slice(0, 200)}`)
  }
  bench.rows.push({
    measure,
    value: median(times),
    unit: 'ms',
    budget: PAGE_BUDGET_MS,
    note: `cold ${format(cold)} ms; ${items} items`,
  })
}

/**
 * How many items a 200 lists: an array's length, or (unless `arrayOnly`) that of a page object's
 * array; null for anything else.
 */
function itemsOf(answer: Answer, arrayOnly: boolean): number | null {
  if (answer.status !== 200) return null
  const body = JSON.parse(answer.text) as unknown
  if (Array.isArray(body)) return body.length
  if (arrayOnly) return null
  const list = typeof body === 'object' && body !== null ? Object.values(body).find(Array.isArray) : undefined
  return list === undefined ? null : list.length
}
