import { LocalDate } from '@js-joda/core'
import { scopeOf, type Actor } from '../access/actor.ts'
import { formatLocalDateTime, type Clock } from '../core/clock.ts'
import type { ClientContract } from '../config/contract.ts'
import type { Database } from '../db/database.ts'
import { notFound } from '../core/errors.ts'
import { getPendingConflictSummary } from '../conflicts/conflicts.service.ts'
import { factorOf, lineUnits } from '../shared/quantities.ts'
import { findHeldUnits, findInvoiceLines } from '../returns/returns.store.ts'
import { getReissueSummary } from '../reissues/reissues.service.ts'
import { listReturns } from '../returns/returns.service.ts'
import { deadlineDateTime, isWindowOpen } from '../returns/window.ts'
import type { InvoiceView } from './lookup.schemas.ts'
import { findInvoiceOriginal, findInvoiceRow } from '../invoices/invoices.store.ts'

export interface InvoiceDeps {
  db: Database
  clock: Clock
  /** Its returns say (v2) when they offer no action. */
  contract: ClientContract
}

/**
 * An invoice of the actor's warehouses: its lines with units, units held by pending and approved returns
 * and units still available, its returns, any pending conflict, and the original JSON.
 * @throws DomainError NOT_FOUND
 */
export function getInvoice(deps: InvoiceDeps, actor: Actor, nfactura: string): InvoiceView {
  const { db, clock } = deps
  const scope = scopeOf(actor)
  const row = findInvoiceRow(db, nfactura, scope)
  if (row === undefined) throw notFound(`No existe la factura ${nfactura}.`)
  const held = findHeldUnits(db, row.id)
  const lastDay = row.returns_deadline === null ? null : LocalDate.parse(row.returns_deadline)
  return {
    factura: row.nfactura,
    manifiesto: row.numero,
    manifiesto_estado: row.estado,
    plazo_devoluciones: lastDay === null ? null : deadlineDateTime(lastDay),
    admite_devoluciones:
      row.annulled_at === null &&
      row.estado !== 'closed' &&
      (lastDay === null || isWindowOpen(clock.now(), lastDay, clock.zone)),
    anulada: row.annulled_at !== null,
    reemision: getReissueSummary(deps, scope, row.id),
    almacen: row.almacen,
    clienteid: row.cliente_id,
    cliente: row.cliente,
    fecha_factura: row.fecha_factura,
    total: row.total,
    recibida_en: formatLocalDateTime(clock, row.created_at),
    actualizada_en: row.updated_at === null ? null : formatLocalDateTime(clock, row.updated_at),
    lineas: findInvoiceLines(db, row.id).map((line) => {
      const units = lineUnits(line)
      const returned = held.get(line.numero_linea) ?? 0
      return {
        numeroLinea: line.numero_linea,
        productoId: line.producto_id,
        producto: line.producto_desc,
        uniVenta: line.uni_venta,
        factorConversion: factorOf(line),
        unidades: units,
        devueltas: returned,
        disponibles: units - returned,
        total: line.total,
      }
    }),
    devoluciones: listReturns(deps, null, { invoiceId: row.id }),
    conflicto_pendiente: getPendingConflictSummary(deps, row.id),
    original: JSON.parse(findInvoiceOriginal(db, row.id)) as unknown,
  }
}
