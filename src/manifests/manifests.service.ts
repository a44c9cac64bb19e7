import { formatLocalDateTime, type Clock } from '../clock.ts'
import type { Database } from '../db/database.ts'
import type { ManifestState } from '../db/tables.ts'
import { notFound } from '../errors.ts'
import { microsToCentsAmount } from '../money.ts'
import { findManifestSummary } from './manifests.store.ts'

export interface ManifestStatus {
  manifiesto: string
  estado: ManifestState
  resumen: { total_facturas: number; total_importe: number; fecha_ingreso: string }
}

/**
 * The status view of interface-v1 §2.4: `total_importe` is the exact sum of the invoices' Total
 * rounded once to cents, `fecha_ingreso` the creation time in the configured zone.
 * @throws DomainError NOT_FOUND when no manifest has that number.
 */
export function getManifestStatus(db: Database, clock: Clock, numero: string): ManifestStatus {
  const row = findManifestSummary(db, numero)
  if (row === undefined) throw manifestNotFound(numero)
  return {
    manifiesto: row.numero,
    estado: row.estado,
    resumen: {
      total_facturas: row.invoice_count,
      total_importe: microsToCentsAmount(row.total_micros),
      fecha_ingreso: formatLocalDateTime(clock, row.created_at),
    },
  }
}

export function manifestNotFoundMessage(numero: string): string {
  return `El manifiesto ${numero} no existe.`
}

function manifestNotFound(numero: string) {
  return notFound(manifestNotFoundMessage(numero))
}
