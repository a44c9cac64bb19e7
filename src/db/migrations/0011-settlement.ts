import type { Migration } from './migration.ts'

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

export const migration0011: Migration = {
  version: 11,
  name: 'the money of a manifest: deposits, their receipts and cent adjustments; per part pending returns, deposits and adjustments in manifest_totals (triggers); the role finanzas',
  sql: SETTLEMENT_SQL,
}
