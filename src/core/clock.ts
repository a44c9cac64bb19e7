import { DateTimeFormatter, Instant, LocalDate, LocalDateTime, ZoneId, ZonedDateTime } from '@js-joda/core'
// The IANA zone rules for 1970–2030: a library's registration, the one side effect we accept at
// import. The full database costs 12 MB of heap at every start (the idle budget is 120 MB);
// Honduras has had a fixed UTC−6 since 2006, so its dates are right after 2030 too.
import '@js-joda/timezone/dist/js-joda-timezone-1970-2030.js'

/**
 * The one source of "now". Services and routes receive a Clock; nothing reads the system time
 * directly, so date rules (today in Honduras, midnight edges, "created yesterday") are testable.
 */
export interface Clock {
  readonly zone: ZoneId
  now(): Instant
}

export function systemClock(zone: string): Clock {
  const zoneId = ZoneId.of(zone)
  return { zone: zoneId, now: () => Instant.now() }
}

/** A clock the tests move by hand. */
export class ManualClock implements Clock {
  readonly zone: ZoneId
  private current: Instant

  constructor(isoInstant: string, zone = 'America/Tegucigalpa') {
    this.zone = ZoneId.of(zone)
    this.current = Instant.parse(isoInstant)
  }

  now(): Instant {
    return this.current
  }

  /** Sets the time from an ISO instant (`2026-11-22T05:59:59Z`). */
  set(isoInstant: string): void {
    this.current = Instant.parse(isoInstant)
  }

  advance(milliseconds: number): void {
    this.current = this.current.plusMillis(milliseconds)
  }
}

export function nowMillis(clock: Clock): number {
  return clock.now().toEpochMilli()
}

/** Today's date in the clock's zone (the service's "today"). */
export function today(clock: Clock): LocalDate {
  return LocalDate.ofInstant(clock.now(), clock.zone)
}

export function localDateTime(clock: Clock, instant: Instant = clock.now()): LocalDateTime {
  return LocalDateTime.ofInstant(instant, clock.zone)
}

/**
 * Stored instants are ISO-8601 UTC text with exactly three decimals (`2026-11-22T04:14:05.123Z`):
 * fixed width, so comparing the text compares the instants (js-joda drops zero milliseconds).
 */
export function toStoredInstant(instant: Instant): string {
  return new Date(instant.toEpochMilli()).toISOString()
}

const LOCAL_DATE_TIME = DateTimeFormatter.ofPattern('uuuu-MM-dd HH:mm:ss')
const ISO_WITH_OFFSET = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSxxx")

/** ISO 8601 with the zone's offset and milliseconds (`2026-11-22T10:00:00.000-06:00`): logs and the status. */
export function isoWithOffset(clock: Clock, instant: Instant = clock.now()): string {
  return ZonedDateTime.ofInstant(instant, clock.zone).format(ISO_WITH_OFFSET)
}

/** The form toStoredInstant writes (UTC, milliseconds): Date.parse reads it exactly. */
const STORED_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

/**
 * Formats a stored instant as local `YYYY-MM-DD HH:mm:ss` in the clock's zone. A list formats
 * thousands of them: the stored form is read with Date.parse and shifted by the zone's offset at
 * that instant, the same text js-joda's parser and formatter give at a tenth of the cost; any
 * other text goes through js-joda as before.
 */
export function formatLocalDateTime(clock: Clock, storedInstant: string): string {
  if (!STORED_INSTANT.test(storedInstant))
    return ZonedDateTime.ofInstant(Instant.parse(storedInstant), clock.zone).format(LOCAL_DATE_TIME)
  const epochMilli = Date.parse(storedInstant)
  const offsetSeconds = clock.zone.rules().offset(Instant.ofEpochMilli(epochMilli)).totalSeconds()
  const local = new Date(epochMilli + offsetSeconds * 1000).toISOString()
  return `${local.slice(0, 10)} ${local.slice(11, 19)}`
}

/** The local date of a stored instant in the clock's zone. */
export function localDateOf(clock: Clock, storedInstant: string): LocalDate {
  return LocalDate.ofInstant(Instant.parse(storedInstant), clock.zone)
}

/** The stored instant at which a local date (`YYYY-MM-DD`) begins in the clock's zone. */
export function startOfLocalDay(clock: Clock, date: string): string {
  return toStoredInstant(LocalDate.parse(date).atStartOfDay(clock.zone).toInstant())
}

/**
 * Stored instants bounding local days `desde`..`hasta` (both included, either open):
 * `from` inclusive, `to` exclusive — what list filters on a creation instant need.
 */
export function localDaysRange(clock: Clock, desde?: string, hasta?: string): { from?: string; to?: string } {
  return {
    ...(desde === undefined ? {} : { from: startOfLocalDay(clock, desde) }),
    ...(hasta === undefined ? {} : { to: startOfLocalDay(clock, LocalDate.parse(hasta).plusDays(1).toString()) }),
  }
}

export function isKnownZone(zone: string): boolean {
  try {
    ZoneId.of(zone)
    return true
  } catch {
    return false
  }
}
