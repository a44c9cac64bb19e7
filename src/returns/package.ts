import { LocalDate, type Instant, type ZoneId } from '@js-joda/core'
import type { ClientContract } from '../config/contract.ts'
import { invalidInput } from '../core/errors.ts'
import { deadlineText, isWindowOpen } from './window.ts'

/**
 * A manifest's package of returns under contract v2 (issue 19): its approved returns reach the
 * supplier's listing all at once, at the first instant after its returns window closed, and from
 * then on the package is frozen — the supplier already has it. A manifest without a deadline
 * (created before the window was configured) has no package: each approved return is listed at
 * once, as in v1. Under v1 nothing is ever published as a package, and nothing freezes.
 */
export type PackageState =
  | { kind: 'none' }
  | { kind: 'no-deadline' }
  | { kind: 'pending'; lastDay: LocalDate }
  | { kind: 'published'; lastDay: LocalDate }

export function packageStateOf(
  contract: ClientContract,
  returnsDeadline: string | null,
  now: Instant,
  zone: ZoneId,
): PackageState {
  if (!contract.listing.completePackages) return { kind: 'none' }
  if (returnsDeadline === null) return { kind: 'no-deadline' }
  const lastDay = LocalDate.parse(returnsDeadline)
  return isWindowOpen(now, lastDay, zone) ? { kind: 'pending', lastDay } : { kind: 'published', lastDay }
}

/** The local day a package is published: the day after its window's last day, from 00:00:00. */
export function publicationDay(lastDay: LocalDate): LocalDate {
  return lastDay.plusDays(1)
}

/**
 * Why a return of a published package offers no action, in a sentence the console shows; null
 * when it may still change.
 */
export function frozenReason(state: PackageState, manifiesto: string): string | null {
  if (state.kind !== 'published') return null
  return (
    `El plazo de devoluciones del manifiesto ${manifiesto} cerró el ${deadlineText(state.lastDay)} y su paquete de devoluciones ` +
    `se publicó al proveedor: el proveedor ya lo tiene, así que sus devoluciones no se registran, aprueban, rechazan ni anulan más, ` +
    'y su plazo no se amplía.'
  )
}

/**
 * Refuses a change to a published package: registering, approving, rejecting or cancelling one of
 * its returns, or extending its deadline. @throws DomainError INVALID_INPUT (422) naming the close.
 */
export function requirePackageOpen(state: PackageState, manifiesto: string, action: string): void {
  if (state.kind !== 'published') return
  throw invalidInput(
    `No se puede ${action}: el plazo de devoluciones del manifiesto ${manifiesto} cerró el ${deadlineText(state.lastDay)} y su paquete ` +
      'de devoluciones ya se publicó al proveedor, que ya lo tiene. Un cambio ahora no le llegaría; trátelo con el proveedor directamente.',
  )
}
