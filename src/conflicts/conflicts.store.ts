import { all, first, run, type Database } from '../db/database.ts'
import { formatLocalDateTime, type Clock } from '../clock.ts'
import type { Selectable } from 'kysely'
import type { ConflictState, InvoiceConflictTable, ManifestState } from '../db/tables.ts'

/** A conflict with its invoice number, its manifest and the batch that brought it. */
export type ConflictRow = Omit<Selectable<InvoiceConflictTable>, 'batch_id'> & {
  nfactura: string
  manifiesto: string
  manifest_estado: ManifestState
  batch_uuid: string
}

export interface ConflictSummary {
  id: string
  campos_con_cambio: string[]
  recibido_en: string
  batch_uuid: string
}

function conflicts(db: Database) {
  return db.query
    .selectFrom('invoice_conflicts as c')
    .innerJoin('invoices as i', 'i.id', 'c.invoice_id')
    .innerJoin('manifests as m', 'm.id', 'i.manifest_id')
    .innerJoin('batches as b', 'b.id', 'c.batch_id')
    .select([
      'c.id', 'c.invoice_id', 'c.estado', 'c.changed_fields', 'c.existing_original', 'c.incoming_original', 'c.incoming_hash',
      'c.created_at', 'c.decided_at', 'c.decided_by', 'c.decision_note',
      'i.nfactura', 'm.numero as manifiesto', 'm.estado as manifest_estado', 'b.uuid as batch_uuid',
    ])
}

export function findConflicts(db: Database, filters: { estado?: ConflictState; invoiceId?: number }): ConflictRow[] {
  let query = conflicts(db)
  if (filters.estado !== undefined) query = query.where('c.estado', '=', filters.estado)
  if (filters.invoiceId !== undefined) query = query.where('c.invoice_id', '=', filters.invoiceId)
  return all(db, query.orderBy('c.id'))
}

export function findConflict(db: Database, id: number): ConflictRow | undefined {
  return first(db, conflicts(db).where('c.id', '=', id))
}

export function decideConflict(db: Database, id: number, estado: ConflictState, decidedAt: string, decidedBy: string, note: string | null): void {
  run(db, db.query.updateTable('invoice_conflicts').set({ estado, decided_at: decidedAt, decided_by: decidedBy, decision_note: note }).where('id', '=', id))
}

export function toConflictSummary(clock: Clock, row: ConflictRow): ConflictSummary {
  return {
    id: String(row.id),
    campos_con_cambio: JSON.parse(row.changed_fields) as string[],
    recibido_en: formatLocalDateTime(clock, row.created_at),
    batch_uuid: row.batch_uuid,
  }
}
