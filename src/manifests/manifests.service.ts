import { DayOfWeek, LocalDate, type Instant } from '@js-joda/core'
import { auditedBy, inScope, narrowedScope, scopeOf, type Actor, type WarehouseScope } from '../access/actor.ts'
import { insertAuditEntry } from '../audit/audit.store.ts'
import { formatLocalDateTime, localDaysRange, today, toStoredInstant, type Clock } from '../core/clock.ts'
import type { Config } from '../config/config.ts'
import type { ClientContract } from '../config/contract.ts'
import { dayMonthYearText } from '../core/calendar.ts'
import { transaction, type Database } from '../db/database.ts'
import type { ManifestState } from '../db/tables.ts'
import { DomainError, invalidInput, notFound } from '../core/errors.ts'
import { microsToCentsAmount } from '../core/money.ts'
import { packageStateOf, publicationDay, requirePackageOpen, type PackageState } from '../returns/package.ts'
import { businessDaysLeft, deadlineDateTime, holidaysOf, isBusinessDay, type Holidays } from '../returns/window.ts'
import { pageAnswer, pageWindow } from '../schemas/paging.ts'
import { summaryOf } from '../reissues/reissues.service.ts'
import { centsToAmount } from '../shared/quantities.ts'
import { exactWordsQuery, searchMatchQuery, searchTerms } from '../shared/search-terms.ts'
import type { SettlementView } from '../settlement/settlement.schemas.ts'
import {
  requireRightToReopen,
  requireSettledToClose,
  settlementOfManifest,
  settlementsOfManifests,
} from '../settlement/settlement.service.ts'
import {
  MANIFEST_INVOICE_PAGE_SIZE,
  MANIFEST_PAGE_SIZE,
  type ManifestDetail,
  type ManifestInvoicePage,
  type ManifestPage,
  type ManifestStatus,
  type ManifestView,
} from './manifests.schemas.ts'
import {
  findManifestSummary,
  findManifestWarehouses,
  updateManifestDeadline,
  updateManifestState,
  type ManifestSummaryRow,
} from './manifests.store.ts'
import {
  countManifests,
  findManifestExtras,
  findManifestSummaries,
  findManifestSummaryPage,
  sumManifests,
  type ManifestOrder,
} from './manifest-lists.store.ts'
import {
  countManifestInvoices,
  findManifestInvoices,
  type ManifestInvoiceOrder,
  type ManifestInvoiceRow,
} from './manifest-invoices.store.ts'

export interface ManifestDeps {
  db: Database
  clock: Clock
  /** `returns.holidays`: business days left are counted without them; `settlement`: what closing needs. */
  config: Pick<Config, 'returns' | 'settlement'>
  /** v2: each manifest's package of returns is published to the supplier when its window closes. */
  contract: ClientContract
}

/** An extension farther than this from today is taken for a typo (2027 for 2026). */
export const MAX_EXTENSION_DAYS = 90

/**
 * The status view of interface-v1 §2.4: `total_importe` is the exact sum of the invoices' Total
 * rounded once to cents (invoices annulled as re-issues are not counted), `fecha_ingreso` the
 * creation time in the configured zone.
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

export interface ManifestListFilters {
  estado?: ManifestState
  desde?: string
  hasta?: string
  /** The start of the number. */
  numero?: string
  almacen?: string
  liquidacion?: 'pendiente' | 'lista' | 'cerrada'
  pagina?: number
  orden?: ManifestOrder
}

/**
 * Manifests by state, local date range of fecha_ingreso (`desde`/`hasta` inclusive), number prefix,
 * warehouse and where their settlement stands: those with invoices in the actor's warehouses
 * (narrowed to `almacen`), counting only those invoices (and settling only those parts). Without
 * `pagina` the whole list, oldest first (the answer since the first release); with it, one page of
 * MANIFEST_PAGE_SIZE, newest first, with each manifest's pending conflicts and warehouses, the
 * count and the totals of all that match. `orden` sorts either otherwise (by total, by the
 * settlement's diferencia).
 */
export function listManifests(
  deps: ManifestDeps,
  actor: Actor,
  filters: ManifestListFilters,
): ManifestView[] | ManifestPage {
  const scope = narrowedScope(actor, filters.almacen)
  const where = {
    estado: filters.estado,
    numberPrefix: filters.numero,
    settlement: filters.liquidacion,
    ...localDaysRange(deps.clock, filters.desde, filters.hasta),
  }
  const moment = viewMoment(deps)
  if (filters.pagina === undefined) {
    const rows = findManifestSummaries(deps.db, scope, where, filters.orden)
    const settlements = settlementsOfManifests(deps, rows, scope)
    return rows.map((row) => toManifestView(deps, row, settlements.get(row.id)!, moment))
  }
  const request = { page: filters.pagina, size: MANIFEST_PAGE_SIZE }
  const { offset, limit } = pageWindow(request)
  const rows = findManifestSummaryPage(deps.db, scope, where, offset, limit, filters.orden)
  const extras = findManifestExtras(
    deps.db,
    rows.map((row) => row.id),
    scope,
  )
  const settlements = settlementsOfManifests(deps, rows, scope)
  const items = rows.map((row) => ({
    ...toManifestView(deps, row, settlements.get(row.id)!, moment),
    conflictos_pendientes: extras.get(row.id)!.pendingConflicts,
    almacenes: extras.get(row.id)!.almacenes,
  }))
  const sums = sumManifests(deps.db, scope, where)
  return {
    ...pageAnswer('manifiestos', items, request, countManifests(deps.db, scope, where)),
    totales: {
      facturas: sums.invoices,
      importe: microsToCentsAmount(sums.micros),
      devoluciones_aprobadas: centsToAmount(sums.approved_cents),
      a_depositar: centsToAmount(sums.to_deposit_cents),
      depositado: centsToAmount(sums.deposited_cents),
      diferencia: centsToAmount(sums.difference_cents),
    },
  }
}

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

/** The instant, day and holidays a view is computed at: once per list, not once per manifest. */
interface ViewMoment {
  now: Instant
  today: LocalDate
  holidays: Holidays
}

function viewMoment(deps: ManifestDeps): ViewMoment {
  return { now: deps.clock.now(), today: today(deps.clock), holidays: holidaysOf(deps.config.returns.holidays) }
}

/** A manifest the actor acts on as a whole, as it is now (inside the change's transaction). */
function wholeView(deps: ManifestDeps, numero: string): ManifestView {
  const row = findManifestSummary(deps.db, numero)!
  return toManifestView(deps, row, settlementOfManifest(deps, row, null))
}

function toManifestView(
  deps: ManifestDeps,
  row: ManifestSummaryRow,
  liquidacion: SettlementView,
  moment: ViewMoment = viewMoment(deps),
): ManifestView {
  const { clock } = deps
  const lastDay = row.returns_deadline === null ? null : LocalDate.parse(row.returns_deadline)
  const supplierPackage = packageView(packageStateOf(deps.contract, row.returns_deadline, moment.now, clock.zone))
  return {
    numero: row.numero,
    estado: row.estado,
    fecha_ingreso: formatLocalDateTime(clock, row.created_at),
    cerrado_en: row.closed_at === null ? null : formatLocalDateTime(clock, row.closed_at),
    total_facturas: row.invoice_count,
    total_importe: microsToCentsAmount(row.total_micros),
    devoluciones: { cantidad: row.return_count, total_aprobado: row.returned_cents / 100 },
    plazo_devoluciones: lastDay === null ? null : deadlineDateTime(lastDay),
    dias_habiles_restantes: lastDay === null ? null : businessDaysLeft(moment.today, lastDay, moment.holidays),
    liquidacion,
    ...(supplierPackage === null ? {} : { paquete_proveedor: supplierPackage }),
  }
}

/** Contract v2: whether the supplier has the manifest's package of returns, in words the console shows. */
function packageView(state: PackageState): NonNullable<ManifestView['paquete_proveedor']> | null {
  switch (state.kind) {
    case 'none':
      return null
    case 'no-deadline':
      return {
        publicado: true,
        publicado_en: null,
        nota: 'Sin plazo de devoluciones: cada devolución aprobada se publica al proveedor en seguida.',
      }
    case 'pending': {
      const day = publicationDay(state.lastDay)
      return {
        publicado: false,
        publicado_en: `${day} 00:00:00`,
        nota: `Se publicará al proveedor el ${dayMonthYearText(day)}, al cerrar el plazo: hasta entonces el proveedor no ve sus devoluciones.`,
      }
    }
    case 'published': {
      const day = publicationDay(state.lastDay)
      return {
        publicado: true,
        publicado_en: `${day} 00:00:00`,
        nota: `Publicado al proveedor el ${dayMonthYearText(day)}: sus devoluciones ya no cambian.`,
      }
    }
  }
}
