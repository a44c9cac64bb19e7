import { sql } from 'kysely'
import type { WarehouseScope } from '../access/actor.ts'
import { all, run, type Database } from '../db/database.ts'
import { inWarehouses } from '../access/warehouse-scope.ts'

export interface AuditEntry {
  at: string
  /** The name shown for who acted, or `sistema` for changes the service makes itself. */
  actor: string
  /** The login name of the person who acted (null for `sistema` and integrations). */
  actorUsuario?: string | null
  action: string
  subjectType: string
  subjectId: string
  before?: string | null
  after?: string | null
  detail?: Record<string, unknown>
}

/** Appends one row to the audit log (inside the caller's transaction). */
export function insertAuditEntry(db: Database, entry: AuditEntry): void {
  run(
    db,
    db.query.insertInto('audit_log').values({
      at: entry.at,
      actor: entry.actor,
      actor_usuario: entry.actorUsuario ?? null,
      action: entry.action,
      subject_type: entry.subjectType,
      subject_id: entry.subjectId,
      before: entry.before ?? null,
      after: entry.after ?? null,
      detail: entry.detail ? JSON.stringify(entry.detail) : null,
    }),
  )
}

export interface AuditFilters {
  /** Stored instants: `from` inclusive, `to` exclusive. */
  from?: string
  to?: string
  subjectType?: string
  subjectId?: string
  /** The words of a search of who acted, by login or name (src/shared/search-terms.ts). */
  actorTerms?: string[]
  /** The first part of the action's code (`conflicto`: conflicto.aceptado, conflicto.descartado). */
  actionKind?: string
  /** Entries about invoices, returns and manifests only of these warehouses (null: all entries). */
  scope: WarehouseScope
}

/** One page of the audit log in order of writing. */
export function findAuditEntries(db: Database, filters: AuditFilters, offset: number, limit: number) {
  let select = db.query.selectFrom('audit_log').selectAll()
  if (filters.scope !== null) select = select.where(visibleTo(filters.scope))
  if (filters.actorTerms !== undefined)
    select = select.where(
      sql<boolean>`matches_search(actor || ' ' || coalesce(actor_usuario, ''), ${JSON.stringify(filters.actorTerms)})`,
    )
  if (filters.actionKind !== undefined)
    select = select.where('action', '>=', `${filters.actionKind}.`).where('action', '<', `${filters.actionKind}/`)
  if (filters.from !== undefined) select = select.where('at', '>=', filters.from)
  if (filters.to !== undefined) select = select.where('at', '<', filters.to)
  if (filters.subjectType !== undefined) select = select.where('subject_type', '=', filters.subjectType)
  if (filters.subjectId !== undefined) select = select.where('subject_id', '=', filters.subjectId)
  return all(db, select.orderBy('id').limit(limit).offset(offset))
}

/**
 * For a supervisor of some warehouses: entries about reasons (shared by all), and about invoices,
 * returns, manifests, deposits and adjustments of their warehouses. Entries about users and the rest stay with admins.
 * A CASE rather than ORs of `subject_type = …`: with ORs SQLite gathers every entry of those
 * types through the subject index and sorts them all before taking a page (seconds with a
 * million entries); a CASE it cannot index, so it walks the log in order and stops at the page.
 */
function visibleTo(scope: WarehouseScope) {
  return sql<boolean>`(CASE subject_type
    WHEN 'concepto' THEN 1
    WHEN 'factura' THEN EXISTS (SELECT 1 FROM invoices i WHERE i.nfactura = audit_log.subject_id AND ${inWarehouses('i.almacen', scope)})
    WHEN 'devolucion' THEN EXISTS (SELECT 1 FROM returns r WHERE r.id = CAST(audit_log.subject_id AS INTEGER) AND ${inWarehouses('r.almacen', scope)})
    WHEN 'manifiesto' THEN EXISTS (SELECT 1 FROM manifests m JOIN manifest_totals t ON t.manifest_id = m.id WHERE m.numero = audit_log.subject_id AND ${inWarehouses('t.almacen', scope)} AND t.invoices > 0)
    WHEN 'deposito' THEN EXISTS (SELECT 1 FROM deposits d WHERE d.id = CAST(audit_log.subject_id AS INTEGER) AND ${inWarehouses('d.almacen', scope)})
    WHEN 'ajuste' THEN EXISTS (SELECT 1 FROM settlement_adjustments a WHERE a.id = CAST(audit_log.subject_id AS INTEGER) AND ${inWarehouses('a.almacen', scope)})
    ELSE 0 END)`
}
