import type { DerivedValues } from '../db/migrations/index.ts'
import { fingerprintOf } from '../invoices/fingerprint.ts'
import { serializeListedLines } from '../returns/listed-lines.ts'

/** What the migrations' back-fills compute with the features' code (src/db/migrations/migration.ts). */
export const DERIVED_VALUES: DerivedValues = {
  fingerprintOf,
  listedLinesInUnits: (lines) => serializeListedLines(lines, 'units'),
}
