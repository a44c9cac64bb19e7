/**
 * The shapes the console sends and receives, taken from the service's own TypeBox schemas (type
 * imports only: nothing of the server is bundled). A change of a schema breaks the console's
 * type check, not the warehouse.
 */
import type { Static } from 'typebox'
import type {
  CreateUserBody,
  SessionView,
  UpdateUserBody,
  UserView,
  WarehouseList,
} from '../../src/accounts/accounts.schemas.ts'
import type { AuditEntryView, AuditQuery } from '../../src/audit/audit.schemas.ts'
import type { BatchView } from '../../src/batches/batches.schemas.ts'
import type { ConflictDetail, ConflictView } from '../../src/conflicts/conflicts.schemas.ts'
import type { DashboardView, PendingCounts } from '../../src/dashboard/dashboard.schemas.ts'
import type { SearchAnswer } from '../../src/search/search.schemas.ts'
import type {
  ManifestPrint,
  MarkedPrints,
  PrintInvoice,
  PrintLine,
  ProductReport,
  ProductsQuery,
} from '../../src/printing/printing.schemas.ts'
import type { InvoiceView } from '../../src/lookup/lookup.schemas.ts'
import type {
  ManifestDetail,
  ManifestInvoice,
  ManifestInvoicePage,
  ManifestInvoiceQuery,
  ManifestListItem,
  ManifestListQuery,
  ManifestPage,
  ManifestView,
} from '../../src/manifests/manifests.schemas.ts'
import type { CreateReasonBody, Reason, UpdateReasonBody } from '../../src/reasons/reasons.schemas.ts'
import type { ReissueView } from '../../src/reissues/reissues.schemas.ts'
import type {
  BulkApproval,
  RegisterReturnBody,
  ReturnExportQuery,
  ReturnListItem,
  ReturnPage,
  ReturnsQuery,
  ReturnState,
  ReturnView,
} from '../../src/returns/returns.schemas.ts'
import type {
  AdjustmentView,
  DepositChangeBody,
  DepositListQuery,
  DepositPage,
  DepositView,
  NewAdjustmentBody,
  NewDepositBody,
  SettlementPartView,
  SettlementRules,
  SettlementView,
} from '../../src/settlement/settlement.schemas.ts'
import type { ServiceStatus } from '../../src/status/status.schemas.ts'

export type {
  ManifestPrint,
  MarkedPrints,
  PrintInvoice,
  PrintLine,
  ProductReport,
  AdjustmentView,
  AuditEntryView,
  DepositPage,
  DepositView,
  SettlementPartView,
  SettlementRules,
  SettlementView,
  BatchView,
  BulkApproval,
  ConflictDetail,
  ConflictView,
  DashboardView,
  InvoiceView,
  PendingCounts,
  SearchAnswer,
  WarehouseList,
  ManifestDetail,
  ManifestInvoice,
  ManifestInvoicePage,
  ManifestListItem,
  ManifestPage,
  ManifestView,
  Reason,
  ReissueView,
  ReturnListItem,
  ReturnPage,
  ReturnState,
  ReturnView,
  ServiceStatus,
  SessionView,
  UserView,
}
/** Query parameters as the address carries them (text; the service decodes them). */
export type ManifestFilters = Static<typeof ManifestListQuery>
export type ManifestInvoiceFilters = Static<typeof ManifestInvoiceQuery>
export type ReturnFilters = Static<typeof ReturnsQuery>
export type ExportFormat = Static<typeof ReturnExportQuery>['formato']
export type Role = SessionView['rol']
export type RegisterReturn = Static<typeof RegisterReturnBody>
export type NewReason = Static<typeof CreateReasonBody>
export type ReasonChange = Static<typeof UpdateReasonBody>
export type NewUser = Static<typeof CreateUserBody>
export type UserChange = Static<typeof UpdateUserBody>
export type AuditFilters = Static<typeof AuditQuery>
export type InvoiceLine = InvoiceView['lineas'][number]
export type ReturnLine = ReturnView['lineas'][number]
export type NewDeposit = Static<typeof NewDepositBody>
export type DepositChange = Static<typeof DepositChangeBody>
export type NewAdjustment = Static<typeof NewAdjustmentBody>
export type DepositFilters = Static<typeof DepositListQuery>
export type ProductFilters = Static<typeof ProductsQuery>

/** Every error answer of the service: `{success:false, message}` and sometimes more. */
export interface ErrorBody {
  success: false
  message: string
  [field: string]: unknown
}
