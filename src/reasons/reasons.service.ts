import type { StaticDecode } from 'typebox'
import { auditedBy, type Actor } from '../access/actor.ts'
import { insertAuditEntry } from '../audit/audit.store.ts'
import { toStoredInstant, type Clock } from '../core/clock.ts'
import { transaction, type Database } from '../db/database.ts'
import { DomainError, invalidInput, notFound } from '../core/errors.ts'
import type { CreateReasonBody, Reason, UpdateReasonBody } from './reasons.schemas.ts'
import { findReason, findReasons, insertReason, updateReason, type ReasonRow } from './reasons.store.ts'

export interface ReasonDeps {
  db: Database
  clock: Clock
  /** Called after a change that the returns listing shows (its cache must forget). */
  onChange: () => void
}

export function listReasons(deps: Pick<ReasonDeps, 'db'>): Reason[] {
  return findReasons(deps.db).map(toReason)
}

/**
 * Registers a return reason, audited. @throws DomainError INVALID_INPUT when the code exists.
 */
export function createReason(deps: ReasonDeps, actor: Actor, input: StaticDecode<typeof CreateReasonBody>): Reason {
  const { db, clock } = deps
  return transaction(db, () => {
    if (findReason(db, input.codigo)) {
      throw new DomainError(
        'INVALID_INPUT',
        `Ya existe el concepto ${input.codigo}; use PUT /api/v1/operador/conceptos/${input.codigo} para cambiarlo.`,
      )
    }
    const at = toStoredInstant(clock.now())
    const row: ReasonRow = {
      codigo: input.codigo,
      id_proveedor: input.idProveedor ?? null,
      descripcion: input.descripcion,
      activo: input.activo === false ? 0 : 1,
      created_at: at,
      updated_at: null,
    }
    insertReason(db, row)
    const reason = toReason(row)
    insertAuditEntry(db, {
      at,
      ...auditedBy(actor),
      action: 'concepto.creado',
      subjectType: 'concepto',
      subjectId: reason.codigo,
      after: JSON.stringify(reason),
    })
    return reason
  })
}

/**
 * Changes a reason's supplier id, description or active flag, audited; the returns listing
 * shows reasons as they are now, so its cache is cleared.
 * @throws DomainError NOT_FOUND; INVALID_INPUT when the body names another code.
 */
export function changeReason(
  deps: ReasonDeps,
  actor: Actor,
  codigo: string,
  input: StaticDecode<typeof UpdateReasonBody>,
): Reason {
  const { db, clock } = deps
  if (input.codigo !== undefined && input.codigo !== codigo) {
    throw invalidInput(
      `Los códigos de concepto no se pueden cambiar: la ruta es de ${codigo} y el cuerpo dice ${input.codigo}. Cree un concepto nuevo y desactive este.`,
    )
  }
  const changed = transaction(db, () => {
    const existing = findReason(db, codigo)
    if (!existing) throw notFound(`No existe el concepto ${codigo}.`)
    const at = toStoredInstant(clock.now())
    updateReason(db, codigo, {
      ...(input.idProveedor !== undefined ? { id_proveedor: input.idProveedor } : {}),
      ...(input.descripcion !== undefined ? { descripcion: input.descripcion } : {}),
      ...(input.activo !== undefined ? { activo: input.activo ? 1 : 0 } : {}),
      updated_at: at,
    })
    const before = toReason(existing)
    const after = toReason(findReason(db, codigo)!)
    insertAuditEntry(db, {
      at,
      ...auditedBy(actor),
      action: 'concepto.modificado',
      subjectType: 'concepto',
      subjectId: codigo,
      before: JSON.stringify(before),
      after: JSON.stringify(after),
    })
    return after
  })
  deps.onChange()
  return changed
}

export function toReason(row: ReasonRow): Reason {
  return { codigo: row.codigo, idProveedor: row.id_proveedor, descripcion: row.descripcion, activo: row.activo === 1 }
}
