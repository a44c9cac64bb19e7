/** The color of a diferencia: 0 green, short red, over amber (justified or not: the tag says which). */
export function tone(diferencia: number): string {
  return diferencia === 0 ? 'saldo-cero' : diferencia > 0 ? 'saldo-falta' : 'saldo-sobra'
}
