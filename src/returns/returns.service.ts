import { DateTimeFormatter, LocalDate, type LocalDateTime } from '@js-joda/core'
import type { StaticDecode } from 'typebox'
import { auditedBy, invoiceNamed, narrowedScope, requireRight, scopeOf, type Actor } from '../access/actor.ts'
import { insertAuditEntry } from '../audit/audit.store.ts'
import { formatLocalDateTime, localDateTime, today, toStoredInstant, type Clock } from '../core/clock.ts'
import type { ClientContract } from '../config/contract.ts'
import { transaction, type Database } from '../db/database.ts'
import { DomainError, invalidInput, notFound } from '../core/errors.ts'
import { findReason } from '../reasons/reasons.store.ts'
import { serializeListedLines } from './listed-lines.ts'
import {
  centsToAmount,
  factorOf,
  lineAmountCents,
  lineQuantityText,
  lineUnits,
  listedQuantity,
  returnedUnits,
  toMilliUnits,
} from '../shared/quantities.ts'
import { pageAnswer, pageWindow } from '../schemas/paging.ts'
import { searchMatchQuery, searchTerms } from '../shared/search-terms.ts'
import {
  RETURN_PAGE_SIZE,
  type BulkApproval,
  type RegisterReturnBody,
  type ReturnListItem,
  type ReturnPage,
  type ReturnState,
  type ReturnView,
} from './returns.schemas.ts'
import {
  findHeldUnits,
  findInvoiceForReturn,
  findInvoiceLines,
  findReturn,
  findReturnLines,
  insertReturn,
  insertReturnLines,
  updateReturn,
  type InvoiceForReturn,
  type ReturnLineRow,
  type ReturnRow,
} from './returns.store.ts'
import {
  countReturns,
  findReturnPage,
  findReturns,
  type ReturnFilters,
  type ReturnOrder,
} from './return-lists.store.ts'
import { frozenReason, packageStateOf, requirePackageOpen } from './package.ts'
import { deadlineText, isWindowOpen } from './window.ts'

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

/**
 * Registers a return (contract §4): an invoice (not annulled as a re-issue) of a manifest that is
 * not closed and whose returns window is open (under contract v2: whose package is not yet
 * published), an active reason, lines (none with a negative Total) named by NumeroLinea with
 * cajas and/or unidades that never take a line past its units (counting pending and approved
 * returns), amounts proportional to the line total in cents. With `aprobar` it is approved at
 * once. Audited; nothing is written on any violation.
 * @throws DomainError INVALID_INPUT (422) naming the line and the numbers, or the deadline.
 */
export function registerReturn(
  deps: ReturnsDeps,
  actor: Actor,
  input: StaticDecode<typeof RegisterReturnBody>,
): ReturnView {
  const { db, clock } = deps
  if (input.aprobar === true) requireRight(actor, 'decidir_devolucion')
  const fecha = input.fecha
  const view = transaction(db, () => {
    const scope = scopeOf(actor)
    const invoice = findInvoiceForReturn(db, input.factura, scope)
    if (!invoice) throw invalidInput(`No existe la factura ${input.factura}.`)
    requireDateWithin(fecha, invoice.fecha_factura, today(clock).toString())
    if (invoice.annulled_at !== null) {
      const original = invoiceNamed(
        { nfactura: invoice.reissue_of ?? '', almacen: invoice.reissue_of_almacen ?? '' },
        scope,
      )
      throw invalidInput(
        `La factura ${input.factura} fue anulada como re-emisión de ${original}: no admite devoluciones; regístrelas en esa factura.`,
      )
    }
    if (invoice.manifest_estado === 'closed') {
      throw invalidInput(
        `El manifiesto ${invoice.manifiesto} de la factura ${input.factura} está cerrado: no admite devoluciones.`,
      )
    }
    requirePackageOpen(
      packageStateOf(deps.contract, invoice.returns_deadline, clock.now(), clock.zone),
      invoice.manifiesto,
      'registrar la devolución',
    )
    requireWindowOpen(clock, invoice)
    const reason = findReason(db, input.concepto)
    if (!reason) throw invalidInput(`No existe el concepto ${input.concepto}.`)
    if (reason.activo !== 1)
      throw invalidInput(`El concepto ${input.concepto} está inactivo: no admite devoluciones nuevas.`)

    const lines = returnLines(input, findInvoiceLines(db, invoice.id), findHeldUnits(db, invoice.id))
    const listedLines = serializeListedLines(lines)
    const at = clock.now()
    const approved = input.aprobar === true
    const processed = localDateTime(clock, at)
    const returnId = insertReturn(db, {
      invoice_id: invoice.id,
      reason_codigo: reason.codigo,
      fecha,
      estado: approved ? 'approved' : 'pending',
      total_cents: lines.reduce((sum, line) => sum + line.amount_cents, 0),
      listed_lines: listedLines,
      listed_lines_units: serializeListedLines(lines, 'units'),
      registered_at: toStoredInstant(at),
      registered_date: processed.toLocalDate().toString(),
      registered_by: actor.nombre,
      processed_date: approved ? processed.toLocalDate().toString() : null,
      processed_time: approved ? timeOf(processed) : null,
      approved_by: approved ? actor.nombre : null,
      closed_at: null,
      closed_by: null,
      closing_note: null,
      invoice_date: invoice.fecha_factura,
    })
    insertReturnLines(
      db,
      lines.map((line) => ({ ...line, return_id: returnId })),
    )
    const registered = getReturn(deps, actor, String(returnId))
    insertAuditEntry(db, {
      at: toStoredInstant(at),
      ...auditedBy(actor),
      action: approved ? 'devolucion.registrada_y_aprobada' : 'devolucion.registrada',
      subjectType: 'devolucion',
      subjectId: String(returnId),
      after: JSON.stringify(registered),
    })
    return registered
  })
  forgetListed(deps, view.id)
  return view
}

/** The client's listing shows this return's change at once: the cached days holding it are forgotten. */
function forgetListed(deps: ReturnsDeps, id: string): void {
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

/** The return lines to write, each checked against its invoice line and what is already held. */
function returnLines(
  input: StaticDecode<typeof RegisterReturnBody>,
  invoiceLines: ReturnType<typeof findInvoiceLines>,
  held: ReadonlyMap<number, number>,
): Array<Omit<ReturnLineRow, 'return_id'>> {
  const seen = new Set<number>()
  return input.lineas.map((requested, index) => {
    // Named by its NumeroLinea, as the invoice and the form show it; `linea` lets a form mark it.
    const label = `Línea ${requested.numeroLinea}`
    const refuse = (message: string) => invalidInput(message, { linea: requested.numeroLinea })
    if (seen.has(requested.numeroLinea)) throw refuse(`${label}: aparece dos veces en esta devolución.`)
    seen.add(requested.numeroLinea)
    const line = invoiceLines.find((candidate) => candidate.numero_linea === requested.numeroLinea)
    if (!line) {
      throw refuse(
        `${label}: la factura ${input.factura} no tiene esa línea (tiene ${invoiceLines.map((l) => l.numero_linea).join(', ')}).`,
      )
    }
    if (line.total < 0) {
      // A discount or bonus line: its share would be a negative amount, and a return never has a negative total.
      throw refuse(
        `${label}, ${line.producto_desc}: su Total en la factura es negativo (${line.total}: un descuento o una bonificación), y una devolución nunca tiene total negativo; esa línea no admite devoluciones.`,
      )
    }
    const factor = factorOf(line)
    const units = returnedUnits(factor, requested.cajas ?? 0, requested.unidades ?? 0)
    if (units <= 0) throw refuse(`${label}: indique cajas y/o unidades mayores que cero.`)
    const total = lineUnits(line)
    const already = held.get(line.numero_linea) ?? 0
    if (toMilliUnits(already) + toMilliUnits(units) > toMilliUnits(total)) {
      const counted = (value: number) => lineQuantityText(value, line.uni_venta, factor)
      throw refuse(
        `${label}, ${line.producto_desc}: se quieren devolver ${counted(units)}, pero la línea tiene ${counted(total)} y ya hay ${counted(already)} en devoluciones pendientes o aprobadas (disponibles: ${counted(total - already)}).`,
      )
    }
    return {
      numero_linea: line.numero_linea,
      producto_id: line.producto_id,
      producto_desc: line.producto_desc,
      uni_venta: line.uni_venta,
      factor_conversion: factor,
      units,
      amount_cents: lineAmountCents(line.total, units, total),
    }
  })
}

/**
 * A return is registered before its manifest's deadline (23:59:59 of the last day, Honduras);
 * the moment of registering counts, not the return's own `fecha`.
 */
function requireWindowOpen(clock: Clock, invoice: InvoiceForReturn): void {
  if (invoice.returns_deadline === null) return
  const lastDay = LocalDate.parse(invoice.returns_deadline)
  if (isWindowOpen(clock.now(), lastDay, clock.zone)) return
  throw invalidInput(
    `El plazo de devoluciones del manifiesto ${invoice.manifiesto} venció el ${deadlineText(lastDay)}: no admite devoluciones nuevas. Un supervisor puede ampliarlo.`,
  )
}

/** A return happens between its invoice's date and today (Honduras); any other date is a typo (422). */
function requireDateWithin(fecha: string, invoiceDate: string, todayDate: string): void {
  const day = fecha.slice(0, 10)
  if (day < invoiceDate)
    throw invalidInput(
      `fecha: ${day} es anterior a la fecha de la factura (${invoiceDate}); una devolución no puede ser anterior a su factura.`,
    )
  if (day > todayDate)
    throw invalidInput(
      `fecha: ${day} es posterior a hoy (${todayDate}); registre la devolución con la fecha en que se recibió.`,
    )
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

function timeOf(local: LocalDateTime): string {
  return local.format(TIME)
}
