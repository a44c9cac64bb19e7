/**
 * `node --import tsx bench/console-lists.ts [--invoices=1000000]`: one page of each list the
 * console uses, over HTTP on loopback, with a million invoices stored (contract §8: operator
 * lists, one page, ≤ 50 ms). The database is filled with SQL (330 invoices per manifest, three
 * warehouses, invoices of realistic size, returns and pending conflicts) in a temporary folder,
 * then the real app answers; each request is timed 7 times and the median is printed, as the
 * integration (every warehouse) and as a person of one warehouse. Not part of `npm test`.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { DEFAULT_PASSWORD_COST } from '../src/accounts/passwords.ts'
import { createUser } from '../src/accounts/users.service.ts'
import { createApp } from '../src/app.ts'
import { systemClock } from '../src/clock.ts'
import { DEFAULT_CONFIG, validateConfig } from '../src/config.ts'
import { closeDatabase, openDatabase } from '../src/db/database.ts'
import { migrateDatabase } from '../src/db/migrate.ts'
import { startServer } from '../src/http/server.ts'
import { createLogger } from '../src/logger.ts'
import { generateBatch } from './generator.ts'

const INVOICES = Number(process.argv.find((arg) => arg.startsWith('--invoices='))?.slice(11) ?? 1_000_000)
const PER_MANIFEST = 330
/** `--keep=DIR`: build (or reuse) the database in DIR and leave it there, to study query plans. */
const KEEP = process.argv.find((arg) => arg.startsWith('--keep='))?.slice(7)
const BUDGET_MS = 50
const OPERATOR_KEY = 'bench-operator-key'
const PASSWORD = 'clave-de-banco-2026'

const work = KEEP ?? mkdtempSync(join(tmpdir(), 'manifiesto-console-bench-'))
const reuse = KEEP !== undefined && existsSync(join(KEEP, 'manifiesto.db'))
if (KEEP !== undefined) mkdirSync(KEEP, { recursive: true })
try {
  const config = validateConfig(
    {
      ...structuredClone(DEFAULT_CONFIG),
      server: { ...DEFAULT_CONFIG.server, host: '127.0.0.1', port: 0 },
      database: { ...DEFAULT_CONFIG.database, path: join(work, 'manifiesto.db') },
      auth: { ...DEFAULT_CONFIG.auth, apiKey: 'bench-api-key', operatorKey: OPERATOR_KEY },
      rateLimits: { ...DEFAULT_CONFIG.rateLimits, operatorPerMinute: 100_000, loginPerMinute: 100 },
      log: { ...DEFAULT_CONFIG.log, level: 'warn' },
    },
    'banco de la consola',
  )
  const db = openDatabase(config.database.path)
  migrateDatabase(db)
  const clock = systemClock(config.dates.timezone)
  if (!reuse) {
    const started = performance.now()
    fill(db, INVOICES)
    console.log(`${INVOICES} facturas en ${Math.round((performance.now() - started) / 1000)} s`)
  }
  if (!reuse) await createUser({ db, clock, warehouses: config.warehouses, passwordCost: DEFAULT_PASSWORD_COST }, null, { usuario: 'sup-oac', nombre: 'Sup OAC', rol: 'supervisor', almacenes: ['OAC'], contrasena: PASSWORD })
  const { listener } = createApp({ config, db, clock, log: createLogger(config.log, new Writable({ write: (_chunk, _encoding, done) => done() })) })
  const server = await startServer(listener, config.server)
  const url = `http://127.0.0.1:${server.address.port}`
  try {
    const login = await fetch(`${url}/api/v1/sesion`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ usuario: 'sup-oac', contrasena: PASSWORD }) })
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!
    const middle = String(700_000 + Math.floor(INVOICES / PER_MANIFEST / 2))
    const paths = [
      'resumen',
      'manifiestos?pagina=1',
      `manifiestos?pagina=${Math.max(1, Math.floor(INVOICES / PER_MANIFEST / 50 / 2))}`,
      'manifiestos?estado=imported&almacen=OAS&pagina=1',
      'manifiestos?numero=7001&pagina=1',
      `manifiestos/${middle}/facturas?pagina=1`,
      `manifiestos/${middle}/facturas?buscar=40000123`,
      'devoluciones?pagina=1',
      'devoluciones?estado=pending&buscar=40000&pagina=1',
      'auditoria?pagina=1',
      'conflictos/2',
    ]
    const rows: Array<[string, number, number]> = []
    for (const path of paths) {
      rows.push([path, await median(url, path, { OperatorKey: OPERATOR_KEY }), await median(url, path, { Cookie: cookie })])
    }
    console.log(`\n| página (${INVOICES} facturas) | integración ms | persona de OAC ms | presupuesto |`)
    console.log('|---|---|---|---|')
    for (const [path, key, person] of rows) console.log(`| GET ${path} | ${key.toFixed(1)} | ${person.toFixed(1)} | ${Math.max(key, person) <= BUDGET_MS ? '≤' : '>'} ${BUDGET_MS} |`)
    process.exitCode = rows.some(([, key, person]) => Math.max(key, person) > BUDGET_MS) ? 1 : 0
  } finally {
    await server.close()
    closeDatabase(db)
  }
} finally {
  if (KEEP === undefined) rmSync(work, { recursive: true, force: true })
}

/** Median of 7 timed requests after one warm-up; fails on any answer but 200. */
async function median(url: string, path: string, headers: Record<string, string>): Promise<number> {
  const times: number[] = []
  for (let run = 0; run < 8; run++) {
    const started = performance.now()
    const response = await fetch(`${url}/api/v1/operador/${path}`, { headers })
    await response.arrayBuffer()
    if (response.status !== 200) throw new Error(`GET ${path} → ${response.status}`)
    if (run > 0) times.push(performance.now() - started)
  }
  return times.sort((a, b) => a - b)[3]!
}

/**
 * The database with `count` invoices (no lines: no list reads them), each with the original of a
 * generated invoice as its stored JSON; one return in ten invoices (a third pending), a pending
 * conflict in every 2000th, audit entries, all by SQL in one transaction.
 */
function fill(db: ReturnType<typeof openDatabase>, count: number): void {
  const original = JSON.stringify(generateBatch(1, { fecha: '2026-11-01' })[0])
  const manifests = Math.ceil(count / PER_MANIFEST)
  db.sqlite.exec(`
    BEGIN;
    INSERT INTO batches (uuid, received_at, received_date, content_hash, client_ip, key_fingerprint, estado, invoice_count, http_status, summary)
      VALUES ('00000000-0000-4000-8000-000000000000', '2026-11-01T16:00:00.000Z', '2026-11-01', 'x', '127.0.0.1', 'abc', 'processed', ${count}, 200, '{"recibidas":${count},"insertadas":${count},"actualizadas":0,"sin_cambios":0,"pendientes_revision":0,"rechazadas":0}');
    INSERT INTO return_reasons (codigo, descripcion, created_at) VALUES ('DANADO', 'Producto dañado', '2026-11-01T16:00:00.000Z');
    WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k < ${manifests - 1})
    INSERT INTO manifests (numero, estado, created_at, created_batch_id)
      SELECT CAST(700000 + k AS TEXT), CASE WHEN k % 4 = 0 THEN 'closed' ELSE 'imported' END,
        strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01T16:00:00.000Z', '+' || (k * 2) || ' hours'), 1 FROM n;
    WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k < ${count - 1})
    INSERT INTO invoices (nfactura, manifest_id, batch_id, fecha_factura, almacen, vendedor_id, cliente_id, cliente, numero_ruta, total, original, content_hash, created_at)
      SELECT 'G-' || printf('%09d', k), 1 + k / ${PER_MANIFEST}, 1, '2026-11-01', CASE k % 3 WHEN 0 THEN 'OAC' WHEN 1 THEN 'OAS' ELSE 'OAO' END, 'V01',
        CAST(40000000 + k % 3000 AS TEXT), 'PULPERIA ' || (k % 3000), 'R-' || (k % 40), 1000 + (k % 5000) + 0.18,
        ${sqlText(original)}, 'h' || k, '2026-11-01T16:00:00.000Z' FROM n;
    INSERT INTO returns (invoice_id, reason_codigo, fecha, estado, total_cents, listed_lines, registered_at, registered_date, registered_by)
      SELECT id, 'DANADO', '2026-11-01T09:00:00', CASE id % 3 WHEN 0 THEN 'pending' ELSE 'approved' END, 1234, '[]', '2026-11-01T16:00:00.000Z', '2026-11-01', 'Ana'
      FROM invoices WHERE id % 10 = 0;
    INSERT INTO return_lines (return_id, numero_linea, producto_id, producto_desc, uni_venta, factor_conversion, units, amount_cents)
      SELECT id, 1, '30110205', 'ACEITE', 'UN', 1, 1, 1234 FROM returns;
    INSERT INTO invoice_conflicts (invoice_id, batch_id, changed_fields, existing_original, incoming_original, incoming_hash, created_at)
      SELECT id, 1, '["Tel"]', original, original, 'c' || id, '2026-11-01T16:00:00.000Z' FROM invoices WHERE id % 2000 = 0;
    WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k < 99999)
    INSERT INTO audit_log (at, actor, action, subject_type, subject_id) SELECT '2026-11-01T16:00:00.000Z', 'Ana', 'devolucion.aprobada', 'devolucion', CAST(k + 1 AS TEXT) FROM n;
    COMMIT;`)
  // No ANALYZE: the service never runs it, so the planner works without statistics there too.
}

function sqlText(text: string): string {
  return `'${text.replace(/'/g, "''")}'`
}
