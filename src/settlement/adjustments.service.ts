import type { StaticDecode } from 'typebox'
import { auditedBy, scopeOf, type Actor } from '../access/actor.ts'
import { insertAuditEntry } from '../audit/audit.store.ts'
import { formatLocalDateTime, toStoredInstant } from '../core/clock.ts'
import { transaction } from '../db/database.ts'
import { invalidInput, notFound } from '../core/errors.ts'
import { findAdjustment, findAdjustmentsOfManifest, insertAdjustment, type AdjustmentRow } from './adjustments.store.ts'
import { centsToLempiras, exactCents, lempirasText } from './cents.ts'
import { figuresOf } from './figures.ts'
import type { AdjustmentView, NewAdjustmentBody } from './settlement.schemas.ts'
import { requireOpenPart, type SettlementDeps } from './settlement.service.ts'
import { findSettlementManifest } from './settlement.store.ts'

/**
 * A cent adjustment of one part of an open manifest: signed (positive takes what is missing as
 * received, negative takes what is over as good), not zero, at most settlement.maxAdjustment in
 * absolute value, with its motivo. Never edited or deleted: a mistake is corrected with the
 * opposite adjustment. Audited with the diferencia before and after.
 * @throws DomainError NOT_FOUND, INVALID_TRANSITION (closed), INVALID_INPUT (over the limit, no part)
 */
export function registerAdjustment(
  deps: SettlementDeps,
  actor: Actor,
  numero: string,
  body: StaticDecode<typeof NewAdjustmentBody>,
): AdjustmentView {
  const { db, clock } = deps
  const cents = exactCents(body.monto)!
  const limit = exactCents(deps.config.settlement.maxAdjustment)!
  return transaction(db, () => {
    const { manifest, part } = requireOpenPart(db, actor, numero, body.almacen, 'ajustes')
    if (Math.abs(cents) > limit) {
      throw invalidInput(
        `monto: el ajuste de ${cents < 0 ? '-' : ''}${lempirasText(cents)} pasa el máximo de ${lempirasText(limit)} por ajuste (settlement.maxAdjustment). ` +
          'Una diferencia así no es de centavos: revise los depósitos y las devoluciones del manifiesto.',
      )
    }
    const before = figuresOf(part).diferencia
    const at = toStoredInstant(clock.now())
    const id = insertAdjustment(db, {
      manifest_id: manifest.id,
      almacen: part.almacen,
      amount_cents: cents,
      motivo: body.motivo.trim(),
      created_at: at,
      created_by: actor.nombre,
    })
    const view = adjustmentView(deps, findAdjustment(db, id)!)
    insertAuditEntry(db, {
      at,
      ...auditedBy(actor),
      action: 'ajuste.registrado',
      subjectType: 'ajuste',
      subjectId: view.id,
      after: JSON.stringify(view),
      detail: {
        manifiesto: manifest.numero,
        almacen: part.almacen,
        diferencia_antes: centsToLempiras(before),
        diferencia_despues: centsToLempiras(before - cents),
      },
    })
    return view
  })
}

/** A manifest's adjustments in the actor's warehouses, in the order made. @throws DomainError NOT_FOUND */
export function listAdjustments(deps: SettlementDeps, actor: Actor, numero: string): AdjustmentView[] {
  const scope = scopeOf(actor)
  const manifest = findSettlementManifest(deps.db, numero, scope)
  if (manifest === undefined) throw notFound(`El manifiesto ${numero} no existe.`)
  return findAdjustmentsOfManifest(deps.db, manifest.id, scope).map((row) => adjustmentView(deps, row))
}

function adjustmentView(deps: Pick<SettlementDeps, 'clock'>, row: AdjustmentRow): AdjustmentView {
  return {
    id: String(row.id),
    manifiesto: row.manifiesto,
    almacen: row.almacen,
    monto: centsToLempiras(row.amount_cents),
    motivo: row.motivo,
    registrado_por: row.created_by,
    registrado_en: formatLocalDateTime(deps.clock, row.created_at),
  }
}
