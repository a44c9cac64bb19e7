/**
 * Units and amounts of returns (contract §4), computed exactly: quantities in thousandths of a
 * unit and amounts in millionths, as integers, rounded once at the end, half away from zero.
 */

/** What a line's units are counted from. */
export interface LineUnitFields {
  cantidad_fracciones: number | null
  cantidad_caja: number | null
  factor_conversion: number | null
}

export interface LineQuantities extends LineUnitFields {
  total: number
}

/**
 * The units an invoice line holds: CantidadFracciones, except when it is less than
 * CantidadCaja × FactorConversion — then the boxes were sent besides loose units, and the line
 * holds CantidadCaja × FactorConversion + CantidadFracciones.
 */
export function lineUnits(line: LineUnitFields): number {
  const loose = line.cantidad_fracciones ?? 0
  const boxed = (line.cantidad_caja ?? 0) * factorOf(line)
  return loose < boxed ? boxed + loose : loose
}

/**
 * Units per box; a line without a usable factor (none, or one stored before factors had to be
 * positive whole numbers) counts 1, so no quantity is ever divided by zero or a fraction of a unit.
 */
export function factorOf(line: Pick<LineQuantities, 'factor_conversion'>): number {
  const factor = line.factor_conversion ?? 0
  return Number.isSafeInteger(factor) && factor > 0 ? factor : 1
}

/** Returned units of a line: cajas × FactorConversion + unidades. */
export function returnedUnits(factor: number, cajas = 0, unidades = 0): number {
  return cajas * factor + unidades
}

/** Thousandths of a unit, as an integer: unit counts compare and add exactly. */
export function toMilliUnits(units: number): number {
  return Math.round(units * 1000)
}

/** Line Total × returned units ÷ line units, in cents, rounded half away from zero. */
export function lineAmountCents(lineTotal: number, returned: number, held: number): number {
  const micros = BigInt(Math.round(lineTotal * 1_000_000))
  const numerator = micros * BigInt(toMilliUnits(returned))
  const denominator = BigInt(toMilliUnits(held)) * 10_000n
  return Number(divideRounded(numerator, denominator))
}

/**
 * numerator ÷ denominator (integers, denominator > 0) as an exact decimal with six places
 * (`150.000000`), rounded half away from zero. Plain numbers while every step is exact (the
 * listing formats thousands of them per page), BigInt beyond that.
 */
export function formatSixDecimals(numerator: number, denominator: number): string {
  const scaledNumerator = numerator * 1_000_000
  const scaled: number | bigint =
    Number.isSafeInteger(scaledNumerator) && denominator <= 1e9
      ? Math.sign(scaledNumerator) * Math.round(Math.abs(scaledNumerator) / denominator)
      : divideRounded(BigInt(numerator) * 1_000_000n, BigInt(denominator))
  const negative = scaled < 0
  const digits = String(negative ? -scaled : scaled).padStart(7, '0')
  return `${negative ? '-' : ''}${digits.slice(0, -6)}.${digits.slice(-6)}`
}

export function centsToSixDecimals(cents: number): string {
  return formatSixDecimals(cents, 100)
}

/** The listing's quantity: boxes (units ÷ FactorConversion) for a CJ line, otherwise units. */
export function listedQuantity(units: number, uniVenta: string | null, factor: number): string {
  const milli = toMilliUnits(units)
  return uniVenta === 'CJ' ? formatSixDecimals(milli, toMilliUnits(factor)) : formatSixDecimals(milli, 1000)
}

/** Contract v2's quantity: always units (cajas × FactorConversion + unidades), CJ lines too. */
export function unitsQuantity(units: number): string {
  return formatSixDecimals(toMilliUnits(units), 1000)
}

export function centsToAmount(cents: number): number {
  return cents / 100
}

function divideRounded(numerator: bigint, denominator: bigint): bigint {
  if (denominator < 0n) return divideRounded(-numerator, -denominator)
  const negative = numerator < 0n
  const magnitude = negative ? -numerator : numerator
  const quotient = (magnitude * 2n + denominator) / (denominator * 2n)
  return negative ? -quotient : quotient
}

/**
 * A count or quantity as the warehouse writes it: thousands grouped with commas, at most three
 * decimals (`1,250`, `2.5`). The console's `quantity` is this function.
 */
export function groupedQuantity(value: number): string {
  const thousandths = Math.round(Math.abs(value) * 1000)
  const whole = Math.floor(thousandths / 1000)
  const fraction = thousandths % 1000
  const sign = value < 0 && thousandths !== 0 ? '-' : ''
  return `${sign}${String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction === 0 ? '' : `.${String(fraction).padStart(3, '0').replace(/0+$/, '')}`}`
}

/** A line counted in boxes: sold by the box (UniVenta CJ) with more than one unit per box. */
export function isBoxLine(uniVenta: string | null | undefined, factor: number): boolean {
  return uniVenta === 'CJ' && Number.isSafeInteger(factor) && factor > 1
}

/**
 * Units of a box line as the warehouse counts them (issue 41): whole boxes first, then the loose
 * units — `10 cajas`, `8 cajas + 55 unid.`, `1 caja`, `55 unid.`; `0 cajas` for none. Every place
 * that shows a box line's quantity (invoice, return form and detail, exports) writes it with this.
 */
export function boxesAndUnits(units: number, factor: number): string {
  const { boxes, loose } = boxesAndLoose(units, factor)
  const boxText = `${groupedQuantity(boxes)} ${boxes === 1 ? 'caja' : 'cajas'}`
  if (loose === 0) return boxText
  return boxes === 0 ? `${groupedQuantity(loose)} unid.` : `${boxText} + ${groupedQuantity(loose)} unid.`
}

/** Units as whole boxes of `factor` and the loose units left over: 535 of 60 → 8 boxes and 55 units. */
export function boxesAndLoose(units: number, factor: number): { boxes: number; loose: number } {
  const milli = toMilliUnits(units)
  const perBox = toMilliUnits(factor)
  const boxes = perBox > 0 ? Math.floor(milli / perBox) : 0
  return { boxes, loose: (milli - boxes * perBox) / 1000 }
}

/** `535 unid.` */
export function unitsText(units: number): string {
  return `${groupedQuantity(units)} unid.`
}

/**
 * A line's quantity in one text: `8 cajas + 55 unid. (535 unid.)` on a box line (`10 cajas
 * (600 unid.)`), `535 unid.` otherwise and for less than a box.
 */
export function lineQuantityText(units: number, uniVenta: string | null | undefined, factor: number): string {
  // Less than a box (none included) is said in units alone.
  return isBoxLine(uniVenta, factor) && toMilliUnits(units) >= toMilliUnits(factor)
    ? `${boxesAndUnits(units, factor)} (${unitsText(units)})`
    : unitsText(units)
}
