/**
 * Amounts arrive as JSON numbers; sums are taken in exact integer millionths (the database's
 * generated `*_micros` columns) and rounded once, at the end, half away from zero.
 */

/** Rounds a sum of millionths to an amount in cents (half away from zero). */
export function microsToCentsAmount(micros: number): number {
  const cents = Math.floor((Math.abs(micros) + 5_000) / 10_000)
  return (Math.sign(micros) * cents) / 100 || 0
}
