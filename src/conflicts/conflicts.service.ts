import { auditedBy, scopeOf, type Actor } from '../access/actor.ts'
import { insertAuditEntry } from '../audit/audit.store.ts'
import { formatLocalDateTime, toStoredInstant, type Clock } from '../core/clock.ts'
import { transaction, type Database } from '../db/database.ts'
import type { ConflictState } from '../db/tables.ts'
import { DomainError, notFound } from '../core/errors.ts'
import { invoiceDate } from '../invoices/invoice-date.ts'
import { replaceInvoice } from '../invoices/invoices.store.ts'
import { updateReturnsInvoiceDate } from '../returns/returns.store.ts'
import { fingerprintOfInvoice } from '../invoices/fingerprint.ts'
import type { ConflictDetail, ConflictSummary, ConflictView } from './conflicts.schemas.ts'
import { lineChanges } from './line-changes.ts'
import { decideConflict, findConflict, findConflicts, type ConflictRow } from './conflicts.store.ts'

export interface ConflictDeps {
  db: Database
  clock: Clock
  /** Called after an accepted version replaced a stored invoice (the returns listing shows invoice data). */
  onInvoiceChanged: () => void
}

/** The conflicts of invoices in the actor's warehouses, by id. */
export function listConflicts(deps: ConflictDeps, actor: Actor, estado: ConflictState | undefined): ConflictView[] {
  return findConflicts(deps.db, { estado, scope: scopeOf(actor) }).map((row) => toView(deps.clock, row))
}

/**
 * One conflict of an invoice in the actor's warehouses, with the lines that differ between its
 * two versions. @throws DomainError NOT_FOUND when unknown or outside the actor's warehouses.
 */
export function getConflict(deps: Pick<ConflictDeps, 'db' | 'clock'>, actor: Actor, id: string): ConflictDetail {
  const row = findConflict(deps.db, Number(id), scopeOf(actor))
  if (!row) throw notFound(`No existe el conflicto ${id}.`)
  const view = toView(deps.clock, row)
  return {
    ...view,
    lineas_con_cambio: lineChanges(view.existente as Record<string, unknown>, view.entrante as Record<string, unknown>),
  }
}

/** The newest pending conflict of an invoice, as its view shows it, or null. */
export function getPendingConflictSummary(
  deps: Pick<ConflictDeps, 'db' | 'clock'>,
  invoiceId: number,
): ConflictSummary | null {
  const pending = findConflicts(deps.db, { invoiceId, estado: 'pending' })
  const row = pending[pending.length - 1]
  if (row === undefined) return null
  return {
    id: String(row.id),
    campos_con_cambio: JSON.parse(row.changed_fields) as string[],
    recibido_en: formatLocalDateTime(deps.clock, row.created_at),
    batch_uuid: row.batch_uuid,
  }
}

/**
 * pending → accepted: the held version replaces the stored invoice, lines included; audited.
 * @throws DomainError NOT_FOUND; INVALID_TRANSITION when decided or the manifest is closed.
 */
export function acceptConflict(deps: ConflictDeps, actor: Actor, id: string, nota: string | undefined): ConflictView {
  const accepted = decide(deps, actor, id, 'accepted', nota, (row, at) => {
    const incoming = JSON.parse(row.incoming_original) as Record<string, unknown>
    const fecha = invoiceDate(incoming.FechaFactura as string, deps.clock.zone)
    replaceInvoice(deps.db, row.invoice_id, {
      fecha: String(fecha),
      raw: incoming,
      original: row.incoming_original,
      fingerprint: fingerprintOfInvoice(incoming),
      at,
    })
    updateReturnsInvoiceDate(deps.db, row.invoice_id, String(fecha))
  })
  deps.onInvoiceChanged()
  return accepted
}

/** pending → discarded: the stored version stays; audited. @throws DomainError like acceptConflict */
export function discardConflict(deps: ConflictDeps, actor: Actor, id: string, nota: string | undefined): ConflictView {
  return decide(deps, actor, id, 'discarded', nota, () => {})
}

function decide(
  deps: ConflictDeps,
  actor: Actor,
  id: string,
  estado: 'accepted' | 'discarded',
  nota: string | undefined,
  apply: (row: ConflictRow, at: string) => void,
): ConflictView {
  const { db, clock } = deps
  return transaction(db, () => {
    const row = findConflict(db, Number(id), scopeOf(actor))
    if (!row) throw notFound(`No existe el conflicto ${id}.`)
    if (row.estado !== 'pending') {
      throw new DomainError(
        'INVALID_TRANSITION',
        `El conflicto ${id} ya fue decidido (${row.estado === 'accepted' ? 'aceptado' : 'descartado'}).`,
      )
    }
    if (row.manifest_estado === 'closed') {
      throw new DomainError(
        'INVALID_TRANSITION',
        `El manifiesto ${row.manifiesto} está cerrado: reábralo para decidir el conflicto ${id}.`,
      )
    }
    const at = toStoredInstant(clock.now())
    apply(row, at)
    decideConflict(db, row.id, estado, at, actor.nombre, nota ?? null)
    insertAuditEntry(db, {
      at,
      ...auditedBy(actor),
      action: estado === 'accepted' ? 'conflicto.aceptado' : 'conflicto.descartado',
      subjectType: 'factura',
      subjectId: row.nfactura,
      before: row.existing_original,
      after: estado === 'accepted' ? row.incoming_original : row.existing_original,
      detail: {
        conflicto: String(row.id),
        campos_con_cambio: JSON.parse(row.changed_fields) as unknown,
        ...(nota ? { nota } : {}),
      },
    })
    return toView(clock, findConflict(db, row.id)!)
  })
}

function toView(clock: Clock, row: ConflictRow): ConflictView {
  return {
    id: String(row.id),
    factura: row.nfactura,
    cliente: row.cliente,
    clienteid: row.cliente_id,
    almacen: row.almacen,
    manifiesto: row.manifiesto,
    estado: row.estado,
    campos_con_cambio: JSON.parse(row.changed_fields) as string[],
    recibido_en: formatLocalDateTime(clock, row.created_at),
    batch_uuid: row.batch_uuid,
    decidido_por: row.decided_by,
    decidido_en: row.decided_at === null ? null : formatLocalDateTime(clock, row.decided_at),
    nota: row.decision_note,
    existente: JSON.parse(row.existing_original) as unknown,
    entrante: JSON.parse(row.incoming_original) as unknown,
  }
}
