import { scopeOf, type Actor } from '../access/actor.ts'
import { formatLocalDateTime, localDaysRange, type Clock } from '../core/clock.ts'
import type { Database } from '../db/database.ts'
import { AUDIT_PAGE_SIZE, type AuditEntryView } from './audit.schemas.ts'
import { findAuditEntries } from './audit.store.ts'
import { searchTerms } from '../shared/search-terms.ts'

export interface AuditDeps {
  db: Database
  clock: Clock
  /** How an entry that names something of another warehouse besides its subject is shown, by action. */
  concealers: ReadonlyMap<string, AuditConcealer>
}

/**
 * An entry of the log is listed to whoever may see its subject, but it may also name something of
 * a warehouse that reader does not have (a re-issue decision names the invoice the copy repeats).
 * The feature that wrote the entry knows its shape and hides that part for a reader of `scope`;
 * the log itself keeps everything.
 */
export type AuditConcealer = (entry: AuditEntryView, scope: readonly string[]) => AuditEntryView

export interface AuditListFilters {
  desde?: string
  hasta?: string
  tipo?: string
  sujeto?: string
  usuario?: string
  accion?: string
  pagina?: number
}

/**
 * Who changed what and when: a page of the audit log, oldest first, by local date range, type,
 * subject and user — what the actor's warehouses let them see: entries whose subject is in them,
 * with what else they name of other warehouses concealed — and whether a next page exists
 * (one entry more is read to know it, rather than counting the whole log).
 */
export function listAuditEntries(
  deps: AuditDeps,
  actor: Actor,
  filters: AuditListFilters,
): { entries: AuditEntryView[]; page: number; hasMore: boolean } {
  const page = filters.pagina ?? 1
  const scope = scopeOf(actor)
  const rows = findAuditEntries(
    deps.db,
    {
      ...localDaysRange(deps.clock, filters.desde, filters.hasta),
      subjectType: filters.tipo,
      subjectId: filters.sujeto,
      actorTerms: filters.usuario === undefined ? undefined : searchTerms(filters.usuario),
      actionKind: filters.accion,
      scope,
    },
    (page - 1) * AUDIT_PAGE_SIZE,
    AUDIT_PAGE_SIZE + 1,
  )
  const hasMore = rows.length > AUDIT_PAGE_SIZE
  const parse = (text: string | null) => (text === null ? null : (JSON.parse(text) as unknown))
  const entries = rows.slice(0, AUDIT_PAGE_SIZE).map((row): AuditEntryView => ({
    id: String(row.id),
    en: formatLocalDateTime(deps.clock, row.at),
    quien: row.actor,
    ...(row.actor_usuario === null ? {} : { usuario: row.actor_usuario }),
    accion: row.action,
    tipo: row.subject_type,
    sujeto: row.subject_id,
    antes: parse(row.before),
    despues: parse(row.after),
    detalle: parse(row.detail),
  }))
  if (scope === null) return { entries, page, hasMore }
  return { entries: entries.map((entry) => deps.concealers.get(entry.accion)?.(entry, scope) ?? entry), page, hasMore }
}
