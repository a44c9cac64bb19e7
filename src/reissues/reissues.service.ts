import {
  auditedBy,
  inScope,
  invoiceNamed,
  OTHER_WAREHOUSE_INVOICE,
  scopeOf,
  type Actor,
  type WarehouseScope,
} from '../access/actor.ts'
import type { AuditConcealer } from '../audit/audit.service.ts'
import { insertAuditEntry } from '../audit/audit.store.ts'
import { formatLocalDateTime, toStoredInstant, type Clock } from '../core/clock.ts'
import { transaction, type Database } from '../db/database.ts'
import type { ReissueState } from '../db/tables.ts'
import { DomainError, notFound } from '../core/errors.ts'
import { markInvoiceAnnulled } from '../invoices/invoices.store.ts'
import { countHoldingReturns } from '../returns/returns.store.ts'
import type { ReissueOriginal, ReissueSummary, ReissueView } from './reissues.schemas.ts'
import { decideReissue, findReissue, findReissues, type ReissueInvoiceRow, type ReissueRow } from './reissues.store.ts'

export interface ReissueDeps {
  db: Database
  clock: Clock
}

/**
 * Possible re-issues whose new invoice is in the actor's warehouses, by id; `estado` filters
 * (pending: the ones waiting for the warehouse). The invoice each repeats is shown only when it is
 * in the actor's warehouses too; otherwise it is "otra factura de otro almacén", nothing more.
 * A re-issue whose new invoice is of another warehouse is not listed at all, even to whoever has
 * the original: the decision is about the new invoice, and only its warehouse takes it.
 */
export function listReissues(deps: ReissueDeps, actor: Actor, estado: ReissueState | undefined): ReissueView[] {
  const scope = scopeOf(actor)
  return findReissues(deps.db, scope, { estado }).map((row) => toView(deps.clock, row, scope))
}

/**
 * The possible re-issue an invoice was flagged as, or null (the caller has checked the invoice is
 * in `scope`); the original is hidden when it is not.
 */
export function getReissueSummary(
  deps: Pick<ReissueDeps, 'db'>,
  scope: WarehouseScope,
  invoiceId: number,
): ReissueSummary | null {
  const row = findReissues(deps.db, null, { invoiceId })[0]
  return row === undefined ? null : summaryOf({ id: row.id, estado: row.estado, original: row.original }, scope)
}

/** How an invoice's view names the possible re-issue it was flagged as: the original only when in `scope`. */
export function summaryOf(
  reissue: { id: number; estado: ReissueState; original: { nfactura: string; manifiesto: string; almacen: string } },
  scope: WarehouseScope,
): ReissueSummary {
  const shown = inScope(scope, reissue.original.almacen)
  return {
    id: String(reissue.id),
    estado: reissue.estado,
    identica_a: shown ? reissue.original.nfactura : null,
    manifiesto_original: shown ? reissue.original.manifiesto : null,
    original_oculta: !shown,
  }
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
        `La factura ${row.copy.nfactura} tiene ${holding} devolución(es) pendientes o aprobadas: recházelas o anúlelas (y regístrelas en ${invoiceNamed(row.original, scopeOf(actor))}) antes de confirmar la re-emisión.`,
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
    if (row.estado !== 'pending')
      throw new DomainError('INVALID_TRANSITION', `La posible re-emisión ${id} ya fue ${DECIDED[row.estado]}.`)
    if (row.copy.manifest_estado === 'closed') {
      throw new DomainError(
        'INVALID_TRANSITION',
        `El manifiesto ${row.copy.manifiesto} está cerrado: reábralo para decidir la posible re-emisión ${id}.`,
      )
    }
    const at = toStoredInstant(clock.now())
    apply(row, at)
    decideReissue(db, row.id, estado, at, actor.nombre, nota ?? null)
    const decided = findReissue(db, null, row.id)!
    // The log keeps both invoices whole; each reader sees of them what their warehouses allow (reissueAuditConcealers).
    insertAuditEntry(db, {
      at,
      ...auditedBy(actor),
      action: estado === 'confirmed' ? 'reemision.confirmada' : 'reemision.descartada',
      subjectType: 'factura',
      subjectId: row.copy.nfactura,
      before: JSON.stringify(toView(clock, row, null)),
      after: JSON.stringify(toView(clock, decided, null)),
      detail: { reemision: String(row.id), identica_a: row.original.nfactura, ...(nota ? { nota } : {}) },
    })
    return toView(clock, decided, scopeOf(actor))
  })
}

/**
 * The audit log's re-issue decisions, for a reader of `scope`: the invoice the copy repeats is
 * named only when it was in their warehouses (its warehouse as the entry recorded it; an entry
 * that does not say is concealed), else it is otra factura de otro almacén — in `detalle` and in
 * both views. The copy is the entry's subject, so the reader has it.
 */
export function reissueAuditConcealers(): ReadonlyMap<string, AuditConcealer> {
  const conceal: AuditConcealer = (entry, scope) => {
    const almacen = originalWarehouseIn(entry.antes)
    if (almacen !== null && inScope(scope, almacen)) return entry
    return {
      ...entry,
      antes: withHiddenOriginal(entry.antes),
      despues: withHiddenOriginal(entry.despues),
      detalle:
        isObject(entry.detalle) && 'identica_a' in entry.detalle
          ? { ...entry.detalle, identica_a: OTHER_WAREHOUSE_INVOICE }
          : entry.detalle,
    }
  }
  return new Map([
    ['reemision.confirmada', conceal],
    ['reemision.descartada', conceal],
  ])
}

function originalWarehouseIn(view: unknown): string | null {
  const original = isObject(view) ? view.identica_a : undefined
  return isObject(original) && typeof original.almacen === 'string' ? original.almacen : null
}

function withHiddenOriginal(view: unknown): unknown {
  return isObject(view) && 'identica_a' in view ? { ...view, identica_a: HIDDEN_ORIGINAL } : view
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function reissueNotFoundMessage(id: string): string {
  return `No existe la posible re-emisión ${id}.`
}

function toView(clock: Clock, row: ReissueRow, scope: WarehouseScope): ReissueView {
  return {
    id: String(row.id),
    estado: row.estado,
    detectada_en: formatLocalDateTime(clock, row.created_at),
    batch_uuid: row.batch_uuid,
    dias_diferencia: row.days_apart,
    factura: invoiceView(row.copy),
    identica_a: inScope(scope, row.original.almacen)
      ? { oculta: false, ...invoiceView(row.original) }
      : HIDDEN_ORIGINAL,
    decidida_por: row.decided_by,
    decidida_en: row.decided_at === null ? null : formatLocalDateTime(clock, row.decided_at),
    nota: row.decision_note,
  }
}

/** Otra factura de otro almacén: that it exists, nothing of it. */
const HIDDEN_ORIGINAL: ReissueOriginal = {
  oculta: true,
  factura: null,
  manifiesto: null,
  fecha_factura: null,
  almacen: null,
  clienteid: null,
  cliente: null,
  total: null,
  anulada: null,
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
