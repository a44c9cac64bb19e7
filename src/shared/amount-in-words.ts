/**
 * An amount in lempiras written out in words as the invoices print it (Honduran usage, upper
 * case, with accents): "UN MIL DOSCIENTOS TREINTA Y CUATRO LEMPIRAS CON 56/100". Runs on the
 * server and in the console (its print views).
 *
 * The rules: "uno" becomes "un" before a noun or a power ("VEINTIÚN LEMPIRAS", "CIENTO UN MIL",
 * "UN MILLÓN"); thousands are said with their count, one included ("UN MIL", as Honduran
 * invoices write it); "CIEN" alone, "CIENTO" before more; "MILLÓN"/"MILLONES", with "DE" before
 * the currency when nothing follows them ("DOS MILLONES DE LEMPIRAS"); "LEMPIRA" for exactly one;
 * the cents always as two digits over 100 ("CON 05/100").
 */
export function amountInWords(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0 || cents >= MAX_CENTS)
    throw new RangeError(`monto fuera de rango: ${cents} centavos`)
  const lempiras = Math.floor(cents / 100)
  const fraction = String(cents % 100).padStart(2, '0')
  const currency = lempiras === 1 ? 'LEMPIRA' : 'LEMPIRAS'
  const words = lempiras === 0 ? 'CERO' : integerWords(lempiras)
  const joiner = lempiras > 0 && lempiras % 1_000_000 === 0 ? ' DE ' : ' '
  return `${words}${joiner}${currency} CON ${fraction}/100`
}

/** Up to 999,999,999,999.99 (a thousand million lempiras, less a cent). */
const MAX_CENTS = 100_000_000_000_000

/** A whole number from 1 to 999,999,999,999, "uno" shortened (it always comes before a noun here). */
function integerWords(value: number): string {
  const millions = Math.floor(value / 1_000_000)
  const rest = value % 1_000_000
  const parts: string[] = []
  if (millions > 0) parts.push(millions === 1 ? 'UN MILLÓN' : `${belowMillion(millions)} MILLONES`)
  if (rest > 0) parts.push(belowMillion(rest))
  return parts.join(' ')
}

function belowMillion(value: number): string {
  const thousands = Math.floor(value / 1000)
  const rest = value % 1000
  const parts: string[] = []
  if (thousands > 0) parts.push(`${belowThousand(thousands)} MIL`)
  if (rest > 0) parts.push(belowThousand(rest))
  return parts.join(' ')
}

function belowThousand(value: number): string {
  const hundreds = Math.floor(value / 100)
  const rest = value % 100
  if (hundreds === 0) return belowHundred(rest)
  if (rest === 0) return HUNDREDS_ALONE[hundreds]!
  return `${HUNDREDS[hundreds]} ${belowHundred(rest)}`
}

function belowHundred(value: number): string {
  if (value < 30) return UP_TO_TWENTY_NINE[value]!
  const units = value % 10
  return units === 0 ? TENS[value / 10]! : `${TENS[Math.floor(value / 10)]} Y ${UP_TO_TWENTY_NINE[units]}`
}

const UP_TO_TWENTY_NINE = [
  '',
  'UN',
  'DOS',
  'TRES',
  'CUATRO',
  'CINCO',
  'SEIS',
  'SIETE',
  'OCHO',
  'NUEVE',
  'DIEZ',
  'ONCE',
  'DOCE',
  'TRECE',
  'CATORCE',
  'QUINCE',
  'DIECISÉIS',
  'DIECISIETE',
  'DIECIOCHO',
  'DIECINUEVE',
  'VEINTE',
  'VEINTIÚN',
  'VEINTIDÓS',
  'VEINTITRÉS',
  'VEINTICUATRO',
  'VEINTICINCO',
  'VEINTISÉIS',
  'VEINTISIETE',
  'VEINTIOCHO',
  'VEINTINUEVE',
]
const TENS = ['', '', '', 'TREINTA', 'CUARENTA', 'CINCUENTA', 'SESENTA', 'SETENTA', 'OCHENTA', 'NOVENTA']
const HUNDREDS = [
  '',
  'CIENTO',
  'DOSCIENTOS',
  'TRESCIENTOS',
  'CUATROCIENTOS',
  'QUINIENTOS',
  'SEISCIENTOS',
  'SETECIENTOS',
  'OCHOCIENTOS',
  'NOVECIENTOS',
]
const HUNDREDS_ALONE = ['', 'CIEN', ...HUNDREDS.slice(2)]
