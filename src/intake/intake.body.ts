import { invalidInput } from '../errors.ts'
import { parseJsonText } from '../json-text.ts'
import { invalidUtf8Offset } from '../unicode.ts'
import { BODY_INVALID_MESSAGE } from './intake.answers.ts'
import type { BodyScan } from './body-layout.ts'

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
 * Step 2, parsed: a non-empty JSON array (after `checkBatchBytes`).
 * @throws DomainError INVALID_INPUT (422) with the body-invalid answer.
 */
export function parseBatchBody(body: Buffer): unknown[] {
  let parsed: unknown
  try {
    parsed = parseJsonText(body.toString('utf8'))
  } catch {
    throw invalidInput(BODY_INVALID_MESSAGE)
  }
  if (!Array.isArray(parsed) || parsed.length === 0) throw invalidInput(BODY_INVALID_MESSAGE)
  return parsed
}
