import { fingerprintOf, type FingerprintSource } from '../reissues/fingerprint.ts'
import { serializeListedLines, type ListedLine } from '../returns/listing.serializer.ts'
import type { Database } from './database.ts'

/**
 * Forward-only schema migrations, embedded in the code (no files to find at run time, so the
 * single executable carries them). `PRAGMA user_version` holds the number of the last one applied.
 * Never edit a migration once it has landed: add the next one, and update `schema.sql`.
 * Versions only grow, one at a time.
 */
/** `PRAGMA application_id` of a manifiesto database: "MANI" in ASCII. */
export const MANIFIESTO_APPLICATION_ID = 0x4d414e49

export interface Migration {
  version: number
  name: string
  sql: string
  /**
   * What SQL cannot compute (a value only the code knows how to derive), run after `sql` in the
   * same transaction. It reads and writes with its own statements on the schema as of its version.
   */
  step?: (db: Database) => void
}

/**
 * Migration 9 (issue 15): what the operator lists read, kept beside what they list so a page never
 * reads every invoice. manifest_totals holds, per manifest and warehouse, what a manifest list
 * shows of its invoices and returns; each return holds the text a search of the returns list reads
 * (its invoice's number, client and manifest). Triggers keep both: the intake and the review write
 * invoices and returns with their own statements, and every one of those writes (insert,
 * auto-update, accepted version, annulment, return registered, approved, rejected, cancelled)
 * moves them in the same transaction. The back-fill sums and copies what is stored.
 */
const LIST_AGGREGATES_SQL = `
-- The audit log of one kind of subject, in order (a supervisor's page of manifest entries).
CREATE INDEX audit_log_type ON audit_log (subject_type, id);
CREATE TABLE manifest_totals (
  manifest_id INTEGER NOT NULL REFERENCES manifests (id),
  almacen TEXT NOT NULL,
  invoices INTEGER NOT NULL,
  counted_invoices INTEGER NOT NULL,
  counted_micros INTEGER NOT NULL,
  holding_returns INTEGER NOT NULL,
  approved_cents INTEGER NOT NULL,
  PRIMARY KEY (manifest_id, almacen)
);
INSERT INTO manifest_totals (manifest_id, almacen, invoices, counted_invoices, counted_micros, holding_returns, approved_cents)
  SELECT i.manifest_id, i.almacen, count(*), count(*) FILTER (WHERE i.annulled_at IS NULL), coalesce(sum(i.total_micros) FILTER (WHERE i.annulled_at IS NULL), 0),
    coalesce(sum(r.holding), 0), coalesce(sum(r.approved_cents), 0)
  FROM invoices i
  LEFT JOIN (SELECT invoice_id, count(*) FILTER (WHERE estado IN ('pending', 'approved')) AS holding, coalesce(sum(total_cents) FILTER (WHERE estado = 'approved'), 0) AS approved_cents FROM returns GROUP BY invoice_id) r
    ON r.invoice_id = i.id
  GROUP BY i.manifest_id, i.almacen;
-- A new invoice has no returns yet (a return needs its invoice first).
CREATE TRIGGER manifest_totals_invoice_added AFTER INSERT ON invoices BEGIN
  INSERT INTO manifest_totals (manifest_id, almacen, invoices, counted_invoices, counted_micros, holding_returns, approved_cents)
    VALUES (NEW.manifest_id, NEW.almacen, 1, NEW.annulled_at IS NULL, CASE WHEN NEW.annulled_at IS NULL THEN NEW.total_micros ELSE 0 END, 0, 0)
    ON CONFLICT (manifest_id, almacen) DO UPDATE SET invoices = invoices + 1, counted_invoices = counted_invoices + excluded.counted_invoices,
      counted_micros = counted_micros + excluded.counted_micros;
END;
CREATE TRIGGER manifest_totals_invoice_removed AFTER DELETE ON invoices BEGIN
  UPDATE manifest_totals SET invoices = invoices - 1, counted_invoices = counted_invoices - (OLD.annulled_at IS NULL),
      counted_micros = counted_micros - CASE WHEN OLD.annulled_at IS NULL THEN OLD.total_micros ELSE 0 END,
      holding_returns = holding_returns - (SELECT count(*) FROM returns WHERE invoice_id = OLD.id AND estado IN ('pending', 'approved')),
      approved_cents = approved_cents - (SELECT coalesce(sum(total_cents), 0) FROM returns WHERE invoice_id = OLD.id AND estado = 'approved')
    WHERE manifest_id = OLD.manifest_id AND almacen = OLD.almacen;
END;
CREATE TRIGGER manifest_totals_invoice_changed AFTER UPDATE OF manifest_id, almacen, total, annulled_at ON invoices
  WHEN NEW.manifest_id IS NOT OLD.manifest_id OR NEW.almacen IS NOT OLD.almacen OR NEW.total IS NOT OLD.total OR NEW.annulled_at IS NOT OLD.annulled_at BEGIN
  UPDATE manifest_totals SET invoices = invoices - 1, counted_invoices = counted_invoices - (OLD.annulled_at IS NULL),
      counted_micros = counted_micros - CASE WHEN OLD.annulled_at IS NULL THEN OLD.total_micros ELSE 0 END,
      holding_returns = holding_returns - (SELECT count(*) FROM returns WHERE invoice_id = OLD.id AND estado IN ('pending', 'approved')),
      approved_cents = approved_cents - (SELECT coalesce(sum(total_cents), 0) FROM returns WHERE invoice_id = OLD.id AND estado = 'approved')
    WHERE manifest_id = OLD.manifest_id AND almacen = OLD.almacen;
  INSERT INTO manifest_totals (manifest_id, almacen, invoices, counted_invoices, counted_micros, holding_returns, approved_cents)
    VALUES (NEW.manifest_id, NEW.almacen, 1, NEW.annulled_at IS NULL, CASE WHEN NEW.annulled_at IS NULL THEN NEW.total_micros ELSE 0 END,
      (SELECT count(*) FROM returns WHERE invoice_id = NEW.id AND estado IN ('pending', 'approved')),
      (SELECT coalesce(sum(total_cents), 0) FROM returns WHERE invoice_id = NEW.id AND estado = 'approved'))
    ON CONFLICT (manifest_id, almacen) DO UPDATE SET invoices = invoices + 1, counted_invoices = counted_invoices + excluded.counted_invoices,
      counted_micros = counted_micros + excluded.counted_micros, holding_returns = holding_returns + excluded.holding_returns, approved_cents = approved_cents + excluded.approved_cents;
END;
CREATE TRIGGER manifest_totals_return_added AFTER INSERT ON returns BEGIN
  UPDATE manifest_totals SET holding_returns = holding_returns + (NEW.estado IN ('pending', 'approved')),
      approved_cents = approved_cents + CASE WHEN NEW.estado = 'approved' THEN NEW.total_cents ELSE 0 END
    WHERE (manifest_id, almacen) = (SELECT manifest_id, almacen FROM invoices WHERE id = NEW.invoice_id);
END;
CREATE TRIGGER manifest_totals_return_removed AFTER DELETE ON returns BEGIN
  UPDATE manifest_totals SET holding_returns = holding_returns - (OLD.estado IN ('pending', 'approved')),
      approved_cents = approved_cents - CASE WHEN OLD.estado = 'approved' THEN OLD.total_cents ELSE 0 END
    WHERE (manifest_id, almacen) = (SELECT manifest_id, almacen FROM invoices WHERE id = OLD.invoice_id);
END;
CREATE TRIGGER manifest_totals_return_changed AFTER UPDATE OF invoice_id, estado, total_cents ON returns
  WHEN NEW.invoice_id IS NOT OLD.invoice_id OR NEW.estado IS NOT OLD.estado OR NEW.total_cents IS NOT OLD.total_cents BEGIN
  UPDATE manifest_totals SET holding_returns = holding_returns - (OLD.estado IN ('pending', 'approved')),
      approved_cents = approved_cents - CASE WHEN OLD.estado = 'approved' THEN OLD.total_cents ELSE 0 END
    WHERE (manifest_id, almacen) = (SELECT manifest_id, almacen FROM invoices WHERE id = OLD.invoice_id);
  UPDATE manifest_totals SET holding_returns = holding_returns + (NEW.estado IN ('pending', 'approved')),
      approved_cents = approved_cents + CASE WHEN NEW.estado = 'approved' THEN NEW.total_cents ELSE 0 END
    WHERE (manifest_id, almacen) = (SELECT manifest_id, almacen FROM invoices WHERE id = NEW.invoice_id);
END;
-- What a search of the returns list reads of each return's invoice and manifest (Nfactura,
-- cliente, Clienteid, NumeroManifiesto), joined by U+001F into one text and copied onto the return
-- beside its warehouse (one trigger now writes both): counting the matches of a search reads one
-- narrow index, one LIKE per return, instead of a hundred thousand invoice rows.
ALTER TABLE returns ADD COLUMN search_text TEXT;
UPDATE returns SET search_text =
  (SELECT i.nfactura || char(31) || i.cliente || char(31) || i.cliente_id || char(31) || m.numero FROM invoices i JOIN manifests m ON m.id = i.manifest_id WHERE i.id = returns.invoice_id);
CREATE INDEX returns_search ON returns (search_text, almacen, estado, registered_date);
DROP TRIGGER IF EXISTS returns_almacen_on_insert;
CREATE TRIGGER returns_invoice_copy_on_insert AFTER INSERT ON returns BEGIN
  UPDATE returns SET (almacen, search_text) =
    (SELECT i.almacen, i.nfactura || char(31) || i.cliente || char(31) || i.cliente_id || char(31) || m.numero FROM invoices i JOIN manifests m ON m.id = i.manifest_id WHERE i.id = NEW.invoice_id)
    WHERE id = NEW.id;
END;
CREATE TRIGGER returns_search_follows_invoice AFTER UPDATE OF nfactura, cliente, cliente_id, manifest_id ON invoices
  WHEN NEW.nfactura IS NOT OLD.nfactura OR NEW.cliente IS NOT OLD.cliente OR NEW.cliente_id IS NOT OLD.cliente_id OR NEW.manifest_id IS NOT OLD.manifest_id BEGIN
  UPDATE returns SET search_text = NEW.nfactura || char(31) || NEW.cliente || char(31) || NEW.cliente_id || char(31) || (SELECT numero FROM manifests WHERE id = NEW.manifest_id)
    WHERE invoice_id = NEW.id;
END;
CREATE TRIGGER returns_search_follows_manifest AFTER UPDATE OF numero ON manifests WHEN NEW.numero IS NOT OLD.numero BEGIN
  UPDATE returns SET search_text = (SELECT i.nfactura || char(31) || i.cliente || char(31) || i.cliente_id || char(31) || NEW.numero FROM invoices i WHERE i.id = returns.invoice_id)
    WHERE invoice_id IN (SELECT id FROM invoices WHERE manifest_id = NEW.id);
END;
`

/**
 * Migration 11 (issue 40): the money side of a manifest. Deposits with their receipt files (kept in
 * the database, so a backup carries them), cent adjustments, and per manifest and warehouse part
 * what a settlement reads — its pending returns, active deposits, adjustments and justified
 * overpayments — added to manifest_totals and kept there by triggers beside those of migration 9
 * (which stay as they were). The role `finanzas` widens the users' CHECK: SQLite cannot alter a
 * CHECK, so users and sessions (the only table that refers to users) are rebuilt with their rows.
 */
const SETTLEMENT_SQL = `
CREATE TEMP TABLE kept_users AS SELECT id, usuario, nombre, rol, almacenes, activo, password_hash, created_at, updated_at, last_login_at FROM users;
CREATE TEMP TABLE kept_sessions AS SELECT token_hash, user_id, created_at, last_used_at, ip FROM sessions;
DROP TABLE sessions;
DROP TABLE users;
CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  usuario TEXT NOT NULL,
  nombre TEXT NOT NULL,
  rol TEXT NOT NULL CHECK (rol IN ('operador', 'supervisor', 'admin', 'finanzas')),
  almacenes TEXT NOT NULL,
  activo INTEGER NOT NULL DEFAULT 1 CHECK (activo IN (0, 1)),
  password_hash TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT,
  last_login_at TEXT
);
CREATE UNIQUE INDEX users_usuario ON users (usuario COLLATE NOCASE);
CREATE TABLE sessions (
  token_hash TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  last_used_at TEXT NOT NULL,
  ip TEXT NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);
INSERT INTO users (id, usuario, nombre, rol, almacenes, activo, password_hash, created_at, updated_at, last_login_at)
  SELECT id, usuario, nombre, rol, almacenes, activo, password_hash, created_at, updated_at, last_login_at FROM kept_users;
INSERT INTO sessions (token_hash, user_id, created_at, last_used_at, ip) SELECT token_hash, user_id, created_at, last_used_at, ip FROM kept_sessions;
DROP TABLE kept_users;
DROP TABLE kept_sessions;

CREATE TABLE deposits (
  id INTEGER PRIMARY KEY,
  manifest_id INTEGER NOT NULL REFERENCES manifests (id),
  almacen TEXT NOT NULL,
  amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
  fecha TEXT NOT NULL,
  banco TEXT NOT NULL,
  referencia TEXT NOT NULL,
  referencia_clave TEXT NOT NULL,
  notas TEXT,
  justificacion TEXT,
  estado TEXT NOT NULL DEFAULT 'active' CHECK (estado IN ('active', 'cancelled')),
  registered_at TEXT NOT NULL,
  registered_date TEXT NOT NULL,
  registered_by TEXT NOT NULL,
  updated_at TEXT,
  updated_by TEXT,
  cancelled_at TEXT,
  cancelled_by TEXT,
  cancel_note TEXT,
  receipt_type TEXT,
  receipt_bytes INTEGER,
  receipt_at TEXT,
  receipt_by TEXT,
  receipt_pruned_at TEXT
);
CREATE INDEX deposits_part ON deposits (manifest_id, almacen);
CREATE UNIQUE INDEX deposits_one_slip ON deposits (banco, referencia_clave) WHERE estado = 'active';
-- A page of the deposits list (by slip date, newest first) and Inicio's deposits of the day, each from its index.
CREATE INDEX deposits_fecha ON deposits (estado, fecha, id);
CREATE INDEX deposits_registered ON deposits (registered_date, estado, almacen, banco, amount_cents);
-- The totals of the deposits list, by bank and warehouse, read this index alone, in its order (no sort).
CREATE INDEX deposits_sums ON deposits (estado, banco, almacen, fecha, amount_cents);

CREATE TABLE deposit_receipts (
  deposit_id INTEGER PRIMARY KEY REFERENCES deposits (id),
  stored_at TEXT NOT NULL,
  data BLOB NOT NULL
);
CREATE INDEX deposit_receipts_stored ON deposit_receipts (stored_at);

CREATE TABLE settlement_adjustments (
  id INTEGER PRIMARY KEY,
  manifest_id INTEGER NOT NULL REFERENCES manifests (id),
  almacen TEXT NOT NULL,
  amount_cents INTEGER NOT NULL CHECK (amount_cents <> 0),
  motivo TEXT NOT NULL,
  created_at TEXT NOT NULL,
  created_by TEXT NOT NULL
);
CREATE INDEX settlement_adjustments_part ON settlement_adjustments (manifest_id, almacen);

ALTER TABLE manifest_totals ADD COLUMN pending_returns INTEGER NOT NULL DEFAULT 0;
ALTER TABLE manifest_totals ADD COLUMN deposited_cents INTEGER NOT NULL DEFAULT 0;
ALTER TABLE manifest_totals ADD COLUMN justified_deposits INTEGER NOT NULL DEFAULT 0;
ALTER TABLE manifest_totals ADD COLUMN adjusted_cents INTEGER NOT NULL DEFAULT 0;
UPDATE manifest_totals SET pending_returns = p.pending
  FROM (SELECT i.manifest_id, i.almacen, count(*) AS pending FROM returns r JOIN invoices i ON i.id = r.invoice_id WHERE r.estado = 'pending' GROUP BY i.manifest_id, i.almacen) AS p
  WHERE p.manifest_id = manifest_totals.manifest_id AND p.almacen = manifest_totals.almacen;
-- Pending returns follow their invoice's part, like holding_returns. The part a moved invoice
-- lands in is upserted: whichever of this trigger and migration 9's runs first creates the row.
CREATE TRIGGER manifest_totals_pending_added AFTER INSERT ON returns WHEN NEW.estado = 'pending' BEGIN
  UPDATE manifest_totals SET pending_returns = pending_returns + 1
    WHERE (manifest_id, almacen) = (SELECT manifest_id, almacen FROM invoices WHERE id = NEW.invoice_id);
END;
CREATE TRIGGER manifest_totals_pending_removed AFTER DELETE ON returns WHEN OLD.estado = 'pending' BEGIN
  UPDATE manifest_totals SET pending_returns = pending_returns - 1
    WHERE (manifest_id, almacen) = (SELECT manifest_id, almacen FROM invoices WHERE id = OLD.invoice_id);
END;
CREATE TRIGGER manifest_totals_pending_changed AFTER UPDATE OF invoice_id, estado ON returns
  WHEN (OLD.estado = 'pending' OR NEW.estado = 'pending') AND (NEW.estado IS NOT OLD.estado OR NEW.invoice_id IS NOT OLD.invoice_id) BEGIN
  UPDATE manifest_totals SET pending_returns = pending_returns - (OLD.estado = 'pending')
    WHERE (manifest_id, almacen) = (SELECT manifest_id, almacen FROM invoices WHERE id = OLD.invoice_id);
  UPDATE manifest_totals SET pending_returns = pending_returns + (NEW.estado = 'pending')
    WHERE (manifest_id, almacen) = (SELECT manifest_id, almacen FROM invoices WHERE id = NEW.invoice_id);
END;
CREATE TRIGGER manifest_totals_pending_invoice_removed AFTER DELETE ON invoices BEGIN
  UPDATE manifest_totals SET pending_returns = pending_returns - (SELECT count(*) FROM returns WHERE invoice_id = OLD.id AND estado = 'pending')
    WHERE manifest_id = OLD.manifest_id AND almacen = OLD.almacen;
END;
CREATE TRIGGER manifest_totals_pending_invoice_moved AFTER UPDATE OF manifest_id, almacen ON invoices
  WHEN NEW.manifest_id IS NOT OLD.manifest_id OR NEW.almacen IS NOT OLD.almacen BEGIN
  UPDATE manifest_totals SET pending_returns = pending_returns - (SELECT count(*) FROM returns WHERE invoice_id = OLD.id AND estado = 'pending')
    WHERE manifest_id = OLD.manifest_id AND almacen = OLD.almacen;
  INSERT INTO manifest_totals (manifest_id, almacen, invoices, counted_invoices, counted_micros, holding_returns, approved_cents, pending_returns)
    VALUES (NEW.manifest_id, NEW.almacen, 0, 0, 0, 0, 0, (SELECT count(*) FROM returns WHERE invoice_id = NEW.id AND estado = 'pending'))
    ON CONFLICT (manifest_id, almacen) DO UPDATE SET pending_returns = pending_returns + excluded.pending_returns;
END;
-- A deposit never changes part and is never deleted: it counts while active, and an edit or a
-- cancellation takes out what it counted and puts in what it counts now.
CREATE TRIGGER manifest_totals_deposit_added AFTER INSERT ON deposits BEGIN
  UPDATE manifest_totals SET deposited_cents = deposited_cents + CASE WHEN NEW.estado = 'active' THEN NEW.amount_cents ELSE 0 END,
      justified_deposits = justified_deposits + (NEW.estado = 'active' AND NEW.justificacion IS NOT NULL)
    WHERE manifest_id = NEW.manifest_id AND almacen = NEW.almacen;
END;
CREATE TRIGGER manifest_totals_deposit_changed AFTER UPDATE OF amount_cents, estado, justificacion ON deposits BEGIN
  UPDATE manifest_totals SET
      deposited_cents = deposited_cents - CASE WHEN OLD.estado = 'active' THEN OLD.amount_cents ELSE 0 END + CASE WHEN NEW.estado = 'active' THEN NEW.amount_cents ELSE 0 END,
      justified_deposits = justified_deposits - (OLD.estado = 'active' AND OLD.justificacion IS NOT NULL) + (NEW.estado = 'active' AND NEW.justificacion IS NOT NULL)
    WHERE manifest_id = NEW.manifest_id AND almacen = NEW.almacen;
END;
CREATE TRIGGER manifest_totals_adjustment_added AFTER INSERT ON settlement_adjustments BEGIN
  UPDATE manifest_totals SET adjusted_cents = adjusted_cents + NEW.amount_cents WHERE manifest_id = NEW.manifest_id AND almacen = NEW.almacen;
END;
`

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'batches, manifests, invoices, their lines, conflicts and the audit log',
    sql: `
CREATE TABLE batches (
  id INTEGER PRIMARY KEY,
  uuid TEXT NOT NULL UNIQUE,
  received_at TEXT NOT NULL,
  received_date TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  client_ip TEXT NOT NULL,
  key_fingerprint TEXT NOT NULL,
  estado TEXT NOT NULL DEFAULT 'received' CHECK (estado IN ('received', 'processed', 'failed')),
  invoice_count INTEGER NOT NULL,
  http_status INTEGER,
  summary TEXT,
  failure TEXT,
  finished_at TEXT,
  payload_pruned_at TEXT
);
CREATE UNIQUE INDEX batches_one_per_day ON batches (content_hash, received_date) WHERE estado <> 'failed';
CREATE INDEX batches_received_at ON batches (received_at);

CREATE TABLE batch_payloads (
  batch_id INTEGER PRIMARY KEY REFERENCES batches (id) ON DELETE CASCADE,
  encoding TEXT NOT NULL,
  byte_length INTEGER NOT NULL,
  data BLOB NOT NULL
);

CREATE TABLE manifests (
  id INTEGER PRIMARY KEY,
  numero TEXT NOT NULL UNIQUE,
  estado TEXT NOT NULL DEFAULT 'imported' CHECK (estado IN ('imported', 'closed')),
  created_at TEXT NOT NULL,
  created_batch_id INTEGER REFERENCES batches (id),
  closed_at TEXT
);
CREATE INDEX manifests_created_at ON manifests (created_at);

CREATE TABLE invoices (
  id INTEGER PRIMARY KEY,
  nfactura TEXT NOT NULL UNIQUE,
  manifest_id INTEGER NOT NULL REFERENCES manifests (id),
  batch_id INTEGER NOT NULL REFERENCES batches (id),
  fecha_factura TEXT NOT NULL,
  fecha_vencimiento TEXT,
  almacen TEXT NOT NULL,
  vendedor_id TEXT NOT NULL,
  vendedor TEXT,
  cliente_id TEXT NOT NULL,
  cliente TEXT NOT NULL,
  rtn TEXT,
  cai TEXT,
  depto TEXT,
  municipio TEXT,
  direccion TEXT,
  tel TEXT,
  numero_pedido TEXT,
  numero_ruta TEXT,
  numero_factura_lx TEXT,
  tipo_pago TEXT,
  dias_cred INTEGER,
  tipo_factura TEXT,
  estado_factura INTEGER,
  importe_grabado REAL,
  importe_gravado_isv15 REAL,
  importe_gravado_total REAL,
  isv15 REAL,
  isv18 REAL,
  descuentos_rebajas REAL,
  total REAL NOT NULL,
  total_micros INTEGER GENERATED ALWAYS AS (CAST(round(total * 1000000) AS INTEGER)) VIRTUAL,
  original TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT
);
CREATE INDEX invoices_manifest ON invoices (manifest_id);
CREATE INDEX invoices_batch ON invoices (batch_id);

CREATE TABLE invoice_lines (
  id INTEGER PRIMARY KEY,
  invoice_id INTEGER NOT NULL REFERENCES invoices (id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  numero_linea INTEGER NOT NULL,
  line_ref_id INTEGER,
  invoice_ref_id INTEGER,
  producto_id TEXT NOT NULL,
  producto_desc TEXT NOT NULL,
  uni_venta TEXT,
  tipo_producto TEXT,
  cantidad_fracciones REAL,
  cantidad_caja REAL,
  factor_conversion REAL,
  precio REAL,
  precio_unidad_min_venta REAL,
  subtotal REAL,
  descuento REAL,
  impuesto REAL,
  porcentaje_impuesto REAL,
  total REAL NOT NULL,
  peso REAL,
  UNIQUE (invoice_id, position)
);
CREATE INDEX invoice_lines_numero ON invoice_lines (invoice_id, numero_linea);

CREATE TABLE invoice_conflicts (
  id INTEGER PRIMARY KEY,
  invoice_id INTEGER NOT NULL REFERENCES invoices (id),
  batch_id INTEGER NOT NULL REFERENCES batches (id),
  estado TEXT NOT NULL DEFAULT 'pending' CHECK (estado IN ('pending', 'accepted', 'discarded')),
  changed_fields TEXT NOT NULL,
  existing_original TEXT NOT NULL,
  incoming_original TEXT NOT NULL,
  incoming_hash TEXT NOT NULL,
  created_at TEXT NOT NULL,
  decided_at TEXT,
  decided_by TEXT,
  decision_note TEXT
);
CREATE INDEX invoice_conflicts_invoice ON invoice_conflicts (invoice_id, estado);
CREATE INDEX invoice_conflicts_estado ON invoice_conflicts (estado, id);

CREATE TABLE audit_log (
  id INTEGER PRIMARY KEY,
  at TEXT NOT NULL,
  actor TEXT NOT NULL,
  action TEXT NOT NULL,
  subject_type TEXT NOT NULL,
  subject_id TEXT NOT NULL,
  before TEXT,
  after TEXT,
  detail TEXT
);
CREATE INDEX audit_log_at ON audit_log (at);
CREATE INDEX audit_log_subject ON audit_log (subject_type, subject_id, id);
`,
  },
  {
    version: 2,
    name: 'return reasons, returns and their lines',
    sql: `
CREATE TABLE return_reasons (
  codigo TEXT PRIMARY KEY,
  id_proveedor TEXT,
  descripcion TEXT NOT NULL,
  activo INTEGER NOT NULL DEFAULT 1 CHECK (activo IN (0, 1)),
  created_at TEXT NOT NULL,
  updated_at TEXT
);

CREATE TABLE returns (
  id INTEGER PRIMARY KEY,
  invoice_id INTEGER NOT NULL REFERENCES invoices (id),
  reason_codigo TEXT NOT NULL REFERENCES return_reasons (codigo),
  fecha TEXT NOT NULL,
  estado TEXT NOT NULL CHECK (estado IN ('pending', 'approved', 'rejected', 'cancelled')),
  total_cents INTEGER NOT NULL,
  listed_lines TEXT NOT NULL,
  registered_at TEXT NOT NULL,
  registered_date TEXT NOT NULL,
  registered_by TEXT NOT NULL,
  processed_date TEXT,
  processed_time TEXT,
  approved_by TEXT,
  closed_at TEXT,
  closed_by TEXT,
  closing_note TEXT
);
CREATE INDEX returns_processed ON returns (processed_date, estado, id);
CREATE INDEX returns_registered ON returns (registered_date, id);
CREATE INDEX returns_invoice ON returns (invoice_id);

CREATE TABLE return_lines (
  id INTEGER PRIMARY KEY,
  return_id INTEGER NOT NULL REFERENCES returns (id) ON DELETE CASCADE,
  numero_linea INTEGER NOT NULL,
  producto_id TEXT NOT NULL,
  producto_desc TEXT NOT NULL,
  uni_venta TEXT,
  factor_conversion REAL NOT NULL,
  units REAL NOT NULL,
  amount_cents INTEGER NOT NULL
);
CREATE INDEX return_lines_return ON return_lines (return_id);
`,
  },
  {
    version: 3,
    name: "the file's header names it a manifiesto database (application_id)",
    sql: `PRAGMA application_id = ${MANIFIESTO_APPLICATION_ID};`,
  },
  {
    version: 4,
    name: 'personal accounts: users, their sessions, login lockouts, and who in the audit log',
    sql: `
CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  usuario TEXT NOT NULL,
  nombre TEXT NOT NULL,
  rol TEXT NOT NULL CHECK (rol IN ('operador', 'supervisor', 'admin')),
  almacenes TEXT NOT NULL,
  activo INTEGER NOT NULL DEFAULT 1 CHECK (activo IN (0, 1)),
  password_hash TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT,
  last_login_at TEXT
);
CREATE UNIQUE INDEX users_usuario ON users (usuario COLLATE NOCASE);

CREATE TABLE sessions (
  token_hash TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  last_used_at TEXT NOT NULL,
  ip TEXT NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE login_lockouts (
  usuario_key TEXT PRIMARY KEY,
  failures INTEGER NOT NULL,
  window_start TEXT NOT NULL,
  locked_until TEXT
);

ALTER TABLE audit_log ADD COLUMN actor_usuario TEXT;
`,
  },
  {
    version: 5,
    name: 'returns deadline of manifests; invoice fingerprints (back-filled), annulment and possible re-issues',
    sql: `
ALTER TABLE manifests ADD COLUMN returns_deadline TEXT;
ALTER TABLE invoices ADD COLUMN fingerprint TEXT;
ALTER TABLE invoices ADD COLUMN annulled_at TEXT;
CREATE INDEX invoices_fingerprint ON invoices (fingerprint, fecha_factura);

CREATE TABLE invoice_reissues (
  id INTEGER PRIMARY KEY,
  invoice_id INTEGER NOT NULL UNIQUE REFERENCES invoices (id),
  original_invoice_id INTEGER NOT NULL REFERENCES invoices (id),
  batch_id INTEGER NOT NULL REFERENCES batches (id),
  days_apart INTEGER NOT NULL,
  estado TEXT NOT NULL DEFAULT 'pending' CHECK (estado IN ('pending', 'confirmed', 'discarded')),
  created_at TEXT NOT NULL,
  decided_at TEXT,
  decided_by TEXT,
  decision_note TEXT
);
CREATE INDEX invoice_reissues_estado ON invoice_reissues (estado, id);
`,
    // Existing manifests keep returns_deadline NULL: no window, never suddenly closed to returns.
    step: backfillFingerprints,
  },
  {
    version: 6,
    name: "returns carry their invoice's issue date and their listed lines in units (both back-filled), for contract v2's listing",
    sql: `
ALTER TABLE returns ADD COLUMN invoice_date TEXT;
UPDATE returns SET invoice_date = (SELECT fecha_factura FROM invoices WHERE invoices.id = returns.invoice_id);
CREATE INDEX returns_invoice_date ON returns (invoice_date, estado, id);
ALTER TABLE returns ADD COLUMN listed_lines_units TEXT;
`,
    step: backfillListedLinesInUnits,
  },
  {
    version: 7,
    name: "indexes for the console's lists and dashboard; the warehouse of each return, kept by triggers",
    sql: `
DROP INDEX invoices_manifest;
CREATE INDEX invoices_manifest_almacen ON invoices (manifest_id, almacen, annulled_at, total);
CREATE INDEX manifests_estado ON manifests (estado, created_at);
CREATE INDEX manifests_returns_deadline ON manifests (returns_deadline) WHERE returns_deadline IS NOT NULL;
ALTER TABLE returns ADD COLUMN almacen TEXT;
UPDATE returns SET almacen = (SELECT i.almacen FROM invoices i WHERE i.id = returns.invoice_id);
CREATE INDEX returns_pending ON returns (almacen) WHERE estado = 'pending';
CREATE TRIGGER returns_almacen_on_insert AFTER INSERT ON returns BEGIN
  UPDATE returns SET almacen = (SELECT i.almacen FROM invoices i WHERE i.id = NEW.invoice_id) WHERE id = NEW.id;
END;
CREATE TRIGGER returns_almacen_follows_invoice AFTER UPDATE OF almacen ON invoices WHEN NEW.almacen IS NOT OLD.almacen BEGIN
  UPDATE returns SET almacen = NEW.almacen WHERE invoice_id = NEW.id;
END;
`,
  },
  {
    version: 8,
    name: "batch bodies kept compressed as their invoices' originals; duplicates recognised by the body's bytes first; no per-invoice content hash",
    sql: `
CREATE TABLE batch_body_chunks (
  batch_id INTEGER NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
  chunk INTEGER NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY (batch_id, chunk)
);
ALTER TABLE batches ADD COLUMN body_hash TEXT;
ALTER TABLE batches ADD COLUMN body_bytes INTEGER;
ALTER TABLE batches ADD COLUMN numbers_hash TEXT;
DROP INDEX batches_one_per_day;
ALTER TABLE batches ADD COLUMN canonical_hash TEXT;
UPDATE batches SET canonical_hash = content_hash;
ALTER TABLE batches DROP COLUMN content_hash;
ALTER TABLE batches RENAME COLUMN canonical_hash TO content_hash;
CREATE UNIQUE INDEX batches_one_per_day ON batches (body_hash, received_date) WHERE estado <> 'failed' AND body_hash IS NOT NULL;
CREATE INDEX batches_same_invoices ON batches (received_date, numbers_hash);
ALTER TABLE invoices DROP COLUMN content_hash;
ALTER TABLE invoices ADD COLUMN original_offset INTEGER;
ALTER TABLE invoices ADD COLUMN original_length INTEGER;
DROP INDEX invoice_lines_numero;
`,
  },
  {
    version: 9,
    name: "per manifest and warehouse totals of invoices and returns, kept by triggers, for the manifest lists; what a returns search reads, copied onto each return as one text; the audit log by kind of subject",
    sql: LIST_AGGREGATES_SQL,
  },
  {
    version: 10,
    name: "each invoice's revision, counted up whenever its stored version is replaced (what the intake compared ahead of a batch's transaction is still what is stored); the fingerprint index covers the re-issue candidates",
    sql: `ALTER TABLE invoices ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
-- Re-issue candidates are read from the index alone (no invoice row per stored look-alike):
-- 100,000 stored look-alikes of a batch were 100,000 row lookups inside its transaction.
-- annulled_at is in it (always NULL there) so that SQLite sees the index as covering.
DROP INDEX invoices_fingerprint;
CREATE INDEX invoices_fingerprint ON invoices (fingerprint, fecha_factura, manifest_id, annulled_at) WHERE annulled_at IS NULL;`,
  },
  {
    version: 11,
    name: 'the money of a manifest: deposits, their receipts and cent adjustments; per part pending returns, deposits and adjustments in manifest_totals (triggers); the role finanzas',
    sql: SETTLEMENT_SQL,
  },
]

export const LATEST_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version

/** Migration 6: every stored return gets its `lineasDevolucion` in units, from its lines, a thousand returns at a time. */
function backfillListedLinesInUnits(db: Database): void {
  const returns = db.sqlite.prepare('SELECT id FROM returns WHERE id > ? AND listed_lines_units IS NULL ORDER BY id LIMIT 1000').pluck()
  const lines = db.sqlite.prepare(
    'SELECT return_id, numero_linea, producto_id, producto_desc, uni_venta, factor_conversion, units, amount_cents FROM return_lines WHERE return_id BETWEEN ? AND ? ORDER BY return_id, id',
  )
  const update = db.sqlite.prepare('UPDATE returns SET listed_lines_units = ? WHERE id = ?')
  type LineRow = ListedLine & { return_id: number }
  for (let after = 0; ; ) {
    const page = returns.all(after) as number[]
    if (page.length === 0) return
    const byReturn = new Map<number, LineRow[]>()
    for (const line of lines.all(page[0]!, page[page.length - 1]!) as LineRow[]) {
      const list = byReturn.get(line.return_id)
      if (list) list.push(line)
      else byReturn.set(line.return_id, [line])
    }
    for (const id of page) update.run(serializeListedLines(byReturn.get(id) ?? [], 'units'), id)
    after = page[page.length - 1]!
  }
}

/**
 * Migration 5: every stored invoice gets its fingerprint, computed from its stored columns (the
 * same values the intake computes it from), a thousand invoices at a time.
 */
function backfillFingerprints(db: Database): void {
  const invoices = db.sqlite.prepare('SELECT id, cliente_id, total FROM invoices WHERE id > ? AND fingerprint IS NULL ORDER BY id LIMIT 1000')
  const lines = db.sqlite.prepare(
    'SELECT invoice_id, producto_id, cantidad_fracciones, cantidad_caja, factor_conversion FROM invoice_lines WHERE invoice_id BETWEEN ? AND ? ORDER BY invoice_id, position',
  )
  const update = db.sqlite.prepare('UPDATE invoices SET fingerprint = ? WHERE id = ?')
  type LineRow = FingerprintSource['lines'][number] & { invoice_id: number }
  for (let after = 0; ; ) {
    const page = invoices.all(after) as Array<{ id: number; cliente_id: string; total: number }>
    if (page.length === 0) return
    const byInvoice = new Map<number, LineRow[]>()
    for (const line of lines.all(page[0]!.id, page[page.length - 1]!.id) as LineRow[]) {
      const list = byInvoice.get(line.invoice_id)
      if (list) list.push(line)
      else byInvoice.set(line.invoice_id, [line])
    }
    for (const invoice of page) {
      update.run(fingerprintOf({ clienteId: invoice.cliente_id, total: invoice.total, lines: byInvoice.get(invoice.id) ?? [] }), invoice.id)
    }
    after = page[page.length - 1]!.id
  }
}
