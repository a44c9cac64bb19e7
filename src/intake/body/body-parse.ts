import { constants } from 'node:buffer'
import { invalidInput } from '../../core/errors.ts'
import { byteOrderMarkLength } from '../../core/json-text.ts'
import { invalidUtf8Offset } from '../../core/unicode.ts'
import { BODY_INVALID_MESSAGE } from '../intake.answers.ts'
import { CLOSE_ARRAY, COMMA, OPEN_ARRAY, type BodyLayout, type BodyScan } from './body-scan.ts'
import type { TimeSlices } from '../../core/time-slices.ts'

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
    throw invalidInput(
      `${BODY_INVALID_MESSAGE} El cuerpo no es texto UTF-8 válido: el byte ${badByte} no forma parte de un carácter UTF-8. Envíe el lote codificado en UTF-8.`,
    )
  }
  if (scan.containers * CONTAINER_COST + scan.commas * VALUE_COST > scan.bytes + ALLOWANCE_BYTES) {
    throw invalidInput(
      `${BODY_INVALID_MESSAGE} Este cuerpo tiene demasiados valores JSON para su tamaño (${scan.containers} objetos o arreglos y ${scan.commas} comas en ${scan.bytes} bytes); un lote de facturas real tiene muchos menos. Revise cómo se genera el lote.`,
    )
  }
}

/**
 * Step 2, parsed: a non-empty JSON array (after `checkBatchBytes`), parsed a part at a time with
 * the event loop let in between (`slices`), never as one JSON.parse of the whole body. A body that
 * is only its array's top-level objects or arrays (a real batch always is) is parsed one element
 * at a time, from the places the scan found; any other is parsed by pieces of whole elements cut at
 * the array's commas (`BodyScan.pieceEnds`). Both answer what parsing the whole body answers: if
 * every part parses and the bytes between them are an array's punctuation, the whole body is that
 * array; if the whole body is JSON, the scan found its real elements and commas and each part
 * parses. The body never exists as one string either (as large as the body, twice that with any
 * character beyond Latin-1). A body too large for one string (over ~512 MB) keeps being refused.
 * @throws DomainError INVALID_INPUT (422) with the body-invalid answer.
 */
export async function parseBatchBody(
  body: Buffer,
  scan: Pick<BodyScan, 'layout' | 'pieceEnds'>,
  slices: TimeSlices,
): Promise<unknown[]> {
  const { layout } = scan
  let parsed: unknown[] | null
  try {
    if (layout !== null && isArrayOfElements(body, layout)) parsed = await parseElements(body, layout, slices)
    else parsed = body.length <= MAX_STRING_LENGTH ? await parsePieces(body, scan.pieceEnds, slices) : null
  } catch {
    parsed = null
  }
  if (parsed === null || parsed.length === 0) throw invalidInput(BODY_INVALID_MESSAGE)
  return parsed
}

async function parseElements(body: Buffer, layout: BodyLayout, slices: TimeSlices): Promise<unknown[]> {
  const elements = new Array<unknown>(layout.count)
  for (let i = 0; i < layout.count; i++) {
    // Each element starts and ends at an ASCII bracket: decoded alone, it is the same text as in the whole.
    elements[i] = JSON.parse(body.toString('utf8', layout.starts[i], layout.ends[i]))
    if (slices.due()) await slices.next()
  }
  return elements
}

/**
 * The body as `[`, pieces of elements separated at `pieceEnds` (commas), `]`, with JSON whitespace
 * around: each piece parsed as an array of its own. Null when the body is not an array or a piece
 * does not parse as one with at least one element (`[1,,2]` cut at either comma leaves a piece
 * that does not).
 */
async function parsePieces(body: Buffer, pieceEnds: readonly number[], slices: TimeSlices): Promise<unknown[] | null> {
  const open = skipWhitespace(body, byteOrderMarkLength(body))
  let close = body.length - 1
  while (close > open && isWhitespace(body[close]!)) close--
  if (body[open] !== OPEN_ARRAY || close <= open || body[close] !== CLOSE_ARRAY) return null
  const elements: unknown[] = []
  let start = open + 1
  for (const end of [...pieceEnds.filter((comma) => comma > open && comma < close), close]) {
    const piece = JSON.parse(`[${body.toString('utf8', start, end)}]`) as unknown[]
    // An empty piece: the whole body is `[]`, or two commas or a trailing comma meet here.
    if (piece.length === 0 && !(start === open + 1 && end === close)) return null
    for (const element of piece) elements.push(element)
    start = end + 1
    if (slices.due()) await slices.next()
  }
  return elements
}

function skipWhitespace(body: Buffer, from: number): number {
  let at = from
  while (at < body.length && isWhitespace(body[at]!)) at++
  return at
}

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09
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
    else if (!isWhitespace(byte)) return false
  }
  return marks === 1
}

const { MAX_STRING_LENGTH } = constants
