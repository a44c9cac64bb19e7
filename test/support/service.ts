import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import type { PasswordCost } from '../../src/accounts/passwords.ts'
import { createApp, type ManifiestoApp } from '../../src/app/app.ts'
import type { ConsoleFiles } from '../../src/console-assets/console-files.ts'
import type { CopyFile } from '../../src/backup/off-machine-copy.ts'
import type { DiskReader } from '../../src/monitoring/disk.ts'
import type { Route } from '../../src/http/route.ts'
import { ManualClock } from '../../src/core/clock.ts'
import { defaultConfigFor, validateConfig, type Config, type ConfigFile } from '../../src/config/config.ts'
import { closeDatabase, openDatabase, type Database } from '../../src/db/database.ts'
import { migrateDatabase } from '../../src/db/migrate.ts'
import { startServer } from '../../src/http/server.ts'
import { createLogger } from '../../src/logging/logger.ts'
import { answerChecker } from './answers.ts'
import { DERIVED_VALUES } from '../../src/app/derived-values.ts'

export const API_KEY = 'clave-cliente-de-prueba-7f3a'
/** A cheap scrypt cost for tests (production uses DEFAULT_PASSWORD_COST). */
export const TEST_PASSWORD_COST: PasswordCost = { N: 1024, r: 8, p: 1 }
export const OPERATOR_KEY = 'clave-operador-de-prueba-91c2'

/** Both client contracts, for scenario tables whose rule is shared (issue 19). */
export const CONTRACTS = ['v1', 'v2'] as const
export type ContractName = (typeof CONTRACTS)[number]

/** Deep partial of the config as a file writes it (`trustProxy: true` too), for per-test overrides. */
export type ConfigOverrides = { [K in keyof ConfigFile]?: Partial<ConfigFile[K]> | ConfigFile[K] }

export interface TestService {
  url: string
  db: Database
  clock: ManualClock
  config: Config
  dir: string
  /** The routes the app registered. */
  routes: readonly Route[]
  /** The background watch (snapshots, free disk): a test runs its rounds with `monitor.tick()`. */
  monitor: ManifiestoApp['monitor']
  /** The automatic snapshots and their copies off the machine. */
  snapshots: ManifiestoApp['snapshots']
  /** Every log line written so far, raw text. */
  logText(): string
  logLines(): Array<Record<string, unknown>>
  /** A request to the service; its answer is checked against the schema its route documents. */
  fetch(path: string, init?: RequestInit): Promise<Response>
  /** GET/POST with the client's ApiKey header. */
  client(path: string, init?: RequestInit): Promise<Response>
  close(): Promise<void>
}

export interface TestServiceOptions {
  config?: ConfigOverrides
  /** scrypt cost of new password hashes; cheap by default so tests that log in stay fast. */
  passwordCost?: PasswordCost
  /** ISO instant the clock starts at (default: 2026-11-22T16:00:00Z, 10:00 in Honduras). */
  now?: string
  /** Runs on the new database file before it is migrated (to build one of an earlier version). */
  beforeMigrate?: (db: Database) => void
  /** Free disk at a folder, in place of the real file system's. */
  readFreeDisk?: DiskReader
  /** The console's built files (default: the build folder, console/dist). */
  consoleFiles?: ConsoleFiles
  /** How a snapshot is copied to backup.copyTo (a slow share is a slowed copy). */
  copyFile?: CopyFile
}

/**
 * The real service on a real port: real HTTP through listhen, a fresh SQLite file in its own temp
 * folder, a clock the test controls and a log captured in memory.
 */
export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const dir = mkdtempSync(join(tmpdir(), 'manifiesto-test-'))
  const config = testConfig(dir, options.config)
  const clock = new ManualClock(options.now ?? '2026-11-22T16:00:00Z', config.dates.timezone)
  const lines: string[] = []
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk))
      done()
    },
  })
  const log = createLogger(config.log, { clock, stdout: sink })
  const db = openDatabase(config.database.path)
  options.beforeMigrate?.(db)
  migrateDatabase(db, DERIVED_VALUES)
  const {
    listener,
    routes,
    monitor,
    snapshots,
    close: closeApp,
  } = createApp({
    config,
    db,
    clock,
    log,
    passwordCost: options.passwordCost ?? TEST_PASSWORD_COST,
    ...(options.readFreeDisk === undefined ? {} : { readFreeDisk: options.readFreeDisk }),
    ...(options.consoleFiles ? { consoleFiles: options.consoleFiles } : {}),
    ...(options.copyFile ? { copyFile: options.copyFile } : {}),
  })
  const server = await startServer(listener, config.server, { log, clock })
  const url = `http://127.0.0.1:${server.address.port}`
  const checkAnswer = answerChecker(routes)
  const fetchPath = async (path: string, init?: RequestInit) => {
    const response = await fetch(url + path, init)
    await checkAnswer(init?.method ?? 'GET', path, response.clone())
    return response
  }
  return {
    url,
    db,
    clock,
    config,
    dir,
    routes,
    monitor,
    snapshots,
    logText: () => lines.join(''),
    logLines: () =>
      lines
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    fetch: fetchPath,
    client: (path, init = {}) =>
      fetchPath(path, {
        ...init,
        headers: { ApiKey: API_KEY, ...(init.headers as Record<string, string> | undefined) },
      }),
    close: async () => {
      // The app's close awaits its compression worker's exit, and that worker never holds the
      // process open (unref'd): with nothing else pending the event loop would drain meanwhile,
      // and node:test cancel the test ("Promise resolution is still pending…"). Held until closed.
      const hold = setInterval(() => {}, 1_000)
      try {
        await server.close()
        snapshots.stop()
        await snapshots.idle()
        await closeApp()
      } finally {
        clearInterval(hold)
      }
      closeDatabase(db)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

export function testConfig(dir: string, overrides: ConfigOverrides = {}): Config {
  // The contract's own defaults first (v2: a 7-business-day window, re-issue blocks refused), as loadConfig does.
  const merged: Record<string, unknown> = structuredClone(
    defaultConfigFor(overrides.clientContract ?? 'v1'),
  ) as unknown as Record<string, unknown>
  const base = {
    server: { host: '127.0.0.1', port: 0 },
    database: { path: join(dir, 'manifiesto.db') },
    auth: { apiKey: API_KEY, operatorKey: OPERATOR_KEY },
    backup: { dir: join(dir, 'backups') },
    log: { level: 'info' },
  }
  for (const layer of [base, overrides] as Array<Record<string, unknown>>) {
    for (const [section, value] of Object.entries(layer)) {
      const current = merged[section]
      merged[section] =
        value !== null &&
        typeof value === 'object' &&
        !Array.isArray(value) &&
        current !== null &&
        typeof current === 'object'
          ? { ...(current as object), ...(value as object) }
          : value
    }
  }
  return validateConfig(merged, 'configuración de prueba')
}

/** Runs `body` with a fresh service and always closes it. */
export async function withService<T>(
  options: TestServiceOptions,
  body: (service: TestService) => Promise<T>,
): Promise<T> {
  const service = await startTestService(options)
  try {
    return await body(service)
  } finally {
    await service.close()
  }
}
