import { auditedBy, type Actor } from '../access/actor.ts'
import { insertAuditEntry } from '../audit/audit.store.ts'
import { localDateTime, toStoredInstant } from '../core/clock.ts'
import { transaction } from '../db/database.ts'
import { DomainError, invalidInput } from '../core/errors.ts'
import type { BulkApproval, ReturnState, ReturnView } from './returns.schemas.ts'
import { findReturn, updateReturn } from './returns.store.ts'
import { packageStateOf, requirePackageOpen } from './package.ts'
import { forgetListed, getReturn, timeOf, type ReturnsDeps } from './returns.service.ts'

/**
 * pending → approved; its processing date and time are now, in the zone. Like rejecting and
 * cancelling, refused (422) under contract v2 once the manifest's package is published.
 */
export function approveReturn(deps: ReturnsDeps, actor: Actor, id: string): ReturnView {
  return changeState(deps, actor, id, 'approved', null)
}

/** pending → rejected, with a reason. */
export function rejectReturn(deps: ReturnsDeps, actor: Actor, id: string, motivo: string): ReturnView {
  return changeState(deps, actor, id, 'rejected', motivo)
}

/** approved → cancelled, with a reason: it leaves the client's listing and frees its units. */
export function cancelReturn(deps: ReturnsDeps, actor: Actor, id: string, motivo: string): ReturnView {
  return changeState(deps, actor, id, 'cancelled', motivo)
}

/**
 * Approves a selection of pending returns together, in one transaction: each exactly as a single
 * approval (processing date and time now, audited one by one), or none of them.
 * @throws DomainError INVALID_INPUT (422) naming the first return that cannot be approved (repeated,
 * unknown or outside the actor's warehouses, or not pending), with `devolucion` its id; nothing is written.
 */
export function approveReturns(deps: ReturnsDeps, actor: Actor, ids: readonly string[]): BulkApproval {
  const none = `Ninguna de las ${ids.length} devoluciones se aprobó; quite esa de la selección y vuelva a intentarlo.`
  const repeated = ids.find((id, index) => ids.indexOf(id) !== index)
  if (repeated !== undefined)
    throw invalidInput(`La devolución ${repeated} aparece más de una vez en la selección. ${none}`, {
      devolucion: repeated,
    })
  const aprobadas = transaction(deps.db, () =>
    ids.map((id) => {
      try {
        return changeState(deps, actor, id, 'approved', null)
      } catch (error) {
        // Unknown, not pending, or frozen in a published v2 package: the selection names the culprit.
        if (
          error instanceof DomainError &&
          (error.code === 'NOT_FOUND' || error.code === 'INVALID_TRANSITION' || error.code === 'INVALID_INPUT')
        ) {
          throw invalidInput(`${error.message} ${none}`, { devolucion: id })
        }
        throw error
      }
    }),
  )
  return { aprobadas }
}

const ALLOWED_FROM: Record<'approved' | 'rejected' | 'cancelled', ReturnState> = {
  approved: 'pending',
  rejected: 'pending',
  cancelled: 'approved',
}

const STATE_NAMES: Record<ReturnState, string> = {
  pending: 'pendiente',
  approved: 'aprobada',
  rejected: 'rechazada',
  cancelled: 'anulada',
}

function changeState(
  deps: ReturnsDeps,
  actor: Actor,
  id: string,
  target: 'approved' | 'rejected' | 'cancelled',
  motivo: string | null,
): ReturnView {
  const { db, clock } = deps
  const view = transaction(db, () => {
    const before = getReturn(deps, actor, id)
    const row = findReturn(db, Number(id))!
    requirePackageOpen(
      packageStateOf(deps.contract, row.returns_deadline, clock.now(), clock.zone),
      row.manifiesto,
      `${ACTION_NAMES[target]} la devolución ${id}`,
    )
    if (before.estado !== ALLOWED_FROM[target]) {
      throw new DomainError(
        'INVALID_TRANSITION',
        `La devolución ${id} está ${STATE_NAMES[before.estado]}; solo una devolución ${STATE_NAMES[ALLOWED_FROM[target]]} puede quedar ${STATE_NAMES[target]}.`,
      )
    }
    const at = clock.now()
    const local = localDateTime(clock, at)
    updateReturn(
      db,
      Number(id),
      target === 'approved'
        ? {
            estado: target,
            processed_date: local.toLocalDate().toString(),
            processed_time: timeOf(local),
            approved_by: actor.nombre,
          }
        : { estado: target, closed_at: toStoredInstant(at), closed_by: actor.nombre, closing_note: motivo },
    )
    const after = getReturn(deps, actor, id)
    const action = {
      approved: 'devolucion.aprobada',
      rejected: 'devolucion.rechazada',
      cancelled: 'devolucion.anulada',
    }[target]
    insertAuditEntry(db, {
      at: toStoredInstant(at),
      ...auditedBy(actor),
      action,
      subjectType: 'devolucion',
      subjectId: id,
      before: JSON.stringify(before),
      after: JSON.stringify(after),
    })
    return after
  })
  forgetListed(deps, id)
  return view
}

const ACTION_NAMES: Record<'approved' | 'rejected' | 'cancelled', string> = {
  approved: 'aprobar',
  rejected: 'rechazar',
  cancelled: 'anular',
}
