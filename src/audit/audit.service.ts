import { scopeOf, type Actor } from '../actor.ts'
import { formatLocalDateTime, localDaysRange, type Clock } from '../clock.ts'
import type { Database } from '../db/database.ts'
import { AUDIT_PAGE_SIZE, type AuditEntryView } from './audit.schemas.ts'
import { findAuditEntries } from './audit.store.ts'

export interface AuditDeps {
  db: Database
  clock: Clock
}

export interface AuditListFilters {
  desde?: string
  hasta?: string
  tipo?: string
  sujeto?: string
  usuario?: string
  pagina?: number
}

/**
 * Who changed what and when: a page of the audit log, oldest first, by local date range, type,
 * subject and user — what the actor's warehouses let them see — and whether a next page exists
 * (one entry more is read to know it, rather than counting the whole log).
 */
export function listAuditEntries(deps: AuditDeps, actor: Actor, filters: AuditListFilters): { entries: AuditEntryView[]; page: number; hasMore: boolean } {
  const page = filters.pagina ?? 1
  const rows = findAuditEntries(
    deps.db,
    { ...localDaysRange(deps.clock, filters.desde, filters.hasta), subjectType: filters.tipo, subjectId: filters.sujeto, actorUsuario: filters.usuario, scope: scopeOf(actor) },
    (page - 1) * AUDIT_PAGE_SIZE,
    AUDIT_PAGE_SIZE + 1,
  )
  const hasMore = rows.length > AUDIT_PAGE_SIZE
  const parse = (text: string | null) => (text === null ? null : (JSON.parse(text) as unknown))
  const entries = rows.slice(0, AUDIT_PAGE_SIZE).map((row) => ({
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
  return { entries, page, hasMore }
}
