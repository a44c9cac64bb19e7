import { type Actor } from '../access/actor.ts'
import { formatLocalDateTime, toStoredInstant } from '../core/clock.ts'
import { transaction } from '../db/database.ts'
import { notFound } from '../core/errors.ts'
import { audit, depositView, requireChangeableDeposit, requireDeposit } from './deposits.service.ts'
import { deleteReceiptsStoredBefore, findDeposit, findReceiptData, upsertReceipt } from './deposits.store.ts'
import { EXTENSIONS, requireReceipt, type ReceiptType } from './receipt-file.ts'
import type { DepositView } from './settlement.schemas.ts'
import type { SettlementDeps } from './settlement.service.ts'

const DAY_MS = 24 * 60 * 60 * 1000

/** The most a receipt may weigh (settlement.maxReceiptMB), in bytes. */
export function maxReceiptBytes(config: SettlementDeps['config']): number {
  return Math.floor(config.settlement.maxReceiptMB * 1024 * 1024)
}

/**
 * Keeps the receipt file of a deposit (replacing the one it had): checked before the transaction
 * (kind by its bytes, size, nothing claiming another kind), stored in the database so a backup
 * carries it. Only while the deposit may change (active, manifest open). Audited.
 * @throws DomainError NOT_FOUND, INVALID_TRANSITION, INVALID_INPUT (the file)
 */
export function storeReceipt(
  deps: SettlementDeps,
  actor: Actor,
  id: string,
  file: { bytes: Buffer; declaredType: string | undefined; name: string | undefined },
): DepositView {
  const type = requireReceipt({ ...file, maxBytes: maxReceiptBytes(deps.config) })
  return transaction(deps.db, () => {
    const current = requireChangeableDeposit(deps.db, actor, id, 'cambiar su comprobante')
    const before = depositView(deps, current)
    upsertReceipt(deps.db, current.id, { type, data: file.bytes }, toStoredInstant(deps.clock.now()), actor.nombre)
    const after = depositView(deps, findDeposit(deps.db, current.id, null)!)
    audit(deps, actor, 'deposito.comprobante', after, {
      before,
      after,
      detail: { tipo: type, bytes: file.bytes.length, reemplaza: before.comprobante?.disponible === true },
    })
    return after
  })
}

export interface ReceiptFile {
  bytes: Buffer
  type: ReceiptType
  fileName: string
  /** Images are shown in the browser; a PDF is downloaded. */
  inline: boolean
}

/**
 * The receipt file of a deposit of the actor's warehouses.
 * @throws DomainError NOT_FOUND (no deposit, no receipt, or pruned by the retention: the message says which)
 */
export function getReceipt(deps: SettlementDeps, actor: Actor, id: string): ReceiptFile {
  const row = requireDeposit(deps.db, actor, id)
  if (row.receipt_type === null)
    throw notFound(`El depósito ${id} no tiene comprobante: súbalo con PUT depositos/${id}/comprobante.`)
  if (row.receipt_pruned_at !== null) {
    throw notFound(
      `El comprobante del depósito ${id} se eliminó el ${formatLocalDateTime(deps.clock, row.receipt_pruned_at)} por la regla de retención ` +
        `(settlement.receiptRetentionDays = ${deps.config.settlement.receiptRetentionDays} días); el registro del depósito se conserva.`,
    )
  }
  const bytes = findReceiptData(deps.db, row.id)
  if (bytes === undefined) throw notFound(`El depósito ${id} no tiene comprobante.`)
  const type = row.receipt_type as ReceiptType
  return { bytes, type, fileName: `deposito-${id}.${EXTENSIONS[type]}`, inline: type !== 'application/pdf' }
}

/**
 * Deletes the receipt files kept longer than settlement.receiptRetentionDays (0 keeps them for
 * ever); the deposits keep their record. Runs at start and then daily. @returns how many were removed.
 */
export function pruneReceipts(deps: Pick<SettlementDeps, 'db' | 'clock' | 'config'>): number {
  const days = deps.config.settlement.receiptRetentionDays
  if (days === 0) return 0
  const now = deps.clock.now()
  return transaction(deps.db, () =>
    deleteReceiptsStoredBefore(deps.db, toStoredInstant(now.minusMillis(days * DAY_MS)), toStoredInstant(now)),
  )
}
