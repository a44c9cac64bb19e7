import type { Generated } from 'kysely'

/**
 * Kysely's view of every table. `schema.sql` is the readable description of the same schema;
 * a test keeps it equal to what the migrations build.
 */
export interface Tables {
  batches: BatchTable
  batch_payloads: BatchPayloadTable
  batch_body_chunks: BatchBodyChunkTable
  manifests: ManifestTable
  manifest_totals: ManifestTotalsTable
  invoices: InvoiceTable
  invoice_lines: InvoiceLineTable
  invoice_conflicts: InvoiceConflictTable
  audit_log: AuditLogTable
  return_reasons: ReturnReasonTable
  returns: ReturnTable
  return_lines: ReturnLineTable
  users: UserTable
  sessions: SessionTable
  login_lockouts: LoginLockoutTable
  invoice_reissues: InvoiceReissueTable
  deposits: DepositTable
  deposit_receipts: DepositReceiptTable
  settlement_adjustments: SettlementAdjustmentTable
  invoice_prints: InvoicePrintTable
}

export type BatchState = 'received' | 'processed' | 'failed'
export type ManifestState = 'imported' | 'closed'
export type ConflictState = 'pending' | 'accepted' | 'discarded'
export type ReturnState = 'pending' | 'approved' | 'rejected' | 'cancelled'
export type ReissueState = 'pending' | 'confirmed' | 'discarded'
export type DepositState = 'active' | 'cancelled'

export interface BatchTable {
  id: Generated<number>
  uuid: string
  received_at: string
  received_date: string
  /** sha256 of the canonical content (contract §3a); computed only when an earlier batch of the day could match. */
  content_hash: string | null
  /** sha256 of the body's bytes exactly as received (null before migration 8). */
  body_hash: string | null
  /** Size of the body as received; its bytes are in batch_body_chunks (null before migration 8). */
  body_bytes: number | null
  /** sha256 of the batch's invoice numbers in order: which earlier batches could have the same content. */
  numbers_hash: string | null
  client_ip: string
  key_fingerprint: string
  estado: BatchState
  invoice_count: number
  http_status: number | null
  summary: string | null
  failure: string | null
  finished_at: string | null
  payload_pruned_at: string | null
}

/** A batch's body as received, in chunks of 1 MiB (src/batches/body-chunks.ts), each compressed with brotli. */
export interface BatchBodyChunkTable {
  batch_id: number
  chunk: number
  data: Buffer
}

export interface BatchPayloadTable {
  batch_id: number
  encoding: string
  byte_length: number
  data: Buffer
}

export interface ManifestTable {
  id: Generated<number>
  numero: string
  estado: Generated<ManifestState>
  created_at: string
  created_batch_id: number | null
  closed_at: string | null
  /**
   * The last local day (`YYYY-MM-DD`) returns may be registered, until 23:59:59; set at creation
   * from `returns.windowBusinessDays` and extended by a supervisor. Null: no window.
   */
  returns_deadline: string | null
}

/**
 * Per manifest and warehouse, kept by triggers (migration 9): stored invoices (annulled ones
 * too), those not annulled and their exact sum in millionths, the pending and approved returns of
 * its invoices and the sum of the approved ones in cents. Only read: the triggers write it.
 */
export interface ManifestTotalsTable {
  manifest_id: number
  almacen: string
  invoices: number
  counted_invoices: number
  counted_micros: number
  holding_returns: number
  approved_cents: number
  /** The settlement of the part (migration 11): its pending returns, active deposits, how many of them are justified, its adjustments. */
  pending_returns: Generated<number>
  deposited_cents: Generated<number>
  justified_deposits: Generated<number>
  adjusted_cents: Generated<number>
}

export interface InvoiceTable {
  id: Generated<number>
  nfactura: string
  manifest_id: number
  batch_id: number
  fecha_factura: string
  fecha_vencimiento: string | null
  almacen: string
  vendedor_id: string
  vendedor: string | null
  cliente_id: string
  cliente: string
  rtn: string | null
  cai: string | null
  depto: string | null
  municipio: string | null
  direccion: string | null
  tel: string | null
  numero_pedido: string | null
  numero_ruta: string | null
  numero_factura_lx: string | null
  tipo_pago: string | null
  dias_cred: number | null
  tipo_factura: string | null
  estado_factura: number | null
  importe_grabado: number | null
  importe_gravado_isv15: number | null
  importe_gravado_total: number | null
  isv15: number | null
  isv18: number | null
  descuentos_rebajas: number | null
  total: number
  /** Generated from `total`: exact integer millionths, so sums are exact. */
  total_micros: Generated<number>
  /**
   * The client's JSON of the stored version when it replaced the one a batch brought (an update
   * in place or an accepted conflict); '' while the version is the batch's: then it is
   * `original_length` bytes at `original_offset` of the batch's body (batch_body_chunks).
   */
  original: string
  original_offset: number | null
  original_length: number | null
  created_at: string
  updated_at: string | null
  /** Economic fingerprint (`src/invoices/fingerprint.ts`); null only before migration 5 back-filled it. */
  fingerprint: string | null
  /** When a possible re-issue was confirmed: the copy no longer counts in its manifest's totals. */
  annulled_at: string | null
  /** Counted up at each replacement of the stored version (migration 10). */
  revision: Generated<number>
}

export interface InvoiceLineTable {
  id: Generated<number>
  invoice_id: number
  position: number
  numero_linea: number
  line_ref_id: number | null
  invoice_ref_id: number | null
  producto_id: string
  producto_desc: string
  uni_venta: string | null
  tipo_producto: string | null
  cantidad_fracciones: number | null
  cantidad_caja: number | null
  factor_conversion: number | null
  precio: number | null
  precio_unidad_min_venta: number | null
  subtotal: number | null
  descuento: number | null
  impuesto: number | null
  porcentaje_impuesto: number | null
  total: number
  peso: number | null
}

export interface InvoiceConflictTable {
  id: Generated<number>
  invoice_id: number
  batch_id: number
  estado: Generated<ConflictState>
  /** JSON array of the top-level field names that differ (`LineasFactura` for any line change). */
  changed_fields: string
  existing_original: string
  incoming_original: string
  incoming_hash: string
  created_at: string
  decided_at: string | null
  decided_by: string | null
  decision_note: string | null
}

/** Who changed what, when: operators by name, the intake itself as `sistema`. */
export interface AuditLogTable {
  id: Generated<number>
  at: string
  actor: string
  action: string
  subject_type: string
  subject_id: string
  before: string | null
  after: string | null
  detail: string | null
  /** The login name of the person who acted; null for `sistema` and for integrations. */
  actor_usuario: string | null
}

/** A return reason (concepto): the supplier's id when it has one, else its own code. */
export interface ReturnReasonTable {
  codigo: string
  id_proveedor: string | null
  descripcion: string
  activo: number
  created_at: string
  updated_at: string | null
}

export interface ReturnTable {
  id: Generated<number>
  invoice_id: number
  reason_codigo: string
  /** The return's own date-time as the operator gave it: local `YYYY-MM-DDTHH:mm:ss`. */
  fecha: string
  estado: ReturnState
  total_cents: number
  /**
   * `lineasDevolucion` of the client's listing, written once at registration: a return's lines
   * never change, so the listing does not read and format them again for every page.
   */
  listed_lines: string
  /** The same in contract v2's unit: every `cantidad` in units, CJ lines too. */
  listed_lines_units: string
  registered_at: string
  /** Local date of `registered_at` (the operator list filters on it). */
  registered_date: string
  registered_by: string
  /** Local date and time of the approval: what the client's listing filters on (contract v1). */
  processed_date: string | null
  processed_time: string | null
  approved_by: string | null
  /** Rejection or cancellation: when, by whom, why. */
  closed_at: string | null
  closed_by: string | null
  closing_note: string | null
  /** The returned invoice's issue date (`YYYY-MM-DD`), kept equal to it: what the v2 listing files the return under. */
  invoice_date: string
  /** Its invoice's Almacen, written and kept equal by triggers (schema.sql): never set by the code. */
  almacen: Generated<string | null>
  /**
   * What a search of the returns list reads: its invoice's Nfactura, Cliente, Clienteid and its
   * manifest's number joined by U+001F, written and kept equal by triggers like `almacen`.
   */
  search_text: Generated<string | null>
}

/**
 * A returned invoice line. Product data is copied from the invoice line at registration, so the
 * return stays as it was even if the invoice's lines are later replaced by a newer version.
 */
export interface ReturnLineTable {
  id: Generated<number>
  return_id: number
  numero_linea: number
  producto_id: string
  producto_desc: string
  uni_venta: string | null
  factor_conversion: number
  units: number
  amount_cents: number
}

export type Role = 'operador' | 'supervisor' | 'admin' | 'finanzas'

/** A person with a login: role, warehouses (JSON array of codes, or "todos"), scrypt hash. */
export interface UserTable {
  id: Generated<number>
  usuario: string
  nombre: string
  rol: Role
  almacenes: string
  activo: number
  password_hash: string
  created_at: string
  updated_at: string | null
  last_login_at: string | null
}

/** A browser session; the cookie carries the token, the table only its SHA-256. */
export interface SessionTable {
  token_hash: string
  user_id: number
  created_at: string
  last_used_at: string
  ip: string
}

/** Failed logins of one login name (lower case) in the current window, and the lockout they caused. */
export interface LoginLockoutTable {
  usuario_key: string
  failures: number
  window_start: string
  locked_until: string | null
}

/**
 * A possible re-issue found in step 8: a new invoice (`invoice_id`) whose fingerprint matched a
 * stored invoice of another manifest (`original_invoice_id`) dated `days_apart` days from it.
 */
export interface InvoiceReissueTable {
  id: Generated<number>
  invoice_id: number
  original_invoice_id: number
  batch_id: number
  days_apart: number
  estado: Generated<ReissueState>
  created_at: string
  decided_at: string | null
  decided_by: string | null
  decision_note: string | null
}

/**
 * A bank deposit of one warehouse part of a manifest (issue 40), in cents. `fecha` is the slip's
 * local date; `referencia_clave` the slip number as compared for duplicates. Never deleted;
 * the receipt's kind, size and upload stay after its file is pruned.
 */
export interface DepositTable {
  id: Generated<number>
  manifest_id: number
  almacen: string
  amount_cents: number
  fecha: string
  banco: string
  referencia: string
  referencia_clave: string
  notas: string | null
  justificacion: string | null
  estado: Generated<DepositState>
  registered_at: string
  registered_date: string
  registered_by: string
  updated_at: string | null
  updated_by: string | null
  cancelled_at: string | null
  cancelled_by: string | null
  cancel_note: string | null
  receipt_type: string | null
  receipt_bytes: number | null
  receipt_at: string | null
  receipt_by: string | null
  receipt_pruned_at: string | null
}

/** A deposit's receipt file, until the retention prunes it. */
export interface DepositReceiptTable {
  deposit_id: number
  stored_at: string
  data: Buffer
}

/** A signed cent adjustment of one part; never edited or deleted. */
export interface SettlementAdjustmentTable {
  id: Generated<number>
  manifest_id: number
  almacen: string
  amount_cents: number
  motivo: string
  created_at: string
  created_by: string
}

/** Issue 42: an invoice's printing — the first print (the original) and the copies after it. */
export interface InvoicePrintTable {
  invoice_id: number
  first_at: string
  first_by: string
  last_at: string
  last_by: string
  copies: Generated<number>
}
