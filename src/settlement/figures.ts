import { centsToLempiras, lempirasText, microsToCents } from './cents.ts'
import type { SettlementPartView, SettlementView } from './settlement.schemas.ts'

/**
 * The settlement of a manifest, computed from what each warehouse part holds (issue 40, contract
 * §12). Pure: the same numbers come from the stored rows of one manifest and from the totals the
 * lists read, and both go through here.
 */
export interface PartMoney {
  almacen: string
  /** Σ of its invoices' Total in exact millionths, annulled re-issues left out. */
  countedMicros: number
  /** Σ of its approved returns, in cents. */
  approvedCents: number
  pendingReturns: number
  /** Σ of its active deposits, in cents. */
  depositedCents: number
  /** How many of its active deposits carry a justification (an overpayment may then stay). */
  justifiedDeposits: number
  adjustedCents: number
}

/** A part's figures in cents: facturado − devuelto = a depositar; a depositar − depositado − ajustes = diferencia. */
export interface PartFigures {
  facturado: number
  devuelto: number
  aDepositar: number
  depositado: number
  ajustes: number
  diferencia: number
}

export function figuresOf(part: PartMoney): PartFigures {
  const facturado = microsToCents(part.countedMicros)
  const aDepositar = facturado - part.approvedCents
  return {
    facturado,
    devuelto: part.approvedCents,
    aDepositar,
    depositado: part.depositedCents,
    ajustes: part.adjustedCents,
    diferencia: aDepositar - part.depositedCents - part.adjustedCents,
  }
}

/**
 * A part is settled when nothing is missing — its diferencia is 0, or negative with a justified
 * overpayment — and none of its returns waits for a decision.
 */
export function isSettled(part: PartMoney): boolean {
  return moneyOpen(part, figuresOf(part)) === null && part.pendingReturns === 0
}

/** What keeps a part's money open: the cents missing (> 0), or over without justification (< 0); null when settled. */
function moneyOpen(part: PartMoney, figures: PartFigures): number | null {
  if (figures.diferencia > 0) return figures.diferencia
  if (figures.diferencia < 0 && part.justifiedDeposits === 0) return figures.diferencia
  return null
}

/** What a part adds to the sentence of what is missing. */
interface Missing {
  short: string[]
  over: string[]
  pending: number
}

function missingOf(part: PartMoney, figures: PartFigures, into: Missing): void {
  const open = moneyOpen(part, figures)
  if (open !== null && open > 0) into.short.push(`${lempirasText(open)} del almacén ${part.almacen}`)
  if (open !== null && open < 0) into.over.push(`${lempirasText(-open)} del almacén ${part.almacen}`)
  into.pending += part.pendingReturns
}

/** The sentence of what is missing, or null when nothing is. */
function sentenceOf({ short, over, pending }: Missing): string | null {
  const clauses: string[] = []
  if (short.length > 0) clauses.push(`falta depositar ${listed(short)}`)
  if (over.length > 0)
    clauses.push(`sobran ${listed(over)} sin justificación (justifique el depósito de más o corríjalo)`)
  if (pending > 0) clauses.push(pending === 1 ? 'hay 1 devolución pendiente' : `hay ${pending} devoluciones pendientes`)
  if (clauses.length === 0) return null
  const sentence = `${clauses.join('; ')}.`
  return sentence.charAt(0).toUpperCase() + sentence.slice(1)
}

/**
 * What is missing to close, as one Spanish sentence ("Falta depositar L 1,234.50 del almacén OAC;
 * hay 2 devoluciones pendientes."), or null when every part is settled.
 */
export function missingSentence(parts: readonly PartMoney[]): string | null {
  const missing: Missing = { short: [], over: [], pending: 0 }
  for (const part of parts) missingOf(part, figuresOf(part), missing)
  return sentenceOf(missing)
}

/**
 * The settlement as the API shows it: per part and in total (the sum of the parts), and whether
 * the manifest may be closed now — it is open and, when `closeRequiresSettlement`, every part is
 * settled. `falta` says what is missing while it is open (null once closed). Each part's figures
 * are computed once (a list shows thousands of manifests).
 */
export function settlementView(
  parts: readonly PartMoney[],
  open: boolean,
  closeRequiresSettlement: boolean,
): SettlementView {
  const total: PartFigures = { facturado: 0, devuelto: 0, aDepositar: 0, depositado: 0, ajustes: 0, diferencia: 0 }
  const all: Missing = { short: [], over: [], pending: 0 }
  let settled = true
  const porAlmacen: SettlementPartView[] = parts.map((part) => {
    const figures = figuresOf(part)
    total.facturado += figures.facturado
    total.devuelto += figures.devuelto
    total.aDepositar += figures.aDepositar
    total.depositado += figures.depositado
    total.ajustes += figures.ajustes
    total.diferencia += figures.diferencia
    const mine: Missing = { short: [], over: [], pending: 0 }
    missingOf(part, figures, mine)
    const partSettled = mine.short.length === 0 && mine.over.length === 0 && mine.pending === 0
    settled &&= partSettled
    all.short.push(...mine.short)
    all.over.push(...mine.over)
    all.pending += mine.pending
    return {
      almacen: part.almacen,
      ...shown(figures),
      devoluciones_pendientes: part.pendingReturns,
      sobrepago_justificado: part.justifiedDeposits > 0,
      liquidada: partSettled,
      falta: open && !partSettled ? sentenceOf(mine) : null,
    }
  })
  return {
    ...shown(total),
    devoluciones_pendientes: all.pending,
    liquidada: settled,
    lista_para_cerrar: open && (settled || !closeRequiresSettlement),
    falta: open && !settled ? sentenceOf(all) : null,
    por_almacen: porAlmacen,
  }
}

function shown(figures: PartFigures) {
  return {
    facturado: centsToLempiras(figures.facturado),
    devuelto: centsToLempiras(figures.devuelto),
    a_depositar: centsToLempiras(figures.aDepositar),
    depositado: centsToLempiras(figures.depositado),
    ajustes: centsToLempiras(figures.ajustes),
    diferencia: centsToLempiras(figures.diferencia),
  }
}

/** `a`, `a y b`, `a, b y c`. */
function listed(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} y ${items[items.length - 1]}`
}
