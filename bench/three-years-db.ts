/**
 * A database the size of three years at the supplier's volume (issue 44): 3,000,000 invoices in
 * 10,000 manifests of 300 (some 9 a day, each its own batch), ~8 lines each, 30,000 approved
 * returns, their audit entries, the batches' bodies pruned as `intake.rawPayloadRetentionDays`
 * (180) says. Built by SQL, as bench/million.ts builds the lists' database — through the intake
 * it would take days — but from rows the service itself wrote: one real batch of 300
 * supplier-shaped invoices (gen.mjs) taken in by the service, three returns registered and approved
 * and the manifest closed through the operator API; then every row of that template is copied
 * 9,999 times by SQL, each copy shifted in time (the three years end today), renumbered (its own
 * invoice numbers, manifest, batch, ids) and given its own economic fingerprint, so the indexes
 * are as large and as scattered as three real years make them. The batches' bodies are copied
 * with them (each invoice's original is bytes of its batch's body), and the service's own pruning
 * then runs over the three years.
 */
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { pruneRawPayloads } from '../src/batches/batches.service.ts'
import { systemClock } from '../src/core/clock.ts'
import { openDatabase, closeDatabase } from '../src/db/database.ts'
import { generateSupplierBatch } from './floors.ts'
import { getOperator, postBatch, postOperator, startService } from './service.ts'

/** Invoices per manifest (and per batch), manifests in three years, returns per manifest. */
export const PER_MANIFEST = 300
export const MANIFESTS = 10_000
export const RETURNS_PER_MANIFEST = 3
export const YEARS = 3
/** The copies' manifest numbers start here: far from gen.mjs's (300100 + 100 × seed + …). */
export const FIRST_NUMERO = 900_000

const DAY_MS = 86_400_000

export interface ThreeYears {
  file: string
  invoices: number
  returns: number
  /** The busiest day of approvals (YYYY-MM-DD): the client's listing is read for it. */
  busiestDay: string
  /** A manifest in the middle of the three years, and a day its batch arrived on. */
  middleManifest: string
  middleDay: string
  seconds: number
}

/**
 * Builds the database in `folder` (manifiesto.db), `manifests` manifests (10,000 by default;
 * fewer for a smoke run). `work` is a scratch folder for the template service.
 */
export async function buildThreeYears(folder: string, work: string, manifests = MANIFESTS): Promise<ThreeYears> {
  const started = performance.now()
  mkdirSync(folder, { recursive: true })
  const today = new Date(Date.now() - 6 * 3_600_000).toISOString().slice(0, 10)
  const file = await buildTemplate(join(folder, 'manifiesto.db'), work, today)
  const db = new Database(file)
  try {
    // No journal while copying: a WAL would hold the whole copy (~8 GB) before writing it again into
    // the file. A build that fails is built again from nothing; the service opens it in WAL.
    db.pragma('journal_mode = OFF')
    db.pragma('synchronous = OFF')
    db.pragma('cache_size = -1000000')
    db.pragma('temp_store = FILE')
    replicate(db, manifests)
  } finally {
    db.close()
  }
  // The service's own pruning, as it would have run every day of the three years.
  const service = openDatabase(file)
  try {
    pruneRawPayloads({ db: service, clock: systemClock('America/Tegucigalpa') }, 180)
    service.sqlite.pragma('wal_checkpoint(TRUNCATE)')
  } finally {
    closeDatabase(service)
  }
  const reader = new Database(file, { readonly: true })
  try {
    const count = (sql: string) => Number(reader.prepare(sql).pluck().get())
    const busiestDay = reader
      .prepare(
        "SELECT processed_date FROM returns WHERE estado = 'approved' GROUP BY processed_date ORDER BY count(*) DESC, processed_date DESC LIMIT 1",
      )
      .pluck()
      .get() as string
    const middle = reader
      .prepare(
        'SELECT numero, received_date FROM manifests JOIN batches ON batches.id = manifests.created_batch_id WHERE manifests.id = ?',
      )
      .get(1 + Math.floor(manifests / 2)) as { numero: string; received_date: string }
    return {
      file,
      invoices: count('SELECT count(*) FROM invoices'),
      returns: count('SELECT count(*) FROM returns'),
      busiestDay,
      middleManifest: middle.numero,
      middleDay: middle.received_date,
      seconds: (performance.now() - started) / 1000,
    }
  } finally {
    reader.close()
  }
}

/** The template: the service takes in one real batch, registers three returns and closes the manifest. */
async function buildTemplate(database: string, work: string, today: string): Promise<string> {
  const service = await startService(work, { config: { database: { path: database }, backup: { everyHours: 0 } } })
  try {
    const batchFile = join(work, 'plantilla.json')
    generateSupplierBatch(PER_MANIFEST, batchFile, today)
    // One manifest (gen.mjs cuts its manifests at random sizes around 330).
    const invoices = (
      JSON.parse(readFileSync(batchFile, 'utf8')) as Array<{ Nfactura: string; NumeroManifiesto: string }>
    ).map((invoice, _, all) => ({ ...invoice, NumeroManifiesto: all[0]!.NumeroManifiesto }))
    const body = Buffer.from(JSON.stringify(invoices))
    const answer = await postBatch(service.url, body)
    if (answer.status !== 200)
      throw new Error(`the template batch was answered ${answer.status}: ${answer.text.slice(0, 300)}`)
    const reason = await postOperator(service.url, 'conceptos', {
      codigo: 'DANADO',
      idProveedor: '7',
      descripcion: 'Producto dañado',
    })
    if (reason.status !== 201) throw new Error(`concepto: ${reason.text}`)
    for (let i = 0; i < RETURNS_PER_MANIFEST; i++) {
      const nfactura = invoices[i * 97]!.Nfactura
      const invoice = JSON.parse((await getOperator(service.url, `facturas/${encodeURIComponent(nfactura)}`)).text) as {
        lineas: Array<{ numeroLinea: number; disponibles: number }>
      }
      const lineas = invoice.lineas
        .filter((line) => line.disponibles >= 1)
        .slice(0, 2)
        .map((line) => ({ numeroLinea: line.numeroLinea, unidades: 1 }))
      const created = await postOperator(service.url, 'devoluciones', {
        factura: nfactura,
        concepto: 'DANADO',
        fecha: today,
        lineas,
        aprobar: true,
      })
      if (created.status !== 201) throw new Error(`return: ${created.text}`)
    }
    const closed = await postOperator(service.url, `manifiestos/${invoices[0]!.NumeroManifiesto}/cerrar`, {})
    if (closed.status !== 200) throw new Error(`closing: ${closed.text}`)
  } finally {
    await service.stop()
  }
  return database
}

/**
 * Copies every template row (ids 1…) `manifests - 1` times. Copy k (1…) is the manifest received
 * at k × (three years / manifests) after the start, three years before now; its rows get ids
 * after the template's, in order, so every table grows at its end as it does in service.
 */
function replicate(db: Database.Database, manifests: number): void {
  const minutesApart = (YEARS * 365 * DAY_MS) / manifests / 60_000
  const start = new Date(Date.now() - YEARS * 365 * DAY_MS).toISOString()
  const counts = (table: string) => Number(db.prepare(`SELECT count(*) FROM ${table}`).pluck().get())
  const lines = counts('invoice_lines')
  const returnLines = counts('return_lines')
  // Copy k's instant: the received time of its batch; `plus` shifts it ('+5 minutes', '+1 day').
  const at = (plus = '') =>
    `strftime('%Y-%m-%dT%H:%M:%fZ', '${start}', '+' || (k * ${minutesApart}) || ' minutes'${plus === '' ? '' : `, '${plus}'`})`
  const localDay = (plus = '') => `date(${at(plus)}, '-6 hours')`
  const localTime = (plus = '') => `strftime('%Y-%m-%dT%H:%M:%S', ${at(plus)}, '-6 hours')`
  // Returns are registered and approved the day after their batch arrived.
  const approved = '+1 day'
  db.exec('BEGIN')
  const copies = `WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < ${manifests - 1})`
  const copy = (table: string, overrides: Record<string, string>, where = '') => {
    db.exec(`CREATE TEMP TABLE plantilla_${table} AS SELECT * FROM main.${table} ${where}`)
    const columns = db
      .prepare(`SELECT name FROM pragma_table_xinfo('${table}') WHERE hidden = 0`)
      .pluck()
      .all() as string[]
    const values = columns.map((column) => overrides[column] ?? `t.${column}`)
    db.exec(
      `${copies} INSERT INTO main.${table} (${columns.join(', ')}) SELECT ${values.join(', ')} FROM n CROSS JOIN temp.plantilla_${table} t ORDER BY k, t.rowid`,
    )
  }
  copy('batches', {
    id: 't.id + k',
    uuid: "printf('%08x-0000-4000-8000-%012d', k, k)",
    received_at: at(),
    received_date: localDay(),
    finished_at: at('+3 seconds'),
    body_hash: 'lower(hex(randomblob(32)))',
    numbers_hash: 'lower(hex(randomblob(32)))',
    content_hash: 'NULL',
  })
  copy('batch_body_chunks', { batch_id: 't.batch_id + k' })
  copy('manifests', {
    id: 't.id + k',
    numero: `CAST(${FIRST_NUMERO} + k AS TEXT)`,
    created_at: at(),
    created_batch_id: 't.created_batch_id + k',
    // Closed within days of arriving, but the last month's still open.
    estado: `CASE WHEN ${at('+30 days')} < strftime('%Y-%m-%dT%H:%M:%fZ', 'now') THEN 'closed' ELSE 'imported' END`,
    closed_at: `CASE WHEN ${at('+30 days')} < strftime('%Y-%m-%dT%H:%M:%fZ', 'now') THEN ${at('+3 days')} END`,
  })
  copy('invoices', {
    id: `t.id + k * ${PER_MANIFEST}`,
    nfactura: `'003-001-01-' || printf('%08d', k * ${PER_MANIFEST} + t.id)`,
    manifest_id: 't.manifest_id + k',
    batch_id: 't.batch_id + k',
    fecha_factura: localDay(),
    fecha_vencimiento: `CASE WHEN t.fecha_vencimiento IS NULL THEN NULL ELSE ${localDay('+30 days')} END`,
    created_at: at(),
    fingerprint: 'lower(hex(randomblob(16)))',
  })
  copy('invoice_lines', { id: `t.id + k * ${lines}`, invoice_id: `t.invoice_id + k * ${PER_MANIFEST}` })
  copy('returns', {
    id: `t.id + k * ${RETURNS_PER_MANIFEST}`,
    invoice_id: `t.invoice_id + k * ${PER_MANIFEST}`,
    fecha: localTime(),
    registered_at: at(approved),
    registered_date: localDay(approved),
    processed_date: localDay(approved),
    processed_time: `strftime('%H:%M:%S', ${at(approved)}, '-6 hours')`,
    invoice_date: localDay(),
  })
  copy('return_lines', { id: `t.id + k * ${returnLines}`, return_id: `t.return_id + k * ${RETURNS_PER_MANIFEST}` })
  copy(
    'audit_log',
    {
      id: 'NULL',
      at: at('+1 day'),
      subject_id: `CASE t.subject_type WHEN 'devolucion' THEN CAST(CAST(t.subject_id AS INTEGER) + k * ${RETURNS_PER_MANIFEST} AS TEXT) WHEN 'manifiesto' THEN CAST(${FIRST_NUMERO} + k AS TEXT) ELSE t.subject_id END`,
    },
    "WHERE subject_type IN ('devolucion', 'manifiesto')",
  )
  db.exec('COMMIT')
}
