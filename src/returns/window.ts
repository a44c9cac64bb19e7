import { DayOfWeek, Instant, LocalDate, type ZoneId } from '@js-joda/core'
import { dayMonthYearText } from '../core/calendar.ts'

/**
 * The returns window, counted as service-contract §11 says and as the warehouses have always
 * counted it. Business days are Monday to Saturday except `holidays`; the arrival day is day 1
 * when it is a business day (otherwise day 1 is the next business day); the window closes at
 * 23:59:59 of day N in the service's zone. Pure functions on calendar dates: the caller brings
 * "today" and the zone from its clock.
 */

/** The dates that are not business days although they are not Sundays (`returns.holidays`). */
export type Holidays = ReadonlySet<string>

export function holidaysOf(dates: readonly string[]): Holidays {
  return new Set(dates)
}

/** Monday to Saturday, and not a holiday. */
export function isBusinessDay(date: LocalDate, holidays: Holidays): boolean {
  return date.dayOfWeek() !== DayOfWeek.SUNDAY && !holidays.has(date.toString())
}

/**
 * The last day of a window of `businessDays` business days that starts on `arrival`: returns may
 * be registered until 23:59:59 of that day. Null when `businessDays` is 0 (no window).
 */
export function lastDayOfWindow(arrival: LocalDate, businessDays: number, holidays: Holidays): LocalDate | null {
  if (businessDays <= 0) return null
  let day = arrival
  let counted = isBusinessDay(day, holidays) ? 1 : 0
  while (counted < businessDays) {
    day = day.plusDays(1)
    if (isBusinessDay(day, holidays)) counted += 1
  }
  return day
}

/** Open from the manifest's arrival through the last second of its last day (23:59:59.999). */
export function isWindowOpen(now: Instant, lastDay: LocalDate, zone: ZoneId): boolean {
  return !LocalDate.ofInstant(now, zone).isAfter(lastDay)
}

/**
 * Business days left in the window: today (when it is a business day) through the last day,
 * inclusive; 0 once the last day has passed.
 */
export function businessDaysLeft(today: LocalDate, lastDay: LocalDate, holidays: Holidays): number {
  let left = 0
  for (let day = today; !day.isAfter(lastDay); day = day.plusDays(1)) {
    if (isBusinessDay(day, holidays)) left += 1
  }
  return left
}

/** The deadline as the operator API shows it: local `YYYY-MM-DD 23:59:59`. */
export function deadlineDateTime(lastDay: LocalDate): string {
  return `${lastDay.toString()} 23:59:59`
}

/** The deadline in a Spanish sentence: `06/10/2026 a las 23:59:59` */
export function deadlineText(lastDay: LocalDate): string {
  return `${dayMonthYearText(lastDay)} a las 23:59:59`
}
