import { LocalDate } from '@js-joda/core'

/**
 * Calendar dates as people and systems write them here. Each reader accepts exactly its format
 * and only real dates: `2026-02-30` and `31/02/2026` are null, never "the next valid day".
 */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const DAY_MONTH_YEAR = /^(\d{2})\/(\d{2})\/(\d{4})$/

/** `YYYY-MM-DD`, the operator API's and the database's way of writing a date. */
export function isoDateOf(text: string): LocalDate | null {
  const match = ISO_DATE.exec(text)
  return match ? realDate(Number(match[1]), Number(match[2]), Number(match[3])) : null
}

/** `dd/MM/yyyy`, the client's way (the listing's `Fecha` header, some FechaFactura). */
export function dayMonthYearOf(text: string): LocalDate | null {
  const match = DAY_MONTH_YEAR.exec(text)
  return match ? realDate(Number(match[3]), Number(match[2]), Number(match[1])) : null
}

/**
 * Days since 1970-01-01 of a stored `YYYY-MM-DD` (a date the service wrote, so real): what
 * `LocalDate.parse(text).toEpochDay()` answers, without building a LocalDate (re-issue detection
 * reads tens of thousands of them).
 */
export function epochDayOfStored(text: string): number {
  return Date.UTC(Number(text.slice(0, 4)), Number(text.slice(5, 7)) - 1, Number(text.slice(8, 10))) / 86_400_000
}

/** A date written the client's way, `dd/MM/yyyy`. */
export function dayMonthYearText(date: LocalDate): string {
  const text = date.toString()
  return `${text.slice(8, 10)}/${text.slice(5, 7)}/${text.slice(0, 4)}`
}

function realDate(year: number, month: number, day: number): LocalDate | null {
  try {
    return LocalDate.of(year, month, day)
  } catch {
    return null
  }
}
