import { run, type Database } from '../db/database.ts'

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
