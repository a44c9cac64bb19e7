import type { Database } from '../database.ts'

/**
 * Forward-only schema migrations, embedded in the code (no files to find at run time, so the
 * single executable carries them). `PRAGMA user_version` holds the number of the last one applied.
 * Never edit a migration once it has landed: add the next one, and update `schema.sql`.
 * Versions only grow, one at a time.
 */
/** `PRAGMA application_id` of a manifiesto database: "MANI" in ASCII. */
export const MANIFIESTO_APPLICATION_ID = 0x4d414e49

export interface Migration {
  version: number
  name: string
  sql: string
  /**
   * What SQL cannot compute (a value only the code knows how to derive), run after `sql` in the
   * same transaction. It reads and writes with its own statements on the schema as of its version.
   */
  step?: (db: Database, derive: DerivedValues) => void
}

/**
 * What a migration's back-fill computes with code of the features above the database (the
 * fingerprint of an invoice, a return's lines as the client's listing writes them): passed in
 * by whoever migrates (src/app/derived-values.ts), so the database never imports a feature.
 */
export interface DerivedValues {
  /** src/invoices/fingerprint.ts `fingerprintOf`. */
  fingerprintOf(source: { clienteId: string; total: number; lines: ReadonlyArray<FingerprintLine> }): string
  /** src/returns/listed-lines.ts `serializeListedLines(lines, 'units')`. */
  listedLinesInUnits(lines: readonly ListedLineRow[]): string
}

/** An invoice line as migration 5 reads it for its fingerprint. */
export interface FingerprintLine {
  producto_id: string
  cantidad_fracciones: number | null
  cantidad_caja: number | null
  factor_conversion: number | null
}

/** A return line as migration 6 reads it for the listing. */
export interface ListedLineRow {
  numero_linea: number
  producto_id: string
  producto_desc: string
  uni_venta: string | null
  factor_conversion: number
  units: number
  amount_cents: number
}
