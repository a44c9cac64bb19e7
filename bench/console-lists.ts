/**
 * `node --import tsx bench/console-lists.ts [--invoices=1000000]`: one page of each list the
 * console uses, over HTTP on loopback, with a million invoices stored (contract §8: operator
 * lists, one page, ≤ 50 ms). The database is filled with SQL (bench/million.ts, as the bench's
 * `lists` group does) in a temporary folder, then the real app answers in this process; each
 * request is timed 7 times and the median is printed, as the integration (every warehouse) and as
 * a person of one warehouse, for more pages and filters than the bench's rows. Not part of `npm test`.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { PasswordRules } from '../src/accounts/password-rules.ts'
import { DEFAULT_PASSWORD_COST } from '../src/accounts/passwords.ts'
import { createUser } from '../src/accounts/users.service.ts'
import { createApp } from '../src/app/app.ts'
import { systemClock } from '../src/core/clock.ts'
import { DEFAULT_CONFIG, validateConfig } from '../src/config/config.ts'
import { closeDatabase, openDatabase } from '../src/db/database.ts'
import { migrateDatabase } from '../src/db/migrate.ts'
import { startServer } from '../src/http/server.ts'
import { createLogger } from '../src/logging/logger.ts'
import { fillDatabase, middleManifest, PER_MANIFEST } from './million.ts'
import { DERIVED_VALUES } from '../src/app/derived-values.ts'

const INVOICES = Number(process.argv.find((arg) => arg.startsWith('--invoices='))?.slice(11) ?? 1_000_000)
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
      auth: { ...DEFAULT_CONFIG.auth, apiKey: 'bench-api-key-0123456789', operatorKey: OPERATOR_KEY },
      rateLimits: { ...DEFAULT_CONFIG.rateLimits, operatorPerMinute: 100_000, loginPerMinute: 100 },
      log: { ...DEFAULT_CONFIG.log, level: 'warn' },
    },
    'banco de la consola',
  )
  const db = openDatabase(config.database.path)
  migrateDatabase(db, DERIVED_VALUES)
  const clock = systemClock(config.dates.timezone)
  if (!reuse) {
    const started = performance.now()
    fillDatabase(db, INVOICES)
    console.log(`${INVOICES} facturas en ${Math.round((performance.now() - started) / 1000)} s`)
  }
  if (!reuse)
    await createUser(
      {
        db,
        clock,
        warehouses: config.warehouses,
        passwordCost: DEFAULT_PASSWORD_COST,
        passwordRules: new PasswordRules(),
      },
      null,
      { usuario: 'sup-oac', nombre: 'Sup OAC', rol: 'supervisor', almacenes: ['OAC'], contrasena: PASSWORD },
    )
  const log = createLogger(config.log, { clock, stdout: new Writable({ write: (_chunk, _encoding, done) => done() }) })
  const { listener } = createApp({ config, db, clock, log })
  const server = await startServer(listener, config.server, { log, clock })
  const url = `http://127.0.0.1:${server.address.port}`
  try {
    const login = await fetch(`${url}/api/v1/sesion`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ usuario: 'sup-oac', contrasena: PASSWORD }),
    })
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!
    const middle = middleManifest(INVOICES)
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
      rows.push([
        path,
        await median(url, path, { OperatorKey: OPERATOR_KEY }),
        await median(url, path, { Cookie: cookie }),
      ])
    }
    console.log(`\n| página (${INVOICES} facturas) | integración ms | persona de OAC ms | presupuesto |`)
    console.log('|---|---|---|---|')
    for (const [path, key, person] of rows)
      console.log(
        `| GET ${path} | ${key.toFixed(1)} | ${person.toFixed(1)} | ${Math.max(key, person) <= BUDGET_MS ? '≤' : '>'} ${BUDGET_MS} |`,
      )
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
