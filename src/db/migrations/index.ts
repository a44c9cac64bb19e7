import type { Migration } from './migration.ts'
import { migration0001 } from './0001-batches-manifests-invoices.ts'
import { migration0002 } from './0002-returns.ts'
import { migration0003 } from './0003-application-id.ts'
import { migration0004 } from './0004-accounts.ts'
import { migration0005 } from './0005-fingerprints-and-reissues.ts'
import { migration0006 } from './0006-returns-in-units.ts'
import { migration0007 } from './0007-console-indexes.ts'
import { migration0008 } from './0008-body-chunks.ts'
import { migration0009 } from './0009-list-aggregates.ts'
import { migration0010 } from './0010-invoice-revision.ts'
import { migration0011 } from './0011-settlement.ts'
import { migration0012 } from './0012-invoice-search.ts'
import { migration0013 } from './0013-invoice-prints.ts'

export { MANIFIESTO_APPLICATION_ID, type DerivedValues, type Migration } from './migration.ts'

/** Every migration, in order: one file each, never edited once landed (add the next one). */
export const MIGRATIONS: readonly Migration[] = [
  migration0001,
  migration0002,
  migration0003,
  migration0004,
  migration0005,
  migration0006,
  migration0007,
  migration0008,
  migration0009,
  migration0010,
  migration0011,
  migration0012,
  migration0013,
]

export const LATEST_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version
