import { auditedBy, scopeOf, type Actor } from '../actor.ts'
import { insertAuditEntry } from '../audit/audit.store.ts'
import { formatLocalDateTime, toStoredInstant, type Clock } from '../clock.ts'
import { transaction, type Database } from '../db/database.ts'
import type { ReissueState } from '../db/tables.ts'
import { DomainError, notFound } from '../errors.ts'
import { markInvoiceAnnulled } from '../invoices/invoices.store.ts'
import { countHoldingReturns } from '../returns/returns.store.ts'
import type { ReissueSummary, ReissueView } from './reissues.schemas.ts'
import { decideReissue, findReissue, findReissues, type ReissueInvoiceRow, type ReissueRow } from './reissues.store.ts'

export interface ReissueDeps {
  db: Database
  clock: Clock
}

/**
 * Possible re-issues whose new invoice is in the actor's warehouses, by id; `estado` filters
 * (pending: the ones waiting for the warehouse).
 */
export function listReissues(deps: ReissueDeps, actor: Actor, estado: ReissueState | undefined): ReissueView[] {
  return findReissues(deps.db, scopeOf(actor), { estado }).map((row) => toView(deps.clock, row))
}

/** The possible re-issue an invoice was flagged as, or null (the caller has checked the invoice is visible). */
export function getReissueSummary(deps: Pick<ReissueDeps, 'db'>, invoiceId: number): ReissueSummary | null {
  const row = findReissues(deps.db, null, { invoiceId })[0]
  return row === undefined ? null : { id: String(row.id), estado: row.estado, identica_a: row.original.nfactura, manifiesto_original: row.original.manifiesto }
}

/**
 * pending → confirmed: the invoice is a re-issue, paper for goods delivered once. It is annulled —
 * it leaves its manifest's totals (operator views and the client's status) and takes no returns;
 * audited. Refused while the copy holds pending or approved returns (they belong on the original).
 * @throws DomainError NOT_FOUND (also outside the actor's warehouses); INVALID_TRANSITION when decided, its manifest is closed, or it holds returns.
 */
export function confirmReissue(deps: ReissueDeps, actor: Actor, id: string, nota: string | undefined): ReissueView {
  return decide(deps, actor, id, 'confirmed', nota, (row, at) => {
    const holding = countHoldingReturns(deps.db, row.copy.id)
    if (holding > 0) {
      throw new DomainError(
        'INVALID_TRANSITION',
        `La factura ${row.copy.nfactura} tiene ${holding} devolución(es) pendientes o aprobadas: recházelas o anúlelas (y regístrelas en la factura ${row.original.nfactura}) antes de confirmar la re-emisión.`,
      )
    }
    markInvoiceAnnulled(deps.db, row.copy.id, at)
  })
}

/** pending → discarded: a legitimate repeat order; the invoice stays as it is. Audited. @throws like confirmReissue */
export function discardReissue(deps: ReissueDeps, actor: Actor, id: string, nota: string | undefined): ReissueView {
  return decide(deps, actor, id, 'discarded', nota, () => {})
}

const DECIDED: Record<Exclude<ReissueState, 'pending'>, string> = { confirmed: 'confirmada', discarded: 'descartada' }

function decide(
  deps: ReissueDeps,
  actor: Actor,
  id: string,
  estado: Exclude<ReissueState, 'pending'>,
  nota: string | undefined,
  apply: (row: ReissueRow, at: string) => void,
): ReissueView {
  const { db, clock } = deps
  return transaction(db, () => {
    const row = findReissue(db, scopeOf(actor), Number(id))
    if (!row) throw notFound(reissueNotFoundMessage(id))
    if (row.estado !== 'pending') throw new DomainError('INVALID_TRANSITION', `La posible re-emisión ${id} ya fue ${DECIDED[row.estado]}.`)
    if (row.copy.manifest_estado === 'closed') {
      throw new DomainError('INVALID_TRANSITION', `El manifiesto ${row.copy.manifiesto} está cerrado: reábralo para decidir la posible re-emisión ${id}.`)
    }
    const at = toStoredInstant(clock.now())
    apply(row, at)
    decideReissue(db, row.id, estado, at, actor.nombre, nota ?? null)
    const after = toView(clock, findReissue(db, null, row.id)!)
    insertAuditEntry(db, {
      at,
      ...auditedBy(actor),
      action: estado === 'confirmed' ? 'reemision.confirmada' : 'reemision.descartada',
      subjectType: 'factura',
      subjectId: row.copy.nfactura,
      before: JSON.stringify(toView(clock, row)),
      after: JSON.stringify(after),
      detail: { reemision: String(row.id), identica_a: row.original.nfactura, ...(nota ? { nota } : {}) },
    })
    return after
  })
}

export function reissueNotFoundMessage(id: string): string {
  return `No existe la posible re-emisión ${id}.`
}

function toView(clock: Clock, row: ReissueRow): ReissueView {
  return {
    id: String(row.id),
    estado: row.estado,
    detectada_en: formatLocalDateTime(clock, row.created_at),
    batch_uuid: row.batch_uuid,
    dias_diferencia: row.days_apart,
    factura: invoiceView(row.copy),
    identica_a: invoiceView(row.original),
    decidida_por: row.decided_by,
    decidida_en: row.decided_at === null ? null : formatLocalDateTime(clock, row.decided_at),
    nota: row.decision_note,
  }
}

function invoiceView(row: ReissueInvoiceRow): ReissueView['factura'] {
  return {
    factura: row.nfactura,
    manifiesto: row.manifiesto,
    fecha_factura: row.fecha_factura,
    almacen: row.almacen,
    clienteid: row.cliente_id,
    cliente: row.cliente,
    total: row.total,
    anulada: row.annulled_at !== null,
  }
}
