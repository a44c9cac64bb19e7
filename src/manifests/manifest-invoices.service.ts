import { narrowedScope, scopeOf, type Actor, type WarehouseScope } from '../access/actor.ts'
import { microsToCentsAmount } from '../core/money.ts'
import { pageAnswer, pageWindow } from '../schemas/paging.ts'
import { summaryOf } from '../reissues/reissues.service.ts'
import { centsToAmount } from '../shared/quantities.ts'
import { exactWordsQuery, searchMatchQuery, searchTerms } from '../shared/search-terms.ts'
import { settlementOfManifest } from '../settlement/settlement.service.ts'
import { MANIFEST_INVOICE_PAGE_SIZE, type ManifestDetail, type ManifestInvoicePage } from './manifests.schemas.ts'
import { findManifestSummary } from './manifests.store.ts'
import {
  countManifestInvoices,
  findManifestInvoices,
  type ManifestInvoiceOrder,
  type ManifestInvoiceRow,
} from './manifest-invoices.store.ts'
import { manifestNotFound, toManifestView, type ManifestDeps } from './manifests.service.ts'

/**
 * One page of a manifest's invoices in the actor's warehouses (narrowed to `almacen`) matching
 * `buscar` as every search matches (src/shared/search-terms.ts, through the invoice search index),
 * in the order they arrived or by total or date; with the totals of all that match.
 * @throws DomainError NOT_FOUND when the manifest is unknown or none of it is visible.
 */
export function listManifestInvoices(
  deps: ManifestDeps,
  actor: Actor,
  numero: string,
  filters: { buscar?: string; almacen?: string; orden?: ManifestInvoiceOrder; pagina?: number },
): ManifestInvoicePage {
  const row = findManifestSummary(deps.db, numero, scopeOf(actor))
  if (row === undefined) throw manifestNotFound(numero)
  const scope = narrowedScope(actor, filters.almacen)
  const request = { page: filters.pagina ?? 1, size: MANIFEST_INVOICE_PAGE_SIZE }
  const terms = filters.buscar === undefined ? [] : searchTerms(filters.buscar)
  // The manifest's own words narrow the index to its invoices before the search's words are matched;
  // a search without words ("%") finds nothing.
  const match =
    filters.buscar === undefined
      ? undefined
      : terms.length === 0
        ? ''
        : [exactWordsQuery(row.numero, 'manifiesto'), searchMatchQuery(terms)].filter(Boolean).join(' AND ')
  const invoices = findManifestInvoices(deps.db, row.id, scope, { match, order: filters.orden, ...pageWindow(request) })
  const items = invoices.map((invoice) => ({ ...toInvoiceItem(invoice, scope), ruta: invoice.numero_ruta }))
  const sums = countManifestInvoices(deps.db, row.id, scope, match)
  return {
    ...pageAnswer('facturas', items, request, sums.count),
    totales: {
      importe: microsToCentsAmount(sums.total_micros),
      devoluciones_aprobadas: centsToAmount(sums.returned_cents),
    },
  }
}

/**
 * One manifest with its invoices in the actor's warehouses, their totals, approved return amounts,
 * pending conflicts and re-issue flags; annulled invoices are listed (`anulada`) but left out of
 * the manifest's totals. @throws DomainError NOT_FOUND when unknown or none of it is visible.
 */
export function getManifestDetail(deps: ManifestDeps, actor: Actor, numero: string): ManifestDetail {
  const scope = scopeOf(actor)
  const row = findManifestSummary(deps.db, numero, scope)
  if (row === undefined) throw manifestNotFound(numero)
  return {
    ...toManifestView(deps, row, settlementOfManifest(deps, row, scope)),
    facturas: findManifestInvoices(deps.db, row.id, scope).map((invoice) => toInvoiceItem(invoice, scope)),
  }
}

function toInvoiceItem(invoice: ManifestInvoiceRow, scope: WarehouseScope): ManifestDetail['facturas'][number] {
  return {
    factura: invoice.nfactura,
    almacen: invoice.almacen,
    clienteid: invoice.cliente_id,
    cliente: invoice.cliente,
    fecha_factura: invoice.fecha_factura,
    total: invoice.total,
    devoluciones_aprobadas: invoice.returned_cents / 100,
    conflicto_pendiente: invoice.pending_conflicts > 0,
    anulada: invoice.annulled_at !== null,
    reemision:
      invoice.reissue_id === null
        ? null
        : summaryOf(
            {
              id: invoice.reissue_id,
              estado: invoice.reissue_estado!,
              original: {
                nfactura: invoice.reissue_of!,
                manifiesto: invoice.reissue_of_manifest!,
                almacen: invoice.reissue_of_almacen!,
              },
            },
            scope,
          ),
  }
}
