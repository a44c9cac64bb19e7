/**
 * Money of the settlement in integer cents (issue 40): amounts arrive as JSON numbers with at most
 * two decimals and are turned into cents once; sums are of cents; answers show lempiras again.
 */

/** The exact cents of an amount written with at most two decimals, or null when it has more (10.005). */
export function exactCents(amount: number): number | null {
  if (!Number.isFinite(amount)) return null
  const cents = Math.round(amount * 100)
  // 0.1 * 100 is 10.000000000000002: a tolerance far below a cent, far above the float's error.
  return Math.abs(amount * 100 - cents) < 1e-6 ? cents : null
}

/** Cents as the API shows them: lempiras, a JSON number with at most two decimals. */
export function centsToLempiras(cents: number): number {
  return cents / 100
}

/** A sum of exact millionths (invoice totals) in cents, rounded once, half away from zero. */
export function microsToCents(micros: number): number {
  return Math.sign(micros) * Math.floor((Math.abs(micros) + 5_000) / 10_000) || 0
}

/** `L 1,234.50` (always positive: a sentence says whether it is missing or over). */
export function lempirasText(cents: number): string {
  const whole = Math.floor(Math.abs(cents) / 100)
  const rest = String(Math.abs(cents) % 100).padStart(2, '0')
  return `L ${String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${rest}`
}
