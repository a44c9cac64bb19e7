import { LocalDate } from '@js-joda/core'
import type { Database } from '../db/database.ts'
import { invalidInput } from '../errors.ts'
import type { ListingCache } from './listing.cache.ts'
import { serializeListing } from './listing.serializer.ts'
import { findApprovedReturnsProcessedOn } from './returns.store.ts'

export const PAGE_SIZE = 1000

/**
 * The approved (not cancelled) returns processed on the `Fecha` date, ordered by id, 1000 per
 * page, as the UTF-8 bytes of the JSON text of interface-v1 §2.3 — from the cache when it has it.
 * @throws DomainError INVALID_INPUT for a missing or malformed Fecha or pagina.
 */
export function listProcessedReturns(deps: { db: Database; listing: ListingCache }, fecha: string | undefined, pagina: string | undefined): Buffer {
  const date = processingDate(fecha)
  const page = pageNumber(pagina)
  const cached = deps.listing.get(date, page)
  if (cached !== undefined) return cached
  const rows = findApprovedReturnsProcessedOn(deps.db, date, (page - 1) * PAGE_SIZE, PAGE_SIZE)
  const json = Buffer.from(serializeListing(rows), 'utf8')
  deps.listing.set(date, page, json)
  return json
}

const DAY_MONTH_YEAR = /^(\d{2})\/(\d{2})\/(\d{4})$/

/** `Fecha: dd/MM/yyyy`, exactly, and a real date (`1/2/2026` and `31/02/2026` are refused). */
function processingDate(header: string | undefined): string {
  if (header === undefined || header.trim() === '') {
    throw invalidInput('El encabezado Fecha es obligatorio, con el formato dd/MM/yyyy (por ejemplo 22/11/2026).')
  }
  const match = DAY_MONTH_YEAR.exec(header.trim())
  try {
    if (match) return LocalDate.of(Number(match[3]), Number(match[2]), Number(match[1])).toString()
  } catch {
    // an impossible date falls through to the same answer as a malformed one
  }
  throw invalidInput(`El encabezado Fecha tiene un formato inválido (${JSON.stringify(header)}): debe ser una fecha real en formato dd/MM/yyyy, por ejemplo 22/11/2026.`)
}

function pageNumber(query: string | undefined): number {
  if (query === undefined) return 1
  if (!/^[1-9][0-9]{0,8}$/.test(query)) {
    throw invalidInput(`El parámetro pagina debe ser un entero mayor o igual a 1 (se recibió ${JSON.stringify(query)}).`)
  }
  return Number(query)
}
