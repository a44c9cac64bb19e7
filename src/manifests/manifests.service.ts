import { auditedBy, inScope, scopeOf, type Actor } from '../actor.ts'
import { insertAuditEntry } from '../audit/audit.store.ts'
import { formatLocalDateTime, localDaysRange, toStoredInstant, type Clock } from '../clock.ts'
import { transaction, type Database } from '../db/database.ts'
import type { ManifestState } from '../db/tables.ts'
import { DomainError, notFound } from '../errors.ts'
import { microsToCentsAmount } from '../money.ts'
import type { ManifestDetail, ManifestStatus, ManifestView } from './manifests.schemas.ts'
import { findManifestInvoices, findManifestSummaries, findManifestSummary, findManifestWarehouses, updateManifestState, type ManifestSummaryRow } from './manifests.store.ts'

export interface ManifestDeps {
  db: Database
  clock: Clock
}

/**
 * The status view of interface-v1 §2.4: `total_importe` is the exact sum of the invoices' Total
 * rounded once to cents, `fecha_ingreso` the creation time in the configured zone.
 * @throws DomainError NOT_FOUND when no manifest has that number.
 */
export function getManifestStatus(deps: ManifestDeps, numero: string): ManifestStatus {
  const row = findManifestSummary(deps.db, numero)
  if (row === undefined) throw manifestNotFound(numero)
  return {
    success: true,
    manifiesto: row.numero,
    estado: row.estado,
    resumen: {
      total_facturas: row.invoice_count,
      total_importe: microsToCentsAmount(row.total_micros),
      fecha_ingreso: formatLocalDateTime(deps.clock, row.created_at),
    },
  }
}

export function manifestNotFoundMessage(numero: string): string {
  return `El manifiesto ${numero} no existe.`
}

function manifestNotFound(numero: string) {
  return notFound(manifestNotFoundMessage(numero))
}

/**
 * Manifests by state and by local date range of fecha_ingreso (`desde`/`hasta` inclusive): those
 * with invoices in the actor's warehouses, counting only those invoices.
 */
export function listManifests(deps: ManifestDeps, actor: Actor, filters: { estado?: ManifestState; desde?: string; hasta?: string }): ManifestView[] {
  const rows = findManifestSummaries(deps.db, scopeOf(actor), { estado: filters.estado, ...localDaysRange(deps.clock, filters.desde, filters.hasta) })
  return rows.map((row) => toManifestView(deps.clock, row))
}

/**
 * One manifest with its invoices in the actor's warehouses, their totals, approved return amounts
 * and pending conflicts. @throws DomainError NOT_FOUND when unknown or none of it is visible.
 */
export function getManifestDetail(deps: ManifestDeps, actor: Actor, numero: string): ManifestDetail {
  const scope = scopeOf(actor)
  const row = findManifestSummary(deps.db, numero, scope)
  if (row === undefined) throw manifestNotFound(numero)
  return {
    ...toManifestView(deps.clock, row),
    facturas: findManifestInvoices(deps.db, row.id, scope).map((invoice) => ({
      factura: invoice.nfactura,
      almacen: invoice.almacen,
      clienteid: invoice.cliente_id,
      cliente: invoice.cliente,
      fecha_factura: invoice.fecha_factura,
      total: invoice.total,
      devoluciones_aprobadas: invoice.returned_cents / 100,
      conflicto_pendiente: invoice.pending_conflicts > 0,
    })),
  }
}

/**
 * imported → closed: the manifest accepts no more invoices (MANIFIESTO_CERRADO) nor returns.
 * @throws DomainError NOT_FOUND, FORBIDDEN (invoices of warehouses not the actor's),
 * INVALID_TRANSITION when it is already closed.
 */
export function closeManifest(deps: ManifestDeps, actor: Actor, numero: string, motivo: string | undefined): ManifestView {
  return changeManifestState(deps, actor, numero, 'closed', motivo)
}

/** closed → imported, with the reason (required). @throws DomainError like closeManifest */
export function reopenManifest(deps: ManifestDeps, actor: Actor, numero: string, motivo: string): ManifestView {
  return changeManifestState(deps, actor, numero, 'imported', motivo)
}

function changeManifestState(deps: ManifestDeps, actor: Actor, numero: string, target: ManifestState, motivo: string | undefined): ManifestView {
  const { db, clock } = deps
  return transaction(db, () => {
    const row = findManifestSummary(db, numero, scopeOf(actor))
    if (row === undefined) throw manifestNotFound(numero)
    const outside = findManifestWarehouses(db, row.id).filter((almacen) => !inScope(scopeOf(actor), almacen))
    if (outside.length > 0) {
      throw new DomainError('FORBIDDEN', `El manifiesto ${numero} también tiene facturas de ${outside.join(', ')}, almacén(es) que usted no tiene: lo cierra o reabre quien trabaja en todos sus almacenes.`)
    }
    if (row.estado === target) {
      throw new DomainError('INVALID_TRANSITION', target === 'closed' ? `El manifiesto ${numero} ya está cerrado.` : `El manifiesto ${numero} no está cerrado: no hay nada que reabrir.`)
    }
    const at = toStoredInstant(clock.now())
    updateManifestState(db, row.id, target, target === 'closed' ? at : null)
    const before = toManifestView(clock, row)
    const after = toManifestView(clock, findManifestSummary(db, numero)!)
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

function toManifestView(clock: Clock, row: ManifestSummaryRow): ManifestView {
  return {
    numero: row.numero,
    estado: row.estado,
    fecha_ingreso: formatLocalDateTime(clock, row.created_at),
    cerrado_en: row.closed_at === null ? null : formatLocalDateTime(clock, row.closed_at),
    total_facturas: row.invoice_count,
    total_importe: microsToCentsAmount(row.total_micros),
    devoluciones: { cantidad: row.return_count, total_aprobado: row.returned_cents / 100 },
  }
}
