import { LocalDateTime, ZonedDateTime, type LocalDate, type ZoneId } from '@js-joda/core'
import { dayMonthYearOf, isoDateOf } from '../core/calendar.ts'

const CLIENT_MIDNIGHT = /^(\d{4}-\d{2}-\d{2})T00:00:00(?:\.\d{1,9})?Z$/
const ZONED_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/
const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?$/

/**
 * The calendar date of a FechaFactura (contract §3): `YYYY-MM-DDT00:00:00(.sss)Z` is the client's
 * way of writing a date and means that date; `YYYY-MM-DD` and `dd/MM/yyyy` likewise; any other
 * ISO 8601 date-time is converted to the zone first (no offset = already local). Anything else,
 * or an impossible date, is null (FECHA_FACTURA_INVALIDA).
 */
export function invoiceDate(value: string | number, zone: ZoneId): LocalDate | null {
  if (typeof value !== 'string') return null
  try {
    const date = isoDateOf(CLIENT_MIDNIGHT.exec(value)?.[1] ?? value) ?? dayMonthYearOf(value)
    if (date) return date
    if (ZONED_DATE_TIME.test(value)) return ZonedDateTime.parse(value).withZoneSameInstant(zone).toLocalDate()
    if (LOCAL_DATE_TIME.test(value)) return LocalDateTime.parse(value).toLocalDate()
  } catch {
    return null // 2026-02-30, 25:00 and the like
  }
  return null
}
