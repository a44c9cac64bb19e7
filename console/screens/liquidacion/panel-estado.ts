import type { AdjustmentView, DepositView, SettlementPartView, SettlementRules } from '../../api/types.ts'

/** What the settlement panel loads besides the manifest: the rules, and the deposits and adjustments of its parts. */
export interface Loaded {
  rules: SettlementRules
  deposits: DepositView[]
  adjustments: AdjustmentView[]
}

/** The dialog the panel has open, opened from a part or one of its deposits. */
export type Dialog =
  | { kind: 'registrar'; part: SettlementPartView }
  | { kind: 'editar'; part: SettlementPartView; deposit: DepositView }
  | { kind: 'anular'; deposit: DepositView }
  | { kind: 'ajustar'; part: SettlementPartView }
