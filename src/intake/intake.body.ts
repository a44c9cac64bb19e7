import { constants } from 'node:buffer'
import { invalidInput } from '../errors.ts'
import { byteOrderMarkLength, parseJsonText } from '../json-text.ts'
import { invalidUtf8Offset } from '../unicode.ts'
import { BODY_INVALID_MESSAGE } from './intake.answers.ts'
import { CLOSE_ARRAY, COMMA, OPEN_ARRAY, type BodyLayout, type BodyScan } from './body-layout.ts'

/**
 * What JSON.parse may be asked to build, in "bytes": an object or array costs 32, any other value
 * (a comma) 8. Real batches cost under half their size; a body that costs more than its size plus
 * 16 MB is refused before parsing, so the largest body of any shape is parsed in seconds and about
 * a gigabyte at worst (a body of a million `{}` would otherwise take minutes and gigabytes).
 */
const CONTAINER_COST = 32
const VALUE_COST = 8
const ALLOWANCE_BYTES = 16 * 1024 * 1024

/**
 * Step 2, on the bytes: the body is UTF-8 and not absurdly dense (checked before JSON.parse is
 * asked to build anything).
 * @throws DomainError INVALID_INPUT (422) with the body-invalid answer and what is wrong.
 */
export function checkBatchBytes(body: Buffer, scan: BodyScan): void {
  const badByte = invalidUtf8Offset(body)
  if (badByte !== -1) {
    throw invalidInput(`${BODY_INVALID_MESSAGE} El cuerpo no es texto UTF-8 válido: el byte ${badByte} no forma parte de un carácter UTF-8. Envíe el lote codificado en UTF-8.`)
  }
  if (scan.containers * CONTAINER_COST + scan.commas * VALUE_COST > scan.bytes + ALLOWANCE_BYTES) {
    throw invalidInput(
      `${BODY_INVALID_MESSAGE} Este cuerpo tiene demasiados valores JSON para su tamaño (${scan.containers} objetos o arreglos y ${scan.commas} comas en ${scan.bytes} bytes); un lote de facturas real tiene muchos menos. Revise cómo se genera el lote.`,
    )
  }
}

/**
 * Step 2, parsed: a non-empty JSON array (after `checkBatchBytes`). A body that is only its
 * array's top-level objects or arrays (a real batch always is) is parsed one element at a time,
 * from the places the scan found, and answers what parsing it whole answers: if every element
 * parses and the bytes between them are an array's punctuation, the whole body is that array;
 * if the whole body is JSON, the scan found its real elements and each of them parses. But the
 * body never exists as one string (as large as the body, twice that with any character beyond
 * Latin-1): ~55 MB less at the peak of a 56 MB batch, and less for the garbage collector to move.
 * Anything else (top-level scalars, text around the array) is parsed whole, and so is a body too
 * large for one string (over ~512 MB), which keeps being refused as it always was.
 * @throws DomainError INVALID_INPUT (422) with the body-invalid answer.
 */
export function parseBatchBody(body: Buffer, layout: BodyLayout | null): unknown[] {
  const byElement = layout !== null && body.length <= MAX_STRING_LENGTH && isArrayOfElements(body, layout)
  let parsed: unknown
  try {
    parsed = byElement ? parseElements(body, layout) : parseJsonText(body.toString('utf8'))
  } catch {
    throw invalidInput(BODY_INVALID_MESSAGE)
  }
  if (!Array.isArray(parsed) || parsed.length === 0) throw invalidInput(BODY_INVALID_MESSAGE)
  return parsed
}

function parseElements(body: Buffer, layout: BodyLayout): unknown[] {
  const elements = new Array<unknown>(layout.count)
  // Each element starts and ends at an ASCII bracket: decoded alone, it is the same text as in the whole.
  for (let i = 0; i < layout.count; i++) elements[i] = JSON.parse(body.toString('utf8', layout.starts[i], layout.ends[i]))
  return elements
}

/**
 * Whether the bytes outside the layout's elements are exactly an array's punctuation: an optional
 * byte-order mark, `[`, the elements separated by single commas, `]`, and JSON whitespace around.
 */
export function isArrayOfElements(body: Buffer, layout: BodyLayout): boolean {
  const { count, starts, ends } = layout
  if (count === 0) return false
  const from = byteOrderMarkLength(body)
  if (!isPunctuation(body, from, starts[0]!, OPEN_ARRAY)) return false
  for (let i = 1; i < count; i++) if (!isPunctuation(body, ends[i - 1]!, starts[i]!, COMMA)) return false
  return isPunctuation(body, ends[count - 1]!, body.length, CLOSE_ARRAY)
}

/** Bytes `from..to` are JSON whitespace around exactly one `mark`. */
function isPunctuation(body: Buffer, from: number, to: number, mark: number): boolean {
  let marks = 0
  for (let i = from; i < to; i++) {
    const byte = body[i]!
    if (byte === mark) marks++
    else if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) return false
  }
  return marks === 1
}

const { MAX_STRING_LENGTH } = constants
