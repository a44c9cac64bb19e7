import { DayOfWeek, LocalDate } from '@js-joda/core'
import { auditedBy, inScope, scopeOf, type Actor } from '../access/actor.ts'
import { insertAuditEntry } from '../audit/audit.store.ts'
import { today, toStoredInstant } from '../core/clock.ts'
import { transaction, type Database } from '../db/database.ts'
import type { ManifestState } from '../db/tables.ts'
import { DomainError, invalidInput } from '../core/errors.ts'
import { packageStateOf, requirePackageOpen } from '../returns/package.ts'
import { holidaysOf, isBusinessDay } from '../returns/window.ts'
import { requireRightToReopen, requireSettledToClose, settlementOfManifest } from '../settlement/settlement.service.ts'
import type { ManifestView } from './manifests.schemas.ts'
import {
  findManifestSummary,
  findManifestWarehouses,
  updateManifestDeadline,
  updateManifestState,
  type ManifestSummaryRow,
} from './manifests.store.ts'
import { manifestNotFound, toManifestView, type ManifestDeps } from './manifests.service.ts'

/** An extension farther than this from today is taken for a typo (2027 for 2026). */
export const MAX_EXTENSION_DAYS = 90

/**
 * imported → closed: the manifest accepts no more invoices (MANIFIESTO_CERRADO), returns, deposits
 * nor adjustments. With `settlement.closeRequiresSettlement` it must be settled (issue 40).
 * @throws DomainError NOT_FOUND, FORBIDDEN (invoices of warehouses not the actor's),
 * INVALID_TRANSITION when it is already closed, or not settled (the message says what is missing).
 */
export function closeManifest(
  deps: ManifestDeps,
  actor: Actor,
  numero: string,
  motivo: string | undefined,
): ManifestView {
  return changeManifestState(deps, actor, numero, 'closed', motivo)
}

/**
 * closed → imported, with the reason (required); one with active deposits only by the administrator
 * (its deposits and adjustments stay). @throws DomainError like closeManifest, FORBIDDEN
 */
export function reopenManifest(deps: ManifestDeps, actor: Actor, numero: string, motivo: string): ManifestView {
  return changeManifestState(deps, actor, numero, 'imported', motivo)
}

function changeManifestState(
  deps: ManifestDeps,
  actor: Actor,
  numero: string,
  target: ManifestState,
  motivo: string | undefined,
): ManifestView {
  const { db, clock } = deps
  return transaction(db, () => {
    const row = findWholeManifest(db, actor, numero, 'lo cierra o reabre')
    if (row.estado === target) {
      throw new DomainError(
        'INVALID_TRANSITION',
        target === 'closed'
          ? `El manifiesto ${numero} ya está cerrado.`
          : `El manifiesto ${numero} no está cerrado: no hay nada que reabrir.`,
      )
    }
    if (target === 'closed') requireSettledToClose(deps, row)
    else requireRightToReopen(db, actor, row)
    const at = toStoredInstant(clock.now())
    const before = toManifestView(deps, row, settlementOfManifest(deps, row, null))
    updateManifestState(db, row.id, target, target === 'closed' ? at : null)
    const after = wholeView(deps, numero)
    insertAuditEntry(db, {
      at,
      ...auditedBy(actor),
      action: target === 'closed' ? 'manifiesto.cerrado' : 'manifiesto.reabierto',
      subjectType: 'manifiesto',
      subjectId: numero,
      before: JSON.stringify(before),
      after: JSON.stringify(after),
      ...(motivo === undefined ? {} : { detail: { motivo } }),
    })
    return after
  })
}

/**
 * Extends one manifest's returns window to the end (23:59:59) of `hasta`, with the reason; audited.
 * `hasta` must be later than the current last day, today or later, a business day, and at most
 * MAX_EXTENSION_DAYS after today. The manifest's state does not matter (a closed manifest takes
 * no returns until it is reopened, whatever its deadline).
 * @throws DomainError NOT_FOUND; INVALID_TRANSITION when the manifest has no deadline (returns
 * without limit); INVALID_INPUT when `hasta` breaks a rule.
 */
export function extendReturnsDeadline(
  deps: ManifestDeps,
  actor: Actor,
  numero: string,
  hasta: string,
  motivo: string,
): ManifestView {
  const { db, clock } = deps
  return transaction(db, () => {
    const row = findWholeManifest(db, actor, numero, 'amplía su plazo')
    if (row.returns_deadline === null) {
      throw new DomainError(
        'INVALID_TRANSITION',
        `El manifiesto ${numero} no tiene plazo de devoluciones (las admite sin límite de días): no hay plazo que ampliar.`,
      )
    }
    requirePackageOpen(
      packageStateOf(deps.contract, row.returns_deadline, clock.now(), clock.zone),
      numero,
      'ampliar el plazo',
    )
    requireExtension(deps, LocalDate.parse(row.returns_deadline), LocalDate.parse(hasta))
    const before = toManifestView(deps, row, settlementOfManifest(deps, row, null))
    updateManifestDeadline(db, row.id, hasta)
    const after = wholeView(deps, numero)
    insertAuditEntry(db, {
      at: toStoredInstant(clock.now()),
      ...auditedBy(actor),
      action: 'manifiesto.plazo_ampliado',
      subjectType: 'manifiesto',
      subjectId: numero,
      before: JSON.stringify(before),
      after: JSON.stringify(after),
      detail: { motivo, plazo_anterior: row.returns_deadline, plazo_nuevo: hasta },
    })
    return after
  })
}

/**
 * A manifest the actor acts on as a whole (close, reopen, extend): visible to them, and every one
 * of its invoices in their warehouses. @throws DomainError NOT_FOUND, FORBIDDEN
 */
function findWholeManifest(db: Database, actor: Actor, numero: string, whoActs: string): ManifestSummaryRow {
  const row = findManifestSummary(db, numero, scopeOf(actor))
  if (row === undefined) throw manifestNotFound(numero)
  const outside = findManifestWarehouses(db, row.id).filter((almacen) => !inScope(scopeOf(actor), almacen))
  if (outside.length > 0) {
    throw new DomainError(
      'FORBIDDEN',
      `El manifiesto ${numero} también tiene facturas de ${outside.join(', ')}, almacén(es) que usted no tiene: ${whoActs} quien trabaja en todos sus almacenes.`,
    )
  }
  return row
}

function requireExtension(deps: ManifestDeps, current: LocalDate, until: LocalDate): void {
  const todayDate = today(deps.clock)
  if (!until.isAfter(current))
    throw invalidInput(
      `hasta: ${until} no es posterior al plazo actual (${current}); para ampliarlo indique un día después.`,
    )
  if (until.isBefore(todayDate))
    throw invalidInput(`hasta: ${until} ya pasó; el plazo nuevo debe terminar hoy (${todayDate}) o después.`)
  if (!isBusinessDay(until, holidaysOf(deps.config.returns.holidays))) {
    throw invalidInput(
      `hasta: ${until} no es día hábil (${until.dayOfWeek() === DayOfWeek.SUNDAY ? 'es domingo' : 'es feriado'}); el plazo termina en un día hábil, de lunes a sábado.`,
    )
  }
  if (until.isAfter(todayDate.plusDays(MAX_EXTENSION_DAYS))) {
    throw invalidInput(
      `hasta: ${until} está a más de ${MAX_EXTENSION_DAYS} días de hoy (${todayDate}); revise la fecha.`,
    )
  }
}

/** A manifest the actor acts on as a whole, as it is now (inside the change's transaction). */
function wholeView(deps: ManifestDeps, numero: string): ManifestView {
  const row = findManifestSummary(deps.db, numero)!
  return toManifestView(deps, row, settlementOfManifest(deps, row, null))
}
