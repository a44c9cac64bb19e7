import { ChronoUnit, LocalDate } from '@js-joda/core'
import { dayMonthYearText } from '../core/calendar.ts'
import { today, type Clock } from '../core/clock.ts'
import type { ClientContract } from '../config/contract.ts'
import type { Database } from '../db/database.ts'
import { invalidInput } from '../core/errors.ts'
import type { ListingCache, ListingPageKey } from './listing.cache.ts'
import { serializeListing } from '../returns/listed-lines.ts'
import { publicationDay } from '../returns/package.ts'
import { findListedReturns, findNextPackageClose } from '../returns/return-lists.store.ts'
import type { ReturnRow } from '../returns/returns.store.ts'

export const PAGE_SIZE = 1000

export interface ListingDeps {
  db: Database
  clock: Clock
  listing: ListingCache
  contract: ClientContract
  /** `returns.listing.maxRangeDays`: the longest Fecha–FechaHasta range, in days. */
  maxRangeDays: number
}

export interface ListingRequest {
  /** `Fecha` and `FechaHasta` decoded (`YYYY-MM-DD`); without FechaHasta the one day of Fecha. */
  from: string
  to?: string | undefined
  page: number
}

/**
 * The client's listing (interface-v1 §4.2, with the contract's rules): the approved, not
 * cancelled returns of the days from `Fecha` to `FechaHasta` — their processing day (v1), or
 * their invoice's issue day and only complete packages (v2) — ordered by id, 1000 per page, as
 * the UTF-8 bytes of the JSON text of §2.3, from the cache when it has them.
 * @throws DomainError INVALID_INPUT (422) when FechaHasta is before Fecha or the range is too long.
 */
export function listReturnsForClient(deps: ListingDeps, request: ListingRequest): Buffer {
  const key: ListingPageKey = { from: request.from, to: request.to ?? request.from, page: request.page }
  requireRange(key.from, key.to, deps.maxRangeDays)
  const cached = deps.listing.get(key)
  if (cached !== undefined) return cached

  const { db, clock, contract } = deps
  const todayDate = today(clock).toString()
  const filter = {
    from: key.from,
    to: key.to,
    by: contract.listing.filterBy,
    closedBefore: contract.listing.completePackages ? todayDate : null,
  }
  const rows = findListedReturns(db, filter, (key.page - 1) * PAGE_SIZE, PAGE_SIZE)
  // Both forms of a return's lines are written once, when it is registered.
  const linesOf =
    contract.listing.quantity === 'units'
      ? (row: ReturnRow) => row.listed_lines_units
      : (row: ReturnRow) => row.listed_lines
  const json = Buffer.from(serializeListing(rows, linesOf), 'utf8')
  deps.listing.set(key, json, contract.listing.completePackages ? nextPublication(deps, key, todayDate) : undefined)
  return json
}

/** The instant (epoch ms) the next package of the range is published, if one is waiting. */
function nextPublication(deps: ListingDeps, key: ListingPageKey, todayDate: string): number | undefined {
  const lastDay = findNextPackageClose(deps.db, key.from, key.to, todayDate)
  if (lastDay === undefined) return undefined
  return publicationDay(LocalDate.parse(lastDay)).atStartOfDay(deps.clock.zone).toInstant().toEpochMilli()
}

function requireRange(from: string, to: string, maxDays: number): void {
  const first = LocalDate.parse(from)
  const last = LocalDate.parse(to)
  if (last.isBefore(first)) {
    throw invalidInput(
      `FechaHasta (${dayMonthYearText(last)}) no puede ser anterior a Fecha (${dayMonthYearText(first)}): envíe en FechaHasta el último día del rango, o quítela para consultar solo el día de Fecha.`,
    )
  }
  const days = first.until(last, ChronoUnit.DAYS) + 1
  if (days > maxDays) {
    throw invalidInput(
      `El rango pedido (${days} días, del ${dayMonthYearText(first)} al ${dayMonthYearText(last)}) supera el máximo de ${maxDays} días: ` +
        `consúltelo en rangos de hasta ${maxDays} días (Fecha y FechaHasta).`,
    )
  }
}
