import { sql } from 'kysely'
import { first, type Database } from '../db/database.ts'
import type { ManifestState } from '../db/tables.ts'

export interface ManifestSummaryRow {
  numero: string
  estado: ManifestState
  created_at: string
  invoice_count: number
  total_micros: number
}

/** The manifest with its invoice count and exact sum of invoice totals, or undefined. */
export function findManifestSummary(db: Database, numero: string): ManifestSummaryRow | undefined {
  return first(
    db,
    db.query
      .selectFrom('manifests as m')
      .leftJoin('invoices as i', 'i.manifest_id', 'm.id')
      .where('m.numero', '=', numero)
      .groupBy('m.id')
      .select([
        'm.numero',
        'm.estado',
        'm.created_at',
        sql<number>`count(i.id)`.as('invoice_count'),
        sql<number>`coalesce(sum(i.total_micros), 0)`.as('total_micros'),
      ]),
  )
}
