import { DateTimeFormatter, type LocalDateTime } from '@js-joda/core'
import { narrowedScope, scopeOf, type Actor } from '../access/actor.ts'
import { formatLocalDateTime, type Clock } from '../core/clock.ts'
import type { ClientContract } from '../config/contract.ts'
import type { Database } from '../db/database.ts'
import { notFound } from '../core/errors.ts'
import { centsToAmount, listedQuantity } from '../shared/quantities.ts'
import { pageAnswer, pageWindow } from '../schemas/paging.ts'
import { searchMatchQuery, searchTerms } from '../shared/search-terms.ts'
import {
  RETURN_PAGE_SIZE,
  type ReturnListItem,
  type ReturnPage,
  type ReturnState,
  type ReturnView,
} from './returns.schemas.ts'
import { findReturn, findReturnLines, type ReturnLineRow, type ReturnRow } from './returns.store.ts'
import {
  countReturns,
  findReturnPage,
  findReturns,
  type ReturnFilters,
  type ReturnOrder,
} from './return-lists.store.ts'
import { frozenReason, packageStateOf } from './package.ts'

/**
 * The client's listing as the returns see it (src/listing/listing.cache.ts): when a return it
 * shows changes, the cached pages holding it are forgotten.
 */
export interface ListedReturnsCache {
  forgetReturn(days: { processedDate: string | null; issueDate: string }): void
}

export interface ReturnsDeps {
  db: Database
  clock: Clock
  listing: ListedReturnsCache
  /** v2 freezes the returns of a published package. */
  contract: ClientContract
}

/** What reading a return needs: the contract says whether it still offers actions. */
export type ReturnReadDeps = Pick<ReturnsDeps, 'db' | 'clock' | 'contract'>

/** The client's listing shows this return's change at once: the cached days holding it are forgotten. */
export function forgetListed(deps: ReturnsDeps, id: string): void {
  const row = findReturn(deps.db, Number(id))
  if (row) deps.listing.forgetReturn({ processedDate: row.processed_date, issueDate: row.invoice_date })
}

/** @throws DomainError NOT_FOUND when unknown or of an invoice outside the actor's warehouses. */
export function getReturn(deps: ReturnReadDeps, actor: Actor | null, id: string): ReturnView {
  const row = findReturn(deps.db, Number(id), actor === null ? null : scopeOf(actor))
  if (!row) throw notFound(`No existe la devolución ${id}.`)
  return toView(deps, row, findReturnLines(deps.db, [row.id]).get(row.id) ?? [])
}

/**
 * A return as its own page shows it: its view, and its invoice's client and warehouse.
 * @throws DomainError NOT_FOUND when unknown or of an invoice outside the actor's warehouses.
 */
export function getReturnDetail(deps: ReturnReadDeps, actor: Actor, id: string): ReturnListItem {
  const row = findReturn(deps.db, Number(id), scopeOf(actor))
  if (!row) throw notFound(`No existe la devolución ${id}.`)
  return {
    ...toView(deps, row, findReturnLines(deps.db, [row.id]).get(row.id) ?? []),
    clienteid: row.cliente_id,
    cliente: row.cliente,
    almacen: row.almacen,
  }
}

/** What the operator's returns list filters by (`fecha`, `desde`, `hasta`: local registration dates). */
export interface ReturnListFilters {
  fecha?: string
  estado?: ReturnState
  desde?: string
  hasta?: string
  buscar?: string
  almacen?: string
  invoiceId?: number
  /** Local processing dates (the supplier's date of an approved return), inclusive. */
  procesadas_desde?: string
  procesadas_hasta?: string
  orden?: ReturnOrder
}

/**
 * Returns of invoices in the actor's warehouses (narrowed to `almacen`) by registration date or
 * range, state, one invoice, or text in the invoice number, client or manifest; by id.
 */
export function listReturns(deps: ReturnReadDeps, actor: Actor | null, filters: ReturnListFilters): ReturnView[] {
  const rows = findReturns(deps.db, returnFiltersOf(actor, filters))
  const lines = findReturnLines(
    deps.db,
    rows.map((row) => row.id),
  )
  return rows.map((row) => toView(deps, row, lines.get(row.id) ?? []))
}

/** One page of the same list, newest first, each return with its client and warehouse, and the total. */
export function listReturnPage(
  deps: ReturnReadDeps,
  actor: Actor,
  filters: ReturnListFilters & { pagina: number },
): ReturnPage {
  const where = returnFiltersOf(actor, filters)
  const request = { page: filters.pagina, size: RETURN_PAGE_SIZE }
  const { offset, limit } = pageWindow(request)
  const { count, cents } = countReturns(deps.db, where)
  const rows = findReturnPage(deps.db, where, offset, limit, count)
  const lines = findReturnLines(
    deps.db,
    rows.map((row) => row.id),
  )
  const items = rows.map((row) => ({
    ...toView(deps, row, lines.get(row.id) ?? []),
    clienteid: row.cliente_id,
    cliente: row.cliente,
    almacen: row.almacen,
  }))
  return { ...pageAnswer('devoluciones', items, request, count), totales: { importe: centsToAmount(cents) } }
}

/** The store's filters for an actor's list (null actor: the service itself, every warehouse). */
export function returnFiltersOf(actor: Actor | null, filters: ReturnListFilters): ReturnFilters {
  return {
    registeredDate: filters.fecha,
    registeredFrom: filters.desde,
    registeredTo: filters.hasta,
    estado: filters.estado,
    invoiceId: filters.invoiceId,
    processedFrom: filters.procesadas_desde,
    processedTo: filters.procesadas_hasta,
    match: matchOf(filters.buscar),
    order: filters.orden,
    scope: actor === null ? null : narrowedScope(actor, filters.almacen),
  }
}

/** A search of returns: of the invoices it finds in the invoice search index ('' for a search without words: none). */
function matchOf(buscar: string | undefined): string | undefined {
  if (buscar === undefined) return undefined
  const terms = searchTerms(buscar)
  return terms.length === 0 ? '' : searchMatchQuery(terms)
}

function toView(deps: ReturnReadDeps, row: ReturnRow, lines: readonly ReturnLineRow[]): ReturnView {
  const { clock } = deps
  const frozen = frozenReason(
    packageStateOf(deps.contract, row.returns_deadline, clock.now(), clock.zone),
    row.manifiesto,
  )
  return {
    id: String(row.id),
    factura: row.nfactura,
    manifiesto: row.manifiesto,
    concepto: row.reason_codigo,
    conceptoDescripcion: row.reason_descripcion,
    fecha: row.fecha,
    estado: row.estado,
    total: centsToAmount(row.total_cents),
    fechaProcesado: row.processed_date,
    horaProcesado: row.processed_time,
    registradaPor: row.registered_by,
    registradaEn: formatLocalDateTime(clock, row.registered_at),
    aprobadaPor: row.approved_by,
    cerradaPor: row.closed_by,
    cerrada_en: row.closed_at === null ? null : formatLocalDateTime(clock, row.closed_at),
    motivo: row.closing_note,
    ...(frozen === null ? {} : { sin_acciones: frozen }),
    lineas: lines.map((line) => ({
      numeroLinea: line.numero_linea,
      productoId: line.producto_id,
      producto: line.producto_desc,
      uniVenta: line.uni_venta,
      unidades: line.units,
      factor_conversion: line.factor_conversion,
      cantidad: Number(listedQuantity(line.units, line.uni_venta, line.factor_conversion)),
      lineTotal: centsToAmount(line.amount_cents),
    })),
  }
}

const TIME = DateTimeFormatter.ofPattern('HH:mm:ss')

/** A processing time as a return stores it (`HH:mm:ss`, local): registering approved, or approving. */
export function timeOf(local: LocalDateTime): string {
  return local.format(TIME)
}
