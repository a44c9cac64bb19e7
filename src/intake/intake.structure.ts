import { createHash } from 'node:crypto'
import { Compile } from 'typebox/compile'
import {
  codePointCount,
  findMalformedText,
  findText,
  isLongerThan,
  isWellFormed,
  type FoundText,
} from '../core/unicode.ts'
import { CanonicalWriter, MalformedTextError, MAX_NESTING, NestingTooDeepError } from '../invoices/canonical-json.ts'
import { problemsOf, shown } from '../schemas/schema-errors.ts'
import { INVOICE_FIELDS, LINE_FIELDS, LINES_FIELD, MAX_TEXT_LENGTH, textOf } from '../invoices/invoice-fields.ts'
import { receiveInvoice, type ReceivedInvoice } from '../invoices/received-invoice.ts'
import { InvoiceSchema } from './intake.schemas.ts'
import { isPlainInvoice } from './plain-invoice.ts'
import type { TimeSlices } from '../core/time-slices.ts'

export type StructureResult =
  | { ok: true; invoices: ReceivedInvoice[] }
  | { ok: false; errors: string[]; total: number; /** false when counting stopped early */ complete: boolean }

export const MAX_LISTED_ERRORS = 200

/**
 * What the body's bytes tell about every invoice at once (src/intake/body/body-scan.ts): whether
 * some invoice may nest too deeply or hold a lone surrogate. Only then is each invoice walked
 * for them (a real batch never needs it).
 */
export interface BodyHints {
  maxDepth: number
  mayHoldLoneSurrogate: boolean
  /** The most bytes of any string of the body (src/intake/body/body-scan.ts): at least its characters. */
  longestStringBytes: number
}

/**
 * Step 3: each invoice checked by the compiled TypeBox schema (required fields, accepted types,
 * limits; one in the plain form every real batch has is accepted without it, see
 * src/intake/plain-invoice.ts), then the batch-wide rule (an Nfactura only once), the nesting
 * limit and valid Unicode.
 * Problems are named by position, Nfactura and field. The first 200 are listed; counting goes on
 * for at most 10,000 more invoices, so a body of millions of broken entries is answered at once.
 * The event loop is let in between invoices (`slices`).
 */
export async function checkStructure(
  batch: readonly unknown[],
  hints: BodyHints,
  slices: TimeSlices,
): Promise<StructureResult> {
  const problems = new ProblemList()
  const invoices: ReceivedInvoice[] = []
  // The body's own array adds one level to the invoices' nesting.
  const walk = hints.mayHoldLoneSurrogate || hints.maxDepth > MAX_NESTING + 1 ? new CanonicalWriter() : null
  const firstPosition = new Map<string, number>()

  for (let index = 0; index < batch.length; index++) {
    if (slices.due()) await slices.next()
    if (problems.exhausted()) {
      problems.stopAt(index + 1, batch.length)
      break
    }
    const position = index + 1
    const value = batch[index]
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      problems.add(`Factura #${position}: debe ser un objeto JSON (se recibió ${shown(value)})`)
      continue
    }
    const raw = value as Record<string, unknown>
    const label = invoiceLabel(position, raw)
    if (!isPlainInvoice(raw) && !validator.Check(raw)) {
      for (const message of describeSchemaErrors(raw)) problems.add(`${label}: ${message}`)
      continue
    }
    const nfactura = textOf(raw.Nfactura as string | number)
    const earlier = firstPosition.get(nfactura)
    if (earlier !== undefined) {
      problems.add(`${label}: Nfactura repetido en el lote (ya aparece en la factura #${earlier})`)
      continue
    }
    firstPosition.set(nfactura, position)
    const duplicateLine = findDuplicateLineNumber(raw[LINES_FIELD] as Array<Record<string, unknown>>)
    if (duplicateLine !== null) {
      problems.add(`${label}: NumeroLinea ${duplicateLine} repetido en LineasFactura`)
      continue
    }
    // The schema limits the listed fields; the extra ones are measured only when some string of
    // the body is longer in bytes than the limit in characters (a real batch: never).
    const overlong =
      hints.longestStringBytes > MAX_TEXT_LENGTH ? findText(raw, (text) => isLongerThan(text, MAX_TEXT_LENGTH)) : null
    if (overlong !== null) {
      problems.add(`${label}: ${overlongText(overlong)}`)
      continue
    }
    try {
      walk?.write(raw)
      invoices.push(receiveInvoice(position, nfactura, raw))
    } catch (error) {
      if (error instanceof NestingTooDeepError) problems.add(`${label}: ${error.message} en sus campos`)
      else if (error instanceof MalformedTextError)
        problems.add(`${label}: ${fieldPath(findMalformedText(raw) ?? 'un campo')}: ${error.message}`)
      else throw error
    }
  }

  if (problems.total === 0) return { ok: true, invoices }
  return { ok: false, errors: problems.listing(), total: problems.total, complete: problems.complete }
}

/** Beyond the listed problems, how many more invoices are checked just to count theirs. */
const MAX_CHECKED_AFTER_LISTING = 10_000

class ProblemList {
  total = 0
  complete = true
  private readonly listed: string[] = []
  private checkedAfterListing = 0
  private stoppedAt: { position: number; of: number } | null = null

  add(message: string): void {
    this.total += 1
    if (this.listed.length < MAX_LISTED_ERRORS) this.listed.push(message)
  }

  /** Called once per invoice: true when enough have been counted past the listing. */
  exhausted(): boolean {
    if (this.total < MAX_LISTED_ERRORS) return false
    this.checkedAfterListing += 1
    return this.checkedAfterListing > MAX_CHECKED_AFTER_LISTING
  }

  stopAt(position: number, of: number): void {
    this.stoppedAt = { position, of }
    this.complete = false
  }

  listing(): string[] {
    const rest = this.total - this.listed.length
    if (this.stoppedAt !== null) {
      return [
        ...this.listed,
        `… y al menos ${rest} errores más; no se revisaron las facturas desde la #${this.stoppedAt.position} (el lote tiene ${this.stoppedAt.of})`,
      ]
    }
    return rest > 0 ? [...this.listed, `… y ${rest} errores más`] : this.listed
  }
}

const validator = Compile(InvoiceSchema)

/**
 * The batch's content hash (contract §3a): over the canonical text of each invoice as sent, so
 * key order and formatting do not count. Only computed when an earlier batch of the day has the
 * same invoice numbers (src/intake/intake.duplicates.ts). Fed an invoice at a time, so the work
 * can be cut into slices.
 */
export class BatchContentHash {
  private readonly canonical = new CanonicalWriter()
  private readonly hash = createHash('sha256')

  /** @throws NestingTooDeepError, MalformedTextError (never after step 3 passed) */
  add(invoice: unknown): void {
    this.hash.update(sha256(this.canonical.write(invoice)))
  }

  digest(): string {
    return this.hash.digest('hex')
  }
}

/** `BatchContentHash` of a whole batch at once. */
export function batchContentHash(batch: readonly unknown[]): string {
  const hash = new BatchContentHash()
  for (const invoice of batch) hash.add(invoice)
  return hash.digest()
}

function findDuplicateLineNumber(lines: ReadonlyArray<Record<string, unknown>>): number | null {
  const seen = new Set<number>()
  for (const line of lines) {
    const numero = Number(line.NumeroLinea)
    if (seen.has(numero)) return numero
    seen.add(numero)
  }
  return null
}

/**
 * The schema's problems with one invoice, named as the client knows its fields: `falta el campo
 * Almacen`, `línea #2: Total debe ser … (se recibió "x")`.
 */
function describeSchemaErrors(raw: Record<string, unknown>): string[] {
  return problemsOf(validator, raw, Number.POSITIVE_INFINITY).map((problem) => {
    const inLine = problem.path[0] === LINES_FIELD && problem.path.length >= 2
    const where = inLine ? `línea #${Number(problem.path[1]) + 1}: ` : ''
    const field = inLine ? problem.path.slice(2).join('.') : problem.path.join('.')
    const missing =
      problem.kind === 'missing' || (isRequired(inLine, field) && (problem.value === null || problem.value === ''))
    if (missing) return `${where}falta el campo ${field}`
    const received = problem.keyword === 'minItems' ? '' : ` (se recibió ${shown(problem.value)})`
    return `${where}${field === '' ? '' : `${field} `}${problem.phrase}${received}`
  })
}

function isRequired(inLine: boolean, field: string): boolean {
  return (inLine ? LINE_FIELDS : INVOICE_FIELDS).some((spec) => spec.name === field && spec.required)
}

/** A text over the limit, named by its field (a field's name itself may be the long text). */
function overlongText(found: FoundText): string {
  const count = codePointCount(found.text).toLocaleString('en-US')
  if (!found.isKey) return `${fieldPath(found.path)} tiene ${count} caracteres; el máximo es ${MAX_TEXT_LENGTH}`
  const parent = found.path.slice(0, Math.max(0, found.path.length - found.text.length - 1))
  return `${parent === '' ? '' : `${fieldPath(parent)}: `}un nombre de campo tiene ${count} caracteres; el máximo es ${MAX_TEXT_LENGTH}`
}

/** `LineasFactura[1].ProductoDesc` → `línea #2: ProductoDesc`, as the other messages name line fields. */
function fieldPath(path: string): string {
  const match = /^LineasFactura\[(\d+)\](?:\.(.*))?$/.exec(path)
  if (match === null) return path
  return match[2] === undefined ? `línea #${Number(match[1]) + 1}` : `línea #${Number(match[1]) + 1}: ${match[2]}`
}

function invoiceLabel(position: number, raw: Record<string, unknown>): string {
  const nfactura = raw.Nfactura
  const known =
    (typeof nfactura === 'string' && nfactura !== '' && isWellFormed(nfactura)) ||
    (typeof nfactura === 'number' && Number.isSafeInteger(nfactura))
  return known ? `Factura #${position} (Nfactura ${textOf(nfactura)})` : `Factura #${position}`
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}
