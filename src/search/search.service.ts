import { scopeOf, type Actor } from '../access/actor.ts'
import { formatLocalDateTime, type Clock } from '../core/clock.ts'
import { microsToCentsAmount } from '../core/money.ts'
import type { Database } from '../db/database.ts'
import { findManifestSummaryPage } from '../manifests/manifest-lists.store.ts'
import { centsToAmount } from '../shared/quantities.ts'
import { searchMatchQuery, searchTerms } from '../shared/search-terms.ts'
import { SEARCH_LIMIT, type InvoiceHit, type SearchAnswer } from './search.schemas.ts'
import { findInvoiceHitByNumber, findInvoiceHits, findReturnHits, type InvoiceHitRow } from './search.store.ts'

export interface SearchDeps {
  db: Database
  clock: Clock
}

/**
 * Returns are looked for on this many of the newest matching invoices: a search that matches a
 * hundred thousand invoices ("pulperia") lists the newest returns among them, not every one.
 */
const RETURN_INVOICE_WINDOW = 2000

/**
 * The header search (issue 41): invoices, manifests and returns of the actor's warehouses that
 * match `text` (src/shared/search-terms.ts: case, accents and word order do not count, words may
 * be partial), `limit` of each group and whether there are more. The invoice numbered exactly
 * `text` comes first. A text without letters or digits finds nothing.
 */
export function searchEverything(deps: SearchDeps, actor: Actor, text: string, limit = SEARCH_LIMIT): SearchAnswer {
  const { db, clock } = deps
  const scope = scopeOf(actor)
  const terms = searchTerms(text)
  const empty = { resultados: [], hay_mas: false }
  if (terms.length === 0) return { q: '', facturas: empty, manifiestos: empty, devoluciones: empty }
  const match = searchMatchQuery(terms)
  const exact = findInvoiceHitByNumber(db, text.trim(), scope)
  const found = findInvoiceHits(db, match, scope, limit + 1).filter((row) => row.id !== exact?.id)
  const invoices = exact === undefined ? found : [exact, ...found]
  const number = terms.length === 1 && /^[0-9]+$/.test(terms[0]!) ? terms[0]! : null
  const manifests = number === null ? [] : findManifestSummaryPage(db, scope, { numberPrefix: number }, 0, limit + 1)
  const returns = findReturnHits(
    db,
    match,
    number !== null && number.length <= 15 ? Number(number) : null,
    scope,
    RETURN_INVOICE_WINDOW,
    limit + 1,
  )
  return {
    q: terms.join(' '),
    facturas: { resultados: invoices.slice(0, limit).map(toInvoiceHit), hay_mas: invoices.length > limit },
    manifiestos: {
      resultados: manifests.slice(0, limit).map((row) => ({
        numero: row.numero,
        estado: row.estado,
        fecha_ingreso: formatLocalDateTime(clock, row.created_at),
        total_facturas: row.invoice_count,
        total_importe: microsToCentsAmount(row.total_micros),
      })),
      hay_mas: manifests.length > limit,
    },
    devoluciones: {
      resultados: returns.slice(0, limit).map((row) => ({
        id: String(row.id),
        factura: row.nfactura,
        cliente: row.cliente,
        manifiesto: row.numero,
        estado: row.estado,
        fecha: row.fecha,
        total: centsToAmount(row.total_cents),
      })),
      hay_mas: returns.length > limit,
    },
  }
}

function toInvoiceHit(row: InvoiceHitRow): InvoiceHit {
  return {
    factura: row.nfactura,
    cliente: row.cliente,
    clienteid: row.cliente_id,
    almacen: row.almacen,
    manifiesto: row.numero,
    manifiesto_estado: row.estado,
    fecha_factura: row.fecha_factura,
    total: row.total,
    anulada: row.annulled_at !== null,
  }
}
