import type { WarehouseScope } from '../access/actor.ts'
import { all, first, run, type Database } from '../db/database.ts'
import { inWarehouses } from '../access/warehouse-scope.ts'
import { sql, type Selectable } from 'kysely'
import type { ConflictState, InvoiceConflictTable, ManifestState } from '../db/tables.ts'

/** A conflict with its invoice number, its manifest and the batch that brought it. */
export type ConflictRow = Omit<Selectable<InvoiceConflictTable>, 'batch_id'> & {
  nfactura: string
  cliente: string
  cliente_id: string
  almacen: string
  manifiesto: string
  manifest_estado: ManifestState
  batch_uuid: string
}

function conflicts(db: Database) {
  return db.query
    .selectFrom('invoice_conflicts as c')
    .innerJoin('invoices as i', 'i.id', 'c.invoice_id')
    .innerJoin('manifests as m', 'm.id', 'i.manifest_id')
    .innerJoin('batches as b', 'b.id', 'c.batch_id')
    .select([
      'c.id',
      'c.invoice_id',
      'c.estado',
      'c.changed_fields',
      'c.existing_original',
      'c.incoming_original',
      'c.incoming_hash',
      'c.created_at',
      'c.decided_at',
      'c.decided_by',
      'c.decision_note',
      'i.nfactura',
      'i.cliente',
      'i.cliente_id',
      'i.almacen',
      'm.numero as manifiesto',
      'm.estado as manifest_estado',
      'b.uuid as batch_uuid',
    ])
}

export function findConflicts(
  db: Database,
  filters: { estado?: ConflictState; invoiceId?: number; scope?: WarehouseScope },
): ConflictRow[] {
  let query = conflicts(db).where(inWarehouses('i.almacen', filters.scope ?? null))
  if (filters.estado !== undefined) query = query.where('c.estado', '=', filters.estado)
  if (filters.invoiceId !== undefined) query = query.where('c.invoice_id', '=', filters.invoiceId)
  return all(db, query.orderBy('c.id'))
}

export function findConflict(db: Database, id: number, scope: WarehouseScope = null): ConflictRow | undefined {
  return first(db, conflicts(db).where('c.id', '=', id).where(inWarehouses('i.almacen', scope)))
}

export function decideConflict(
  db: Database,
  id: number,
  estado: ConflictState,
  decidedAt: string,
  decidedBy: string,
  note: string | null,
): void {
  run(
    db,
    db.query
      .updateTable('invoice_conflicts')
      .set({ estado, decided_at: decidedAt, decided_by: decidedBy, decision_note: note })
      .where('id', '=', id),
  )
}

export function findPendingConflictId(db: Database, invoiceId: number, incomingHash: string): number | undefined {
  return first(
    db,
    db.query
      .selectFrom('invoice_conflicts')
      .select('id')
      .where('invoice_id', '=', invoiceId)
      .where('incoming_hash', '=', incomingHash)
      .where('estado', '=', 'pending'),
  )?.id
}

export function insertConflict(
  db: Database,
  conflict: {
    invoiceId: number
    batchId: number
    changedFields: string[]
    existingOriginal: string
    incomingOriginal: string
    incomingHash: string
    at: string
  },
): number {
  const result = run(
    db,
    db.query.insertInto('invoice_conflicts').values({
      invoice_id: conflict.invoiceId,
      batch_id: conflict.batchId,
      estado: 'pending',
      changed_fields: JSON.stringify(conflict.changedFields),
      existing_original: conflict.existingOriginal,
      incoming_original: conflict.incomingOriginal,
      incoming_hash: conflict.incomingHash,
      created_at: conflict.at,
      decided_at: null,
      decided_by: null,
      decision_note: null,
    }),
  )
  return Number(result.lastInsertRowid)
}

/** How many conflicts are pending on invoices in the warehouses of `scope` (index on estado). */
export function countPendingConflicts(db: Database, scope: WarehouseScope): number {
  const query = db.query
    .selectFrom('invoice_conflicts as c')
    .innerJoin('invoices as i', 'i.id', 'c.invoice_id')
    .select(sql<number>`count(*)`.as('count'))
    .where('c.estado', '=', 'pending')
    .where(inWarehouses('i.almacen', scope))
  return first(db, query)?.count ?? 0
}
