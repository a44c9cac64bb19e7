import { scopeOf, type Actor, type WarehouseScope } from '../access/actor.ts'
import { startOfLocalDay, today, type Clock } from '../core/clock.ts'
import type { Config } from '../config/config.ts'
import type { Database } from '../db/database.ts'
import type { ManifestState } from '../db/tables.ts'
import { DomainError, invalidInput, notFound } from '../core/errors.ts'
import { centsToLempiras } from './cents.ts'
import { missingSentence, settlementView, type PartMoney } from './figures.ts'
import type { SettlementView } from './settlement.schemas.ts'
import {
  findOpenManifestsMoney,
  findPartsOfManifest,
  findPartsOfManifests,
  findSettlementManifest,
  hasActiveDeposits,
  type SettlementManifestRow,
} from './settlement.store.ts'
import { sumDeposits } from './deposits.store.ts'

export interface SettlementDeps {
  db: Database
  clock: Clock
  config: Pick<Config, 'settlement'>
}

/** The settlement of one manifest as the actor's warehouses see it, summed from its stored rows. */
export function settlementOfManifest(
  deps: Pick<SettlementDeps, 'db' | 'config'>,
  manifest: { id: number; estado: ManifestState },
  scope: WarehouseScope,
): SettlementView {
  return settlementView(
    findPartsOfManifest(deps.db, manifest.id, scope),
    manifest.estado === 'imported',
    deps.config.settlement.closeRequiresSettlement,
  )
}

/** The settlements of a list's manifests (from the maintained totals), keyed by manifest id. */
export function settlementsOfManifests(
  deps: Pick<SettlementDeps, 'db' | 'config'>,
  manifests: ReadonlyArray<{ id: number; estado: ManifestState }>,
  scope: WarehouseScope,
): Map<number, SettlementView> {
  const parts = findPartsOfManifests(
    deps.db,
    manifests.map((manifest) => manifest.id),
    scope,
  )
  const close = deps.config.settlement.closeRequiresSettlement
  return new Map(
    manifests.map((manifest) => [
      manifest.id,
      settlementView(parts.get(manifest.id) ?? [], manifest.estado === 'imported', close),
    ]),
  )
}

/**
 * Closing needs the manifest settled when `settlement.closeRequiresSettlement`: every part's
 * diferencia 0 (or negative with a justified overpayment) and no pending return. A manifest whose
 * every invoice came back has nothing to deposit, and closes. Called inside the close's transaction.
 * @throws DomainError INVALID_TRANSITION (422) saying what is missing.
 */
export function requireSettledToClose(
  deps: Pick<SettlementDeps, 'db' | 'config'>,
  manifest: { id: number; numero: string },
): void {
  if (!deps.config.settlement.closeRequiresSettlement) return
  const missing = missingSentence(findPartsOfManifest(deps.db, manifest.id, null))
  if (missing === null) return
  throw new DomainError(
    'INVALID_TRANSITION',
    `No se puede cerrar el manifiesto ${manifest.numero}: ${missing.charAt(0).toLowerCase()}${missing.slice(1)} Registre lo que falta (o ajuste los centavos) y vuelva a cerrarlo.`,
  )
}

/**
 * Reopening a manifest with active deposits is the administrator's: the money it holds was
 * settled; reopened, its deposits and adjustments stay as they are.
 * @throws DomainError FORBIDDEN
 */
export function requireRightToReopen(db: Database, actor: Actor, manifest: { id: number; numero: string }): void {
  if (actor.kind === 'persona' && actor.rol === 'admin') return
  if (!hasActiveDeposits(db, manifest.id)) return
  throw new DomainError(
    'FORBIDDEN',
    `El manifiesto ${manifest.numero} tiene depósitos registrados: solo el administrador puede reabrirlo. Pídaselo al administrador.`,
  )
}

export interface SettlementPart {
  manifest: SettlementManifestRow
  /** The part acted on, as its stored rows give it now. */
  part: PartMoney
}

/**
 * The open manifest and the part of it a deposit or an adjustment is for: `almacen`, or the only
 * warehouse of the manifest the actor sees. @throws DomainError NOT_FOUND (manifest unknown or not
 * visible), INVALID_TRANSITION (closed), INVALID_INPUT (no such part, or which one is not said).
 */
export function requireOpenPart(
  db: Database,
  actor: Actor,
  numero: string,
  almacen: string | undefined,
  doing: string,
): SettlementPart {
  const scope = scopeOf(actor)
  const manifest = findSettlementManifest(db, numero, scope)
  if (manifest === undefined) throw notFound(`El manifiesto ${numero} no existe.`)
  if (manifest.estado === 'closed') {
    throw new DomainError(
      'INVALID_TRANSITION',
      `El manifiesto ${numero} está cerrado: no admite ${doing}. Si hace falta, un supervisor lo reabre (con depósitos, el administrador).`,
    )
  }
  const parts = findPartsOfManifest(db, manifest.id, scope)
  if (almacen === undefined) {
    if (parts.length > 1) {
      throw invalidInput(
        `almacen: el manifiesto ${numero} tiene facturas de ${parts.map((part) => part.almacen).join(', ')}: indique de qué almacén es (cada almacén se liquida por separado).`,
      )
    }
    return { manifest, part: parts[0]! }
  }
  const part = parts.find((candidate) => candidate.almacen === almacen)
  if (part === undefined) {
    throw invalidInput(
      `almacen: el manifiesto ${numero} no tiene facturas del almacén ${almacen} entre las suyas; sus almacenes en este manifiesto: ${parts.map((candidate) => candidate.almacen).join(', ')}.`,
    )
  }
  return { manifest, part }
}

/** Age groups of Inicio's open manifests with money missing, in days since the day they arrived. */
export const AGE_GROUPS: ReadonlyArray<{ from: number; to: number | null }> = [
  { from: 0, to: 2 },
  { from: 3, to: 7 },
  { from: 8, to: 15 },
  { from: 16, to: null },
]

export interface SettlementSummary {
  por_depositar: { monto: number; manifiestos: number }
  listos_para_cerrar: number
  depositos_hoy: { cantidad: number; monto: number }
  por_liquidar_por_antiguedad: Array<{
    desde_dias: number
    hasta_dias: number | null
    manifiestos: number
    por_depositar: number
  }>
}

/**
 * Inicio's money for the actor's warehouses: what is still to deposit on open manifests, how many
 * are settled (ready to close), the deposits registered today, and the open manifests not
 * settled by their age since arrival. One read of the open manifests' totals and one of today's deposits.
 */
export function getSettlementSummary(deps: Pick<SettlementDeps, 'db' | 'clock'>, actor: Actor): SettlementSummary {
  const scope = scopeOf(actor)
  const todayDate = today(deps.clock)
  let shortCents = 0
  let shortManifests = 0
  let ready = 0
  // Each group from the first instant of its oldest day: a manifest's age is a comparison of stored
  // instants (thousands of open manifests, no date arithmetic each).
  const groups = AGE_GROUPS.map((group) => ({
    desde_dias: group.from,
    hasta_dias: group.to,
    since: group.to === null ? '' : startOfLocalDay(deps.clock, todayDate.minusDays(group.to).toString()),
    manifiestos: 0,
    cents: 0,
  }))
  for (const manifest of findOpenManifestsMoney(deps.db, scope)) {
    if (manifest.short_cents > 0) {
      shortCents += manifest.short_cents
      shortManifests += 1
    }
    if (manifest.open_parts === 0) {
      ready += 1
      continue
    }
    const group = groups.find((candidate) => manifest.created_at >= candidate.since)!
    group.manifiestos += 1
    group.cents += manifest.short_cents
  }
  const todays = sumDeposits(deps.db, { registeredOn: todayDate.toString(), estado: 'active', scope })
  return {
    por_depositar: { monto: centsToLempiras(shortCents), manifiestos: shortManifests },
    listos_para_cerrar: ready,
    depositos_hoy: { cantidad: todays.count, monto: centsToLempiras(todays.cents) },
    por_liquidar_por_antiguedad: groups.map(({ cents, since: _since, ...group }) => ({
      ...group,
      por_depositar: centsToLempiras(cents),
    })),
  }
}
