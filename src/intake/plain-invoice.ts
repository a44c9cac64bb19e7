import {
  INVOICE_FIELDS,
  LINE_FIELDS,
  LINES_FIELD,
  MANIFEST_NUMBER_PATTERN,
  MAX_AMOUNT,
  MAX_FACTOR,
  MAX_TEXT_LENGTH,
  type FieldSpec,
} from '../invoices/invoice-fields.ts'

/**
 * Step 3's quick yes: whether an invoice is in the plain form every real batch has. Each listed
 * field is a string within its length for a text field (not "" when required; digits for
 * NumeroManifiesto), a number within its limits for a
 * numeric one, or absent or null when optional; `LineasFactura` is a non-empty array of such
 * lines. Fields not listed are not looked at (they are kept, whatever they hold).
 *
 * It only ever says yes to what the compiled schema (`InvoiceSchema`) accepts; a test holds it to
 * that. A no decides nothing: the schema then checks the invoice and names its problems, so the
 * other accepted forms (a numeric string, an integer in a text field) are still accepted.
 *
 * Why beside the schema: the schema's code reads each field up to six times through nested
 * alternatives, and on a fresh service most of a batch runs before V8 optimises it: the
 * supplier's 1,000 invoices took ~5.5 ms there, ~3 here, reading each field once.
 */
export const isPlainInvoice = compilePlainCheck()

function compilePlainCheck(): (invoice: unknown) => boolean {
  const source = `return function isPlainInvoice(invoice) {
  if (!isObject(invoice)) return false
  let value
  ${INVOICE_FIELDS.map((spec) => fieldCheck('invoice', spec)).join('\n  ')}
  const lines = invoice[${JSON.stringify(LINES_FIELD)}]
  if (!Array.isArray(lines) || lines.length === 0) return false
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]
    if (!isObject(line)) return false
    ${LINE_FIELDS.map((spec) => fieldCheck('line', spec)).join('\n    ')}
  }
  return true
}`
  return new Function('isObject', source)(isObject) as (invoice: unknown) => boolean
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** One field's statement: read it once, return false unless it is in its plain form. */
function fieldCheck(object: string, spec: FieldSpec<string>): string {
  const plain = plainForm(spec)
  const accepted = spec.required ? plain : `value === undefined || value === null || (${plain})`
  return `value = ${object}[${JSON.stringify(spec.name)}]; if (!(${accepted})) return false`
}

/** The schema's first alternative for the field's kind (src/intake/intake.schemas.ts), written for `value`. */
function plainForm(spec: FieldSpec<string>): string {
  switch (spec.kind) {
    case 'text':
      // UTF-16 units ≥ code points: within the limit in units is within it in code points (the
      // schema's count); a longer string of astral characters is left to the schema.
      if (spec.digits) return `typeof value === 'string' && /${MANIFEST_NUMBER_PATTERN}/.test(value)`
      return `typeof value === 'string' && value.length <= ${spec.maxLength ?? MAX_TEXT_LENGTH}${spec.required ? ' && value.length !== 0' : ''}`
    case 'integer':
      return 'Number.isSafeInteger(value)'
    case 'factor':
      return `Number.isInteger(value) && value >= 1 && value <= ${MAX_FACTOR}`
    case 'number':
      // A comparison is false for NaN, and the range excludes the infinities.
      return `typeof value === 'number' && value >= ${spec.nonNegative ? 0 : -MAX_AMOUNT} && value <= ${MAX_AMOUNT}`
  }
}
