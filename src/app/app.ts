import { toNodeListener, type App } from 'h3'
import type { Logger } from 'pino'
import type { Clock } from '../core/clock.ts'
import { keyList, type Config } from '../config/config.ts'
import { clientContractOf } from '../config/contract.ts'
import { databaseFileProblem, type Database } from '../db/database.ts'
import { accountRoutes } from '../accounts/accounts.routes.ts'
import { PasswordRules } from '../accounts/password-rules.ts'
import { DEFAULT_PASSWORD_COST, type PasswordCost } from '../accounts/passwords.ts'
import { actorOfSession } from '../accounts/sessions.service.ts'
import { createAlerter } from '../alerts/alerter.ts'
import { apiDocsRoutes } from '../api-docs/api-docs.routes.ts'
import { Snapshotter } from '../backup/backup.service.ts'
import type { CopyFile } from '../backup/off-machine-copy.ts'
import { auditRoutes } from '../audit/audit.routes.ts'
import { batchRoutes } from '../batches/batches.routes.ts'
import { conflictRoutes } from '../conflicts/conflicts.routes.ts'
import { defaultConsoleFiles, type ConsoleFiles } from '../console-assets/console-files.ts'
import { dashboardRoutes } from '../dashboard/dashboard.routes.ts'
import { healthRoutes } from '../health/health.routes.ts'
import { createHttpApp } from '../http/http-app.ts'
import { UploadSlots } from '../http/upload-slots.ts'
import { buildOpenApiDocument } from '../http/openapi.ts'
import { openApiRoutes } from '../http/openapi.routes.ts'
import type { Route } from '../http/route.ts'
import { intakeRoutes } from '../intake/intake.routes.ts'
import { BodyCompressor } from '../intake/body/body-compressor.ts'
import { readFreeDisk, type DiskReader } from '../monitoring/disk.ts'
import { Monitor } from '../monitoring/monitor.ts'
import { RecentErrors } from '../monitoring/recent-errors.ts'
import { invoiceRoutes } from '../lookup/lookup.routes.ts'
import { manifestOperatorRoutes, manifestRoutes } from '../manifests/manifests.routes.ts'
import { reasonRoutes } from '../reasons/reasons.routes.ts'
import { reissueRoutes } from '../reissues/reissues.routes.ts'
import { reissueAuditConcealers } from '../reissues/reissues.service.ts'
import { ListingCache } from '../listing/listing.cache.ts'
import { returnRoutes } from '../returns/returns.routes.ts'
import { searchRoutes } from '../search/search.routes.ts'
import { listingRoutes } from '../listing/listing.routes.ts'
import { statusRoutes } from '../status/status.routes.ts'
import { VERSION } from '../core/version.ts'
import { printingRoutes } from '../printing/printing.routes.ts'
import { settlementRoutes } from '../settlement/settlement.routes.ts'

export interface AppDeps {
  config: Config
  db: Database
  clock: Clock
  log: Logger
  /** scrypt cost of new password hashes (tests lower it; a raised one rehashes at the next login). */
  passwordCost?: PasswordCost
  /** Free disk at a folder (tests inject a reading: a disk cannot be filled for a test). */
  readFreeDisk?: DiskReader
  /** The operator console's built files (default: the executable's assets, or the build folder from source). */
  consoleFiles?: ConsoleFiles
  /** How a snapshot is copied to backup.copyTo (tests slow it down: a share is slower than a disk). */
  copyFile?: CopyFile
}

export interface ManifiestoApp {
  app: App
  /** Node's request listener, for listhen or a plain http.Server. */
  listener: ReturnType<typeof toNodeListener>
  routes: readonly Route[]
  /** The background watch (snapshots, free disk) main.ts runs on a timer; tests run its rounds by hand. */
  monitor: Monitor
  snapshots: Snapshotter
  /** Internal errors of the last 24 hours, for the status endpoint (main.ts adds its own). */
  errors: RecentErrors
  /** Stops what the app itself runs (the compression worker); the caller closes the database after. */
  close(): Promise<void>
}

/** Builds the service: every route registered here, from one list. Starts nothing. */
export function createApp({
  config,
  db,
  clock,
  log,
  passwordCost = DEFAULT_PASSWORD_COST,
  readFreeDisk: readDisk = readFreeDisk,
  consoleFiles = defaultConsoleFiles(),
  copyFile,
}: AppDeps): ManifiestoApp {
  const startedAt = clock.now()
  const rateLimits = {
    insert: config.rateLimits.insertPerMinute,
    validate: config.rateLimits.validatePerMinute,
    returns: config.rateLimits.returnsPerMinute,
    operator: config.rateLimits.operatorPerMinute,
    general: config.rateLimits.generalPerMinute,
    login: config.rateLimits.loginPerMinute,
  }
  const maxBodyBytes = Math.floor(config.server.maxBodyMB * 1024 * 1024)
  const alerter = createAlerter({ webhookUrl: config.alerts.webhookUrl, log, clock })
  const errors = new RecentErrors(clock)
  const snapshots = new Snapshotter(db, clock, config.backup, log, copyFile === undefined ? {} : { copyFile })
  const monitor = new Monitor({ config, log, alerter, snapshots, readFreeDisk: readDisk, errors })
  const contract = clientContractOf(config.clientContract)
  const listing = new ListingCache(config.returnsCache, clock, contract)
  const compressor = new BodyCompressor()
  const https = config.server.https.certFile !== ''
  const sessions = { db, clock, settings: config.auth, passwordCost }
  const routes: Route[] = [
    ...accountRoutes({ ...sessions, warehouses: config.warehouses, passwordRules: new PasswordRules() }),
    ...healthRoutes({ db, clock }),
    ...intakeRoutes({
      db,
      clock,
      config,
      contract,
      log,
      uploads: new UploadSlots(config.intake.maxConcurrentBatches),
      compressor,
      onInvoicesChanged: () => listing.forgetAll(),
      alerter,
    }),
    ...manifestRoutes({ db, clock, config, contract }),
    ...manifestOperatorRoutes({ db, clock, config, contract }),
    ...listingRoutes({ db, clock, listing, contract, maxRangeDays: config.returns.listing.maxRangeDays }),
    ...returnRoutes({ db, clock, listing, contract }),
    ...reasonRoutes({ db, clock, onChange: () => listing.forgetAll() }),
    ...invoiceRoutes({ db, clock, contract }),
    ...searchRoutes({ db, clock }),
    ...conflictRoutes({ db, clock, onInvoiceChanged: () => listing.forgetAll() }),
    ...reissueRoutes({ db, clock }),
    ...batchRoutes({ db, clock, config }),
    ...auditRoutes({ db, clock, concealers: reissueAuditConcealers() }),
    ...statusRoutes({ db, clock, config, startedAt, monitor, snapshots, errors, alerter }),
    ...settlementRoutes({ db, clock, config }),
    ...printingRoutes({ db, clock }),
    ...dashboardRoutes({ db, clock }),
    ...openApiRoutes(() => buildOpenApiDocument(routes, { version: VERSION, rateLimits })),
    ...apiDocsRoutes(),
  ]
  const app = createHttpApp({
    routes,
    clock,
    log,
    rateLimits,
    trustProxy: config.server.trustProxy,
    maxBodyBytes,
    bodyTimeoutMs: config.server.bodyTimeoutSeconds * 1000,
    authentication: {
      keys: { client: keyList(config.auth.apiKey), operator: keyList(config.auth.operatorKey) },
      sessions: (token) => actorOfSession(sessions, token),
      trustProxy: config.server.trustProxy,
      https,
    },
    databaseFileProblem: () => databaseFileProblem(db),
    onInternalError: (error, context) => {
      errors.record(error, context)
      alerter.notify(error, context)
    },
    consoleFiles,
  })
  return { app, listener: toNodeListener(app), routes, monitor, snapshots, errors, close: () => compressor.close() }
}
