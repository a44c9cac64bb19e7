import type { StaticDecode } from 'typebox'
import { auditedBy, narrowedScope, scopeOf, type Actor, type WarehouseScope } from '../access/actor.ts'
import { insertAuditEntry } from '../audit/audit.store.ts'
import { formatLocalDateTime, localDateOf, localDateTime, today, toStoredInstant } from '../core/clock.ts'
import { transaction, type Database } from '../db/database.ts'
import { DomainError, invalidInput, notFound } from '../core/errors.ts'
import { pageAnswer, pageWindow } from '../schemas/paging.ts'
import { centsToLempiras, exactCents, lempirasText } from './cents.ts'
import { figuresOf, type PartMoney } from './figures.ts'
import {
  DEPOSIT_PAGE_SIZE,
  type CancelDepositBody,
  type DepositChangeBody,
  type DepositPage,
  type DepositView,
  type NewDepositBody,
} from './settlement.schemas.ts'
import { requireOpenPart, type SettlementDeps } from './settlement.service.ts'
import { findSettlementManifest } from './settlement.store.ts'
import {
  findActiveSlip,
  findDeposit,
  findDeposits,
  findDepositsOfManifest,
  insertDeposit,
  sumDeposits,
  updateDeposit,
  type DepositChanges,
  type DepositFilters,
  type DepositRow,
} from './deposits.store.ts'

/**
 * Registers a bank deposit of one part of an open manifest (issue 40): amount in cents, the slip's
 * date (not future, not before the manifest arrived), a configured bank, the slip number (unique
 * with its bank among active deposits), and a justification when it leaves more deposited (with
 * the adjustments) than there is to deposit. Audited. Nothing is written on any refusal.
 * @throws DomainError NOT_FOUND, INVALID_TRANSITION (closed), INVALID_INPUT (422 naming the rule).
 */
export function registerDeposit(
  deps: SettlementDeps,
  actor: Actor,
  numero: string,
  body: StaticDecode<typeof NewDepositBody>,
): DepositView {
  const { db, clock } = deps
  return transaction(db, () => {
    const { manifest, part } = requireOpenPart(db, actor, numero, body.almacen, 'depósitos nuevos')
    const cents = exactCents(body.monto)!
    requireSlipDate(deps, body.fecha, manifest.created_at)
    const banco = configuredBank(deps, body.banco)
    const referencia = body.referencia.trim()
    requireUniqueSlip(db, actor, banco, referencia, null)
    const justificacion = trimmedOrNull(body.justificacion)
    requireJustifiedOverpayment(
      part,
      part.depositedCents + cents,
      justificacion,
      `El depósito de ${lempirasText(cents)}`,
      manifest.numero,
    )
    const at = clock.now()
    const id = insertDeposit(db, {
      manifest_id: manifest.id,
      almacen: part.almacen,
      amount_cents: cents,
      fecha: body.fecha,
      banco,
      referencia,
      referencia_clave: slipKey(referencia),
      notas: trimmedOrNull(body.notas),
      justificacion,
      registered_at: toStoredInstant(at),
      registered_date: localDateTime(clock, at).toLocalDate().toString(),
      registered_by: actor.nombre,
    })
    const view = depositView(deps, findDeposit(db, id, null)!)
    audit(deps, actor, 'deposito.registrado', view, { after: view })
    return view
  })
}

/**
 * Changes a deposit while its manifest is open and it is active: the same rules as registering,
 * with the deposit itself left out of what is already deposited. Audited with before and after.
 * @throws DomainError NOT_FOUND, INVALID_TRANSITION (closed manifest, cancelled deposit), INVALID_INPUT
 */
export function changeDeposit(
  deps: SettlementDeps,
  actor: Actor,
  id: string,
  body: StaticDecode<typeof DepositChangeBody>,
): DepositView {
  const { db, clock } = deps
  return transaction(db, () => {
    const current = requireChangeableDeposit(db, actor, id, 'modificar')
    const { manifest, part } = requireOpenPart(
      db,
      actor,
      current.manifiesto,
      current.almacen,
      'cambios en sus depósitos',
    )
    const changes: DepositChanges = {}
    const cents = body.monto === undefined ? current.amount_cents : exactCents(body.monto)!
    if (cents !== current.amount_cents) changes.amount_cents = cents
    if (body.fecha !== undefined && body.fecha !== current.fecha) {
      requireSlipDate(deps, body.fecha, manifest.created_at)
      changes.fecha = body.fecha
    }
    const banco = body.banco === undefined ? current.banco : configuredBank(deps, body.banco)
    const referencia = body.referencia === undefined ? current.referencia : body.referencia.trim()
    if (banco !== current.banco || referencia !== current.referencia) {
      requireUniqueSlip(db, actor, banco, referencia, current.id)
      Object.assign(changes, { banco, referencia, referencia_clave: slipKey(referencia) })
    }
    if (body.notas !== undefined && trimmedOrNull(body.notas) !== current.notas)
      changes.notas = trimmedOrNull(body.notas)
    const justificacion = body.justificacion === undefined ? current.justificacion : trimmedOrNull(body.justificacion)
    if (justificacion !== current.justificacion) changes.justificacion = justificacion
    const before = depositView(deps, current)
    if (Object.keys(changes).length === 0) return before
    requireJustifiedOverpayment(
      part,
      part.depositedCents - current.amount_cents + cents,
      justificacion,
      `Con ${lempirasText(cents)}, el depósito ${current.id}`,
      manifest.numero,
    )
    updateDeposit(db, current.id, { ...changes, updated_at: toStoredInstant(clock.now()), updated_by: actor.nombre })
    const after = depositView(deps, findDeposit(db, current.id, null)!)
    audit(deps, actor, 'deposito.modificado', after, { before, after })
    return after
  })
}

/**
 * Cancels a deposit (it stops counting; it is kept, never deleted) while its manifest is open.
 * @throws DomainError NOT_FOUND, INVALID_TRANSITION (closed manifest, already cancelled)
 */
export function cancelDeposit(
  deps: SettlementDeps,
  actor: Actor,
  id: string,
  body: StaticDecode<typeof CancelDepositBody>,
): DepositView {
  const { db, clock } = deps
  return transaction(db, () => {
    const current = requireChangeableDeposit(db, actor, id, 'anular')
    requireOpenPart(db, actor, current.manifiesto, current.almacen, 'cambios en sus depósitos')
    const before = depositView(deps, current)
    const motivo = body.motivo.trim()
    updateDeposit(db, current.id, {
      estado: 'cancelled',
      cancelled_at: toStoredInstant(clock.now()),
      cancelled_by: actor.nombre,
      cancel_note: motivo,
    })
    const after = depositView(deps, findDeposit(db, current.id, null)!)
    audit(deps, actor, 'deposito.anulado', after, { before, after, motivo })
    return after
  })
}

/** One deposit of the actor's warehouses. @throws DomainError NOT_FOUND */
export function getDeposit(deps: SettlementDeps, actor: Actor, id: string): DepositView {
  return depositView(deps, requireDeposit(deps.db, actor, id))
}

/** A manifest's deposits in the actor's warehouses, every state, in the order registered. @throws DomainError NOT_FOUND */
export function listManifestDeposits(deps: SettlementDeps, actor: Actor, numero: string): DepositView[] {
  const scope = scopeOf(actor)
  const manifest = findSettlementManifest(deps.db, numero, scope)
  if (manifest === undefined) throw notFound(`El manifiesto ${numero} no existe.`)
  return findDepositsOfManifest(deps.db, manifest.id, scope).map((row) => depositView(deps, row))
}

export interface DepositListFilters {
  desde?: string
  hasta?: string
  banco?: string
  almacen?: string
  estado?: 'active' | 'cancelled'
  registrado?: string
  pagina?: number
}

/** The deposit list's filters as the store takes them, narrowed to the actor's warehouses. */
export function depositFiltersOf(actor: Actor, filters: DepositListFilters): DepositFilters {
  return {
    scope: narrowedScope(actor, filters.almacen),
    ...(filters.desde === undefined ? {} : { from: filters.desde }),
    ...(filters.hasta === undefined ? {} : { to: filters.hasta }),
    ...(filters.banco === undefined ? {} : { banco: filters.banco }),
    // A cancelled deposit is no money: listed and summed only when asked for (never with the active ones).
    estado: filters.estado ?? 'active',
    ...(filters.registrado === undefined ? {} : { registeredOn: filters.registrado }),
  }
}

/**
 * Deposits of the actor's warehouses by slip date (newest first), bank, warehouse, state and day
 * registered, a page at a time, with the totals of all that match, by bank and by warehouse.
 */
export function listDeposits(deps: SettlementDeps, actor: Actor, filters: DepositListFilters): DepositPage {
  const where = depositFiltersOf(actor, filters)
  const request = { page: filters.pagina ?? 1, size: DEPOSIT_PAGE_SIZE }
  const rows = findDeposits(deps.db, where, pageWindow(request))
  const sums = sumDeposits(deps.db, where)
  return {
    ...pageAnswer(
      'depositos',
      rows.map((row) => depositView(deps, row)),
      request,
      sums.count,
    ),
    totales: {
      cantidad: sums.count,
      monto: centsToLempiras(sums.cents),
      por_banco: sums.byBank.map((bank) => ({
        banco: bank.banco,
        cantidad: bank.count,
        monto: centsToLempiras(bank.cents),
      })),
      por_almacen: sums.byWarehouse.map((warehouse) => ({
        almacen: warehouse.almacen,
        cantidad: warehouse.count,
        monto: centsToLempiras(warehouse.cents),
      })),
    },
  }
}

/** A deposit of the actor's warehouses. @throws DomainError NOT_FOUND */
export function requireDeposit(db: Database, actor: Actor, id: string): DepositRow {
  const row = findDeposit(db, Number(id), scopeOf(actor))
  if (row === undefined) throw notFound(`No existe el depósito ${id}.`)
  return row
}

/** A deposit that may still change: active, of an open manifest. @param doing what is done to it (`modificar`, `anular`). @throws DomainError NOT_FOUND, INVALID_TRANSITION */
export function requireChangeableDeposit(db: Database, actor: Actor, id: string, doing: string): DepositRow {
  const row = requireDeposit(db, actor, id)
  if (row.estado === 'cancelled')
    throw new DomainError(
      'INVALID_TRANSITION',
      `El depósito ${id} está anulado: ya no se puede ${doing}. Registre uno nuevo si hace falta.`,
    )
  if (row.manifest_estado === 'closed') {
    throw new DomainError(
      'INVALID_TRANSITION',
      `El manifiesto ${row.manifiesto} del depósito ${id} está cerrado: el depósito ya no se puede ${doing}. Si hace falta, el administrador reabre el manifiesto.`,
    )
  }
  return row
}

/** How a deposit is shown. */
export function depositView(deps: Pick<SettlementDeps, 'clock'>, row: DepositRow): DepositView {
  const at = (instant: string | null) => (instant === null ? null : formatLocalDateTime(deps.clock, instant))
  return {
    id: String(row.id),
    manifiesto: row.manifiesto,
    almacen: row.almacen,
    monto: centsToLempiras(row.amount_cents),
    fecha: row.fecha,
    banco: row.banco,
    referencia: row.referencia,
    notas: row.notas,
    justificacion: row.justificacion,
    estado: row.estado,
    registrado_por: row.registered_by,
    registrado_en: formatLocalDateTime(deps.clock, row.registered_at),
    modificado_por: row.updated_by,
    modificado_en: at(row.updated_at),
    anulado_por: row.cancelled_by,
    anulado_en: at(row.cancelled_at),
    motivo_anulacion: row.cancel_note,
    comprobante:
      row.receipt_type === null || row.receipt_at === null
        ? null
        : {
            tipo: row.receipt_type,
            bytes: row.receipt_bytes ?? 0,
            subido_en: formatLocalDateTime(deps.clock, row.receipt_at),
            subido_por: row.receipt_by ?? '',
            disponible: row.receipt_pruned_at === null,
            eliminado_en: at(row.receipt_pruned_at),
          },
  }
}

/** The slip number as compared for duplicates: upper case, without blanks, dashes, dots or slashes. */
export function slipKey(referencia: string): string {
  return referencia.toLocaleUpperCase('es').replace(/[\s\-./]/g, '')
}

/** Records a change of a deposit in the audit log (the deposit's own history; its manifest and warehouse in the detail). */
export function audit(
  deps: SettlementDeps,
  actor: Actor,
  action: string,
  deposit: DepositView,
  entry: { before?: DepositView; after?: DepositView; motivo?: string; detail?: Record<string, unknown> },
): void {
  insertAuditEntry(deps.db, {
    at: toStoredInstant(deps.clock.now()),
    ...auditedBy(actor),
    action,
    subjectType: 'deposito',
    subjectId: deposit.id,
    before: entry.before === undefined ? null : JSON.stringify(entry.before),
    after: entry.after === undefined ? null : JSON.stringify(entry.after),
    detail: {
      manifiesto: deposit.manifiesto,
      almacen: deposit.almacen,
      ...(entry.motivo === undefined ? {} : { motivo: entry.motivo }),
      ...entry.detail,
    },
  })
}

function requireSlipDate(deps: SettlementDeps, fecha: string, manifestCreatedAt: string): void {
  const todayDate = today(deps.clock).toString()
  if (fecha > todayDate)
    throw invalidInput(
      `fecha: ${fecha} es una fecha futura; la fecha del depósito es la de la boleta, hoy (${todayDate}) o antes.`,
    )
  const arrived = localDateOf(deps.clock, manifestCreatedAt).toString()
  if (fecha < arrived)
    throw invalidInput(
      `fecha: ${fecha} es anterior al ingreso del manifiesto (${arrived}); un depósito de su liquidación no puede ser de antes. Revise la fecha de la boleta.`,
    )
}

/** The bank as configured (compared without case); @throws DomainError INVALID_INPUT naming the banks. */
function configuredBank(deps: SettlementDeps, banco: string): string {
  const wanted = banco.trim().toLocaleLowerCase('es')
  const found = deps.config.settlement.banks.find((candidate) => candidate.toLocaleLowerCase('es') === wanted)
  if (found === undefined)
    throw invalidInput(
      `banco: «${banco}» no es uno de los bancos configurados (${deps.config.settlement.banks.join(', ')}). Elija uno de ellos; el administrador los cambia en settlement.banks.`,
    )
  return found
}

/** @throws DomainError INVALID_INPUT naming the active deposit (and its manifest) that has this slip. */
function requireUniqueSlip(
  db: Database,
  actor: Actor,
  banco: string,
  referencia: string,
  exceptId: number | null,
): void {
  const other = findActiveSlip(db, banco, slipKey(referencia), exceptId)
  if (other === undefined) return
  const scope: WarehouseScope = scopeOf(actor)
  const named =
    scope === null || scope.includes(other.almacen)
      ? `el depósito ${other.id} del manifiesto ${other.manifiesto}`
      : 'un depósito de otro almacén'
  throw invalidInput(
    `referencia: la boleta ${referencia} de ${banco} ya está registrada en ${named}. Una boleta se registra una sola vez: revise el número, o anule primero el otro depósito si estaba mal.`,
    {
      deposito: scope === null || scope.includes(other.almacen) ? String(other.id) : null,
    },
  )
}

/**
 * A deposit that leaves the part with more deposited (plus its adjustments) than there is to
 * deposit needs a justification of its own. @param deposited the part's deposits with this one as it would be.
 */
function requireJustifiedOverpayment(
  part: PartMoney,
  deposited: number,
  justificacion: string | null,
  what: string,
  numero: string,
): void {
  const figures = figuresOf({ ...part, depositedCents: deposited })
  if (figures.diferencia >= 0 || justificacion !== null) return
  throw invalidInput(
    `justificacion: ${what} deja el almacén ${part.almacen} del manifiesto ${numero} con ${lempirasText(-figures.diferencia)} depositados de más ` +
      `(a depositar ${lempirasText(figures.aDepositar)}, depositado con este ${lempirasText(deposited)}${figures.ajustes === 0 ? '' : `, ajustes ${figures.ajustes < 0 ? '-' : ''}${lempirasText(figures.ajustes)}`}). ` +
      'Escriba una justificación de 15 a 1,000 caracteres, o corrija el monto.',
  )
}

function trimmedOrNull(text: string | null | undefined): string | null {
  if (text === null || text === undefined) return null
  const trimmed = text.trim()
  return trimmed === '' ? null : trimmed
}
