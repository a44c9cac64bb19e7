import { all, run, type Database } from '../db/database.ts'

export interface AuditEntry {
  at: string
  /** The operator's name, or `sistema` for changes the service makes itself. */
  actor: string
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
}

/** One page of the audit log in order of writing. */
export function findAuditEntries(db: Database, filters: AuditFilters, offset: number, limit: number) {
  let select = db.query.selectFrom('audit_log').selectAll()
  if (filters.from !== undefined) select = select.where('at', '>=', filters.from)
  if (filters.to !== undefined) select = select.where('at', '<', filters.to)
  if (filters.subjectType !== undefined) select = select.where('subject_type', '=', filters.subjectType)
  if (filters.subjectId !== undefined) select = select.where('subject_id', '=', filters.subjectId)
  return all(db, select.orderBy('id').limit(limit).offset(offset))
}
