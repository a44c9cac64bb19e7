import { createHash } from 'node:crypto'
import { canonicalJson } from './canonical-json.ts'
import { fingerprintOfInvoice } from './fingerprint.ts'
import { INVOICE_FIELDS, LINE_FIELDS, LINES_FIELD, textOf, type FieldSpec } from './invoice-fields.ts'

/** An invoice that passed step 3, with what the later steps need computed once. */
export interface ReceivedInvoice {
  /** 1-based position in the batch. */
  position: number
  /** The invoice as parsed, unknown fields included (never merged into other objects). */
  raw: Record<string, unknown>
  nfactura: string
  manifiesto: string
  almacen: string
  fechaFactura: string | number
  /** Economic fingerprint: what a re-issue under another number keeps (src/invoices/fingerprint.ts). */
  fingerprint: string
}

/** A parsed invoice that passed step 3 (src/intake/intake.structure.ts), with what the later steps read of it. */
export function receiveInvoice(position: number, nfactura: string, raw: Record<string, unknown>): ReceivedInvoice {
  return {
    position,
    raw,
    nfactura,
    manifiesto: textOf(raw.NumeroManifiesto as string | number),
    almacen: textOf(raw.Almacen as string | number),
    fechaFactura: raw.FechaFactura as string | number,
    fingerprint: fingerprintOfInvoice(raw),
  }
}

/** Hash of the normalised content (string fields as text, numeric fields as numbers): a held conflict's version. */
export function invoiceContentHash(raw: Record<string, unknown>): string {
  return sha256(canonicalJson(normalize(raw)))
}

/**
 * The invoice with every interface field in its own type (a number sent for a string field
 * becomes its decimal text, and the reverse), so two sendings of the same data compare equal.
 * Returns `raw` itself when nothing needed converting (the common case: no copy).
 */
export function normalize(raw: Record<string, unknown>): Record<string, unknown> {
  const lines = raw[LINES_FIELD] as Array<Record<string, unknown>>
  const normalizedLines = lines.map((line) => normalizeFields(line, LINE_FIELDS))
  const header = normalizeFields(raw, INVOICE_FIELDS)
  if (header === raw && normalizedLines.every((line, i) => line === lines[i])) return raw
  const copy = header === raw ? copyOf(raw) : header
  copy[LINES_FIELD] = normalizedLines
  return copy
}

function normalizeFields(
  object: Record<string, unknown>,
  fields: ReadonlyArray<FieldSpec<string>>,
): Record<string, unknown> {
  let copy: Record<string, unknown> | null = null
  for (const spec of fields) {
    const value = object[spec.name]
    const wanted = spec.kind === 'text' ? 'string' : 'number'
    if (value === undefined || value === null || typeof value === wanted) continue
    copy ??= copyOf(object)
    copy[spec.name] = spec.kind === 'text' ? textOf(value as number) : Number(value)
  }
  return copy ?? object
}

/** A copy without a prototype: a `__proto__` key from the client stays an ordinary key. */
function copyOf(object: Record<string, unknown>): Record<string, unknown> {
  const copy = Object.create(null) as Record<string, unknown>
  for (const key of Object.keys(object)) copy[key] = object[key]
  return copy
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}
