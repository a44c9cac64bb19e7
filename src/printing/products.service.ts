import { LocalDate } from '@js-joda/core'
import { narrowedScope, type Actor } from '../access/actor.ts'
import { localDaysRange } from '../core/clock.ts'
import { invalidInput, notFound } from '../core/errors.ts'
import { manifestNotFoundMessage } from '../manifests/manifests.service.ts'
import { findManifestSummary } from '../manifests/manifests.store.ts'
import { boxesAndUnits, isBoxLine, unitsText } from '../shared/quantities.ts'
import type { PrintingDeps } from './printing.service.ts'
import { MAX_PRODUCT_DAYS, type ProductReport } from './printing.schemas.ts'
import { countReportInvoices, findProductSums, type ProductFilters } from './printing.store.ts'

export interface ProductQuery {
  manifiesto?: string
  desde?: string
  hasta?: string
  almacen?: string
}

/**
 * The products of one manifest, or of the manifests received from `desde` to `hasta` (local
 * dates, both included, at most MAX_PRODUCT_DAYS days): one row per product (and units per box),
 * its units as boxes and loose units, its amount; of the actor's warehouses (or `almacen`),
 * annulled invoices left out.
 * @throws DomainError INVALID_INPUT when neither or both of manifiesto and a range are given, or
 * the range is reversed or too long; NOT_FOUND when the manifest is unknown or not visible.
 */
export function getProductReport(deps: PrintingDeps, actor: Actor, query: ProductQuery): ProductReport {
  const scope = narrowedScope(actor, query.almacen)
  const filters: ProductFilters = { scope, ...rangeOf(deps, query) }
  if (query.manifiesto !== undefined) {
    const manifest = findManifestSummary(deps.db, query.manifiesto, scope)
    if (manifest === undefined) throw notFound(manifestNotFoundMessage(query.manifiesto))
    filters.manifestId = manifest.id
  }
  let cents = 0
  const productos = findProductSums(deps.db, filters).map((row) => {
    cents += row.cents
    const units = row.milli_units / 1000
    return {
      producto_id: row.producto_id,
      producto: row.producto,
      uni_venta: row.uni_venta,
      factor_conversion: row.factor,
      unidades: units,
      cantidad: isBoxLine(row.uni_venta, row.factor) ? boxesAndUnits(units, row.factor) : unitsText(units),
      importe: row.cents / 100,
      facturas: row.invoices,
    }
  })
  return {
    manifiesto: query.manifiesto ?? null,
    desde: query.desde ?? null,
    hasta: query.hasta ?? null,
    almacen: query.almacen ?? null,
    productos,
    totales: { facturas: countReportInvoices(deps.db, filters), importe: cents / 100 },
  }
}

function rangeOf(deps: PrintingDeps, query: ProductQuery): { from?: string; to?: string } {
  const ranged = query.desde !== undefined || query.hasta !== undefined
  if (query.manifiesto !== undefined && ranged)
    throw invalidInput(
      'Pida los productos de un manifiesto (manifiesto) o de un rango de fechas (desde y hasta), no de ambos.',
    )
  if (query.manifiesto !== undefined) return {}
  if (query.desde === undefined || query.hasta === undefined)
    throw invalidInput('Indique el manifiesto, o el rango de fechas de ingreso completo: desde y hasta (YYYY-MM-DD).')
  const from = LocalDate.parse(query.desde)
  const to = LocalDate.parse(query.hasta)
  if (to.isBefore(from)) throw invalidInput(`hasta (${query.hasta}) es anterior a desde (${query.desde}).`)
  if (from.plusDays(MAX_PRODUCT_DAYS - 1).isBefore(to))
    throw invalidInput(
      `El rango abarca más de ${MAX_PRODUCT_DAYS} días: acote las fechas o pida los productos de un manifiesto.`,
    )
  return localDaysRange(deps.clock, query.desde, query.hasta)
}
