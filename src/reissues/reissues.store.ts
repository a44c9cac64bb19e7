import { sql } from 'kysely'
import type { WarehouseScope } from '../access/actor.ts'
import { all, first, preparedStatement, run, type Database } from '../db/database.ts'
import { inWarehouses } from '../access/warehouse-scope.ts'
import type { ManifestState, ReissueState } from '../db/tables.ts'

/**
 * The one store that writes invoice_reissues: step 8 records possible re-issues, the warehouse
 * confirms or discards them.
 */

/** One invoice of a re-issue pair, as the views show it. */
export interface ReissueInvoiceRow {
  id: number
  nfactura: string
  manifiesto: string
  manifest_estado: ManifestState
  fecha_factura: string
  almacen: string
  cliente_id: string
  cliente: string
  total: number
  annulled_at: string | null
}

export interface ReissueRow {
  id: number
  estado: ReissueState
  days_apart: number
  created_at: string
  decided_at: string | null
  decided_by: string | null
  decision_note: string | null
  batch_uuid: string
  copy: ReissueInvoiceRow
  original: ReissueInvoiceRow
}

export function insertReissue(
  db: Database,
  reissue: { invoiceId: number; originalInvoiceId: number; batchId: number; daysApart: number; at: string },
): number {
  // Prepared once: a batch of 10,000 look-alikes inserts 10,000 of them.
  const statement = preparedStatement(db, 'insert-reissue', (query) =>
    query
      .insertInto('invoice_reissues')
      .values({ invoice_id: 0, original_invoice_id: 0, batch_id: 0, days_apart: 0, estado: 'pending', created_at: '' }),
  )
  const result = statement.run(
    reissue.invoiceId,
    reissue.originalInvoiceId,
    reissue.batchId,
    reissue.daysApart,
    'pending',
    reissue.at,
  )
  return Number(result.lastInsertRowid)
}

/** Possible re-issues whose new invoice is in the warehouses of `scope`. */
export function findReissues(
  db: Database,
  scope: WarehouseScope,
  filters: { estado?: ReissueState; invoiceId?: number },
): ReissueRow[] {
  let query = reissues(db).where(inWarehouses('c.almacen', scope))
  if (filters.estado !== undefined) query = query.where('x.estado', '=', filters.estado)
  if (filters.invoiceId !== undefined) query = query.where('x.invoice_id', '=', filters.invoiceId)
  return all(db, query.orderBy('x.id')).map(toRow)
}

export function findReissue(db: Database, scope: WarehouseScope, id: number): ReissueRow | undefined {
  const row = first(db, reissues(db).where('x.id', '=', id).where(inWarehouses('c.almacen', scope)))
  return row === undefined ? undefined : toRow(row)
}

export function decideReissue(
  db: Database,
  id: number,
  estado: ReissueState,
  decidedAt: string,
  decidedBy: string,
  note: string | null,
): void {
  run(
    db,
    db.query
      .updateTable('invoice_reissues')
      .set({ estado, decided_at: decidedAt, decided_by: decidedBy, decision_note: note })
      .where('id', '=', id),
  )
}

function reissues(db: Database) {
  return db.query
    .selectFrom('invoice_reissues as x')
    .innerJoin('batches as b', 'b.id', 'x.batch_id')
    .innerJoin('invoices as c', 'c.id', 'x.invoice_id')
    .innerJoin('manifests as cm', 'cm.id', 'c.manifest_id')
    .innerJoin('invoices as o', 'o.id', 'x.original_invoice_id')
    .innerJoin('manifests as om', 'om.id', 'o.manifest_id')
    .select([
      'x.id',
      'x.estado',
      'x.days_apart',
      'x.created_at',
      'x.decided_at',
      'x.decided_by',
      'x.decision_note',
      'b.uuid as batch_uuid',
      'c.id as c_id',
      'c.nfactura as c_nfactura',
      'cm.numero as c_manifiesto',
      'cm.estado as c_manifest_estado',
      'c.fecha_factura as c_fecha_factura',
      'c.almacen as c_almacen',
      'c.cliente_id as c_cliente_id',
      'c.cliente as c_cliente',
      'c.total as c_total',
      'c.annulled_at as c_annulled_at',
      'o.id as o_id',
      'o.nfactura as o_nfactura',
      'om.numero as o_manifiesto',
      'om.estado as o_manifest_estado',
      'o.fecha_factura as o_fecha_factura',
      'o.almacen as o_almacen',
      'o.cliente_id as o_cliente_id',
      'o.cliente as o_cliente',
      'o.total as o_total',
      'o.annulled_at as o_annulled_at',
    ])
}

type FlatRow = NonNullable<Awaited<ReturnType<ReturnType<typeof reissues>['executeTakeFirst']>>>

function toRow(row: FlatRow): ReissueRow {
  const invoice = (side: 'c' | 'o'): ReissueInvoiceRow => ({
    id: row[`${side}_id`],
    nfactura: row[`${side}_nfactura`],
    manifiesto: row[`${side}_manifiesto`],
    manifest_estado: row[`${side}_manifest_estado`],
    fecha_factura: row[`${side}_fecha_factura`],
    almacen: row[`${side}_almacen`],
    cliente_id: row[`${side}_cliente_id`],
    cliente: row[`${side}_cliente`],
    total: row[`${side}_total`],
    annulled_at: row[`${side}_annulled_at`],
  })
  return {
    id: row.id,
    estado: row.estado,
    days_apart: row.days_apart,
    created_at: row.created_at,
    decided_at: row.decided_at,
    decided_by: row.decided_by,
    decision_note: row.decision_note,
    batch_uuid: row.batch_uuid,
    copy: invoice('c'),
    original: invoice('o'),
  }
}

/** How many possible re-issues whose new invoice is in the warehouses of `scope` await a decision. */
export function countPendingReissues(db: Database, scope: WarehouseScope): number {
  const query = db.query
    .selectFrom('invoice_reissues as x')
    .innerJoin('invoices as i', 'i.id', 'x.invoice_id')
    .select(sql<number>`count(*)`.as('count'))
    .where('x.estado', '=', 'pending')
    .where(inWarehouses('i.almacen', scope))
  return first(db, query)?.count ?? 0
}
