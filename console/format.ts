import { boxesAndUnits, groupedQuantity, isBoxLine, lineQuantityText, unitsText } from '../src/shared/quantities.ts'

/**
 * How the console writes numbers, money, dates and times: Honduran usage (`L 1,087.92`,
 * `22/11/2026`, 24-hour time). The service already gives local Honduras dates and times as text
 * (`2026-11-22 14:05:09`, `2026-11-22T09:30:00`), so they are only rearranged, never converted.
 */

/** `1087.92` → `L 1,087.92`; negatives `-L 5.00`. Rounded half away from zero to cents. */
export function money(amount: number): string {
  const cents = Math.round(Math.abs(amount) * 100 + 1e-7)
  const sign = amount < 0 && cents !== 0 ? '-' : ''
  return `${sign}L ${grouped(Math.floor(cents / 100))}.${String(cents % 100).padStart(2, '0')}`
}

/** A count or quantity: `1,250`, `2.5`, at most three decimals (units are counted in thousandths). */
export const quantity = groupedQuantity

/** Box lines as the warehouse counts them (`8 cajas + 55 unid.`), and units (`535 unid.`): src/shared/quantities.ts. */
export { boxesAndUnits, isBoxLine, lineQuantityText, unitsText }

function grouped(whole: number): string {
  return groupedQuantity(whole)
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})/
const TIME = /[ T](\d{2}):(\d{2})(?::(\d{2}))?/

/** `2026-11-22` (or the date of a date-time) → `22/11/2026`; anything else is shown as it came. */
export function date(text: string | null | undefined): string {
  if (text === null || text === undefined || text === '') return '—'
  const match = DATE.exec(text)
  return match ? `${match[3]}/${match[2]}/${match[1]}` : text
}

/** `2026-11-22 14:05:09` → `22/11/2026 14:05` (24-hour, Honduras time as the service gives it). */
export function dateTime(text: string | null | undefined): string {
  if (text === null || text === undefined || text === '') return '—'
  const day = date(text)
  const time = TIME.exec(text)
  return time ? `${day} ${time[1]}:${time[2]}` : day
}

/** `14:05:09` or a date-time → `14:05`. */
export function time(text: string | null | undefined): string {
  if (text === null || text === undefined || text === '') return '—'
  const match = /(\d{2}):(\d{2})/.exec(text)
  return match ? `${match[1]}:${match[2]}` : text
}

/** `1 día`, `3 días`: a count with its noun in singular or plural. */
export function count(value: number, singular: string, plural = `${singular}s`): string {
  return `${quantity(value)} ${value === 1 ? singular : plural}`
}

/** Today in Honduras as `YYYY-MM-DD`, from an instant (the browser's clock unless the service said otherwise). */
export function hondurasDate(instant: Date, timeZone = 'America/Tegucigalpa'): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(instant)
  const part = (type: string) => parts.find((candidate) => candidate.type === type)?.value ?? ''
  return `${part('year')}-${part('month')}-${part('day')}`
}

/** State names as the warehouse says them. */
export const RETURN_STATES = {
  pending: 'Pendiente',
  approved: 'Aprobada',
  rejected: 'Rechazada',
  cancelled: 'Anulada',
} as const
export const MANIFEST_STATES = { imported: 'Abierto', closed: 'Cerrado' } as const
export const BATCH_STATES = { received: 'En proceso', processed: 'Procesado', failed: 'Fallido' } as const
export const ROLES = {
  operador: 'Operador',
  supervisor: 'Supervisor',
  finanzas: 'Finanzas',
  admin: 'Administrador',
} as const
/** How the service names an invoice of a warehouse the person does not have (it gives no number). */
export const OTHER_WAREHOUSE_INVOICE = 'otra factura de otro almacén'

/**
 * `22/11/2026` (also `22-11-2026`, `2/3/2026`) → `2026-11-22`, or null when it is not a real date.
 * How people at the warehouse write a date; the service takes `YYYY-MM-DD`.
 */
export function parseDayMonthYear(text: string): string | null {
  const match = /^\s*(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})\s*$/.exec(text)
  if (!match) return null
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const probe = new Date(Date.UTC(year, month - 1, day))
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return null
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
}

/**
 * An amount as a person types it (`1,234.50`, `1234.5`, `L 80`) → lempiras, or null when it is not
 * one with at most two decimals. Commas are thousands separators, as the console writes them.
 */
export function parseMoney(text: string): number | null {
  const written = text.trim().replace(/^L\s*/i, '')
  // A comma only between groups of three digits: `10,5` is a mistake, never 105 nor 10.5.
  if (!/^-?(\d+|\d{1,3}(,\d{3})+)(\.\d{1,2})?$/.test(written)) return null
  return Number(written.replace(/,/g, ''))
}

/** An amount in the form a money field is filled with: `1234.50` (no separators, two decimals). */
export function moneyField(amount: number): string {
  return (Math.round(amount * 100) / 100).toFixed(2)
}
