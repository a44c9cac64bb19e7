import { LocalDate, type Instant } from '@js-joda/core'
import { narrowedScope, type Actor } from '../access/actor.ts'
import { formatLocalDateTime, localDaysRange, today, type Clock } from '../core/clock.ts'
import type { Config } from '../config/config.ts'
import type { ClientContract } from '../config/contract.ts'
import { dayMonthYearText } from '../core/calendar.ts'
import type { Database } from '../db/database.ts'
import type { ManifestState } from '../db/tables.ts'
import { notFound } from '../core/errors.ts'
import { microsToCentsAmount } from '../core/money.ts'
import { packageStateOf, publicationDay, type PackageState } from '../returns/package.ts'
import { businessDaysLeft, deadlineDateTime, holidaysOf, type Holidays } from '../returns/window.ts'
import { pageAnswer, pageWindow } from '../schemas/paging.ts'
import { centsToAmount } from '../shared/quantities.ts'
import type { SettlementView } from '../settlement/settlement.schemas.ts'
import { settlementsOfManifests } from '../settlement/settlement.service.ts'
import { MANIFEST_PAGE_SIZE, type ManifestPage, type ManifestStatus, type ManifestView } from './manifests.schemas.ts'
import { findManifestSummary, type ManifestSummaryRow } from './manifests.store.ts'
import {
  countManifests,
  findManifestExtras,
  findManifestSummaries,
  findManifestSummaryPage,
  sumManifests,
  type ManifestOrder,
} from './manifest-lists.store.ts'

export interface ManifestDeps {
  db: Database
  clock: Clock
  /** `returns.holidays`: business days left are counted without them; `settlement`: what closing needs. */
  config: Pick<Config, 'returns' | 'settlement'>
  /** v2: each manifest's package of returns is published to the supplier when its window closes. */
  contract: ClientContract
}

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

export function manifestNotFound(numero: string) {
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

/** The instant, day and holidays a view is computed at: once per list, not once per manifest. */
interface ViewMoment {
  now: Instant
  today: LocalDate
  holidays: Holidays
}

function viewMoment(deps: ManifestDeps): ViewMoment {
  return { now: deps.clock.now(), today: today(deps.clock), holidays: holidaysOf(deps.config.returns.holidays) }
}

export function toManifestView(
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
