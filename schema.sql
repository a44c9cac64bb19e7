-- manifiesto: the current database schema (schema version 13, PRAGMA user_version = 13).
-- The file's header carries PRAGMA application_id = 0x4D414E49 ("MANI"): check and serve refuse
-- a SQLite file of another program.
-- The one readable description of the schema. The migrations in src/db/migrations/ build it;
-- test/db/migrations.test.ts keeps this file equal to what they build.
--
-- Conventions: instants are ISO-8601 UTC text with milliseconds (2026-11-22T04:14:05.123Z);
-- local dates (America/Tegucigalpa by default) are YYYY-MM-DD text; amounts are REAL as the
-- client sent them, with exact integer millionths generated where sums are taken.

CREATE TABLE batches (
  id INTEGER PRIMARY KEY,
  uuid TEXT NOT NULL UNIQUE,
  received_at TEXT NOT NULL,
  received_date TEXT NOT NULL,
  client_ip TEXT NOT NULL,
  key_fingerprint TEXT NOT NULL,
  estado TEXT NOT NULL DEFAULT 'received' CHECK (estado IN ('received', 'processed', 'failed')),
  invoice_count INTEGER NOT NULL,
  http_status INTEGER,
  summary TEXT,
  failure TEXT,
  finished_at TEXT,
  payload_pruned_at TEXT,
  -- sha256 of the body's bytes as received: an identical body the same day is a duplicate
  -- answered before parsing, and two of them cannot both be processed (batches_one_per_day).
  body_hash TEXT,
  -- Size of the body as received; its bytes are in batch_body_chunks.
  body_bytes INTEGER,
  -- sha256 of the invoice numbers in order: only a batch of the day with the same ones can
  -- have the same content in other bytes.
  numbers_hash TEXT,
  -- sha256 of the canonical content (contract §3a), computed when such a batch needed it.
  content_hash TEXT
);
CREATE UNIQUE INDEX batches_one_per_day ON batches (body_hash, received_date) WHERE estado <> 'failed' AND body_hash IS NOT NULL;
CREATE INDEX batches_same_invoices ON batches (received_date, numbers_hash);
CREATE INDEX batches_received_at ON batches (received_at);

CREATE TABLE batch_payloads (
  batch_id INTEGER PRIMARY KEY REFERENCES batches (id) ON DELETE CASCADE,
  encoding TEXT NOT NULL,
  byte_length INTEGER NOT NULL,
  data BLOB NOT NULL
);

-- A batch's body as received (from schema version 8; batch_payloads holds earlier ones), cut
-- into chunks of 1 MiB (chunk i = bytes i·1 MiB..), each compressed with brotli: concatenated,
-- they are the body; each stored invoice points at its own bytes in it (invoices.original_offset
-- and original_length). When the body's retention ends, only the chunks no invoice's bytes fall
-- in are deleted.
CREATE TABLE batch_body_chunks (
  batch_id INTEGER NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
  chunk INTEGER NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY (batch_id, chunk)
);

CREATE TABLE manifests (
  id INTEGER PRIMARY KEY,
  numero TEXT NOT NULL UNIQUE,
  estado TEXT NOT NULL DEFAULT 'imported' CHECK (estado IN ('imported', 'closed')),
  created_at TEXT NOT NULL,
  created_batch_id INTEGER REFERENCES batches (id),
  closed_at TEXT,
  -- The last local day (YYYY-MM-DD) returns may be registered, until 23:59:59; set at creation
  -- from returns.windowBusinessDays, extended by a supervisor. NULL: no window.
  returns_deadline TEXT
);
CREATE INDEX manifests_created_at ON manifests (created_at);
-- Open manifests (the console's dashboard) and the deadlines that close today.
CREATE INDEX manifests_estado ON manifests (estado, created_at);
CREATE INDEX manifests_returns_deadline ON manifests (returns_deadline) WHERE returns_deadline IS NOT NULL;

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
  -- The client's JSON of the stored version when it replaced the one its batch brought (an
  -- update in place or an accepted conflict); '' while it is the batch's version, whose bytes are
  -- original_length bytes at original_offset of batch_id's body (batch_body_chunks).
  original TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT,
  -- Economic fingerprint (src/invoices/fingerprint.ts): customer, products and units, total.
  fingerprint TEXT,
  -- Set when a possible re-issue is confirmed: the copy leaves its manifest's totals.
  annulled_at TEXT,
  original_offset INTEGER,
  original_length INTEGER,
  -- Counted up whenever the stored version is replaced: the intake compares a batch's invoices
  -- with the stored versions ahead of its transaction, and uses a comparison only while the
  -- revision it was made against is still the stored one.
  revision INTEGER NOT NULL DEFAULT 0
);
-- A manifest's invoices, whether it has any in a user's warehouses, and its count and sum of
-- the invoices in scope, from the index alone (no invoice row is read for a manifest list).
CREATE INDEX invoices_manifest_almacen ON invoices (manifest_id, almacen, annulled_at, total);
CREATE INDEX invoices_batch ON invoices (batch_id);
-- Re-issue candidates (src/invoices/invoices.store.ts) come from the index alone; annulled_at
-- is in it (always NULL there) so that SQLite sees the index as covering.
CREATE INDEX invoices_fingerprint ON invoices (fingerprint, fecha_factura, manifest_id, annulled_at) WHERE annulled_at IS NULL;

-- The invoice search (issue 41; schema version 12; version 11 is settlement's): one row per
-- invoice, rowid = invoices.id, with the words an invoice is searched by — its number (and the
-- last group of digits without leading zeros: 912001 of 001-001-01-00912001), client name and
-- code, RTN, route and manifest number. Case and accents folded (unicode61 remove_diacritics 2,
-- as src/shared/search-terms.ts folds a search); contentless (only the index is stored);
-- detail=column. Kept by the triggers below in the same transaction as every invoice write.
CREATE VIRTUAL TABLE invoice_search USING fts5(
  factura, cliente, cliente_id, rtn, ruta, manifiesto,
  content = '', contentless_delete = 1, detail = column, prefix = '1 2', tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER invoice_search_added AFTER INSERT ON invoices BEGIN
  INSERT INTO invoice_search (rowid, factura, cliente, cliente_id, rtn, ruta, manifiesto)
    VALUES (NEW.id, NEW.nfactura || ' ' || ltrim(substr(NEW.nfactura, length(rtrim(NEW.nfactura, '0123456789')) + 1), '0'), NEW.cliente, NEW.cliente_id, NEW.rtn, NEW.numero_ruta,
      (SELECT numero FROM manifests WHERE id = NEW.manifest_id));
END;
CREATE TRIGGER invoice_search_changed AFTER UPDATE OF nfactura, cliente, cliente_id, rtn, numero_ruta, manifest_id ON invoices
  WHEN NEW.nfactura IS NOT OLD.nfactura OR NEW.cliente IS NOT OLD.cliente OR NEW.cliente_id IS NOT OLD.cliente_id OR NEW.rtn IS NOT OLD.rtn
    OR NEW.numero_ruta IS NOT OLD.numero_ruta OR NEW.manifest_id IS NOT OLD.manifest_id BEGIN
  DELETE FROM invoice_search WHERE rowid = OLD.id;
  INSERT INTO invoice_search (rowid, factura, cliente, cliente_id, rtn, ruta, manifiesto)
    VALUES (NEW.id, NEW.nfactura || ' ' || ltrim(substr(NEW.nfactura, length(rtrim(NEW.nfactura, '0123456789')) + 1), '0'), NEW.cliente, NEW.cliente_id, NEW.rtn, NEW.numero_ruta,
      (SELECT numero FROM manifests WHERE id = NEW.manifest_id));
END;
CREATE TRIGGER invoice_search_removed AFTER DELETE ON invoices BEGIN
  DELETE FROM invoice_search WHERE rowid = OLD.id;
END;
CREATE TRIGGER invoice_search_follows_manifest AFTER UPDATE OF numero ON manifests WHEN NEW.numero IS NOT OLD.numero BEGIN
  DELETE FROM invoice_search WHERE rowid IN (SELECT id FROM invoices WHERE manifest_id = NEW.id);
  INSERT INTO invoice_search (rowid, factura, cliente, cliente_id, rtn, ruta, manifiesto)
    SELECT i.id, i.nfactura || ' ' || ltrim(substr(i.nfactura, length(rtrim(i.nfactura, '0123456789')) + 1), '0'), i.cliente, i.cliente_id, i.rtn, i.numero_ruta, NEW.numero
    FROM invoices i WHERE i.manifest_id = NEW.id;
END;

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

-- A new invoice whose fingerprint matched a stored invoice of another manifest (step 8): the
-- possible copy, the invoice it repeats, and the warehouse's decision.
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


-- `actor` is the name shown; `actor_usuario` the login name of the person who acted (null for the
-- service itself and for integrations).
CREATE TABLE audit_log (
  id INTEGER PRIMARY KEY,
  at TEXT NOT NULL,
  actor TEXT NOT NULL,
  action TEXT NOT NULL,
  subject_type TEXT NOT NULL,
  subject_id TEXT NOT NULL,
  before TEXT,
  after TEXT,
  detail TEXT,
  actor_usuario TEXT
);
CREATE INDEX audit_log_at ON audit_log (at);
CREATE INDEX audit_log_subject ON audit_log (subject_type, subject_id, id);
-- The log of one kind of subject in order, a page at a time (issue 15).
CREATE INDEX audit_log_type ON audit_log (subject_type, id);

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
  closing_note TEXT,
  -- The returned invoice's issue date (YYYY-MM-DD, its fecha_factura, kept equal to it): what
  -- contract v2's listing files the return under.
  invoice_date TEXT,
  -- lineasDevolucion as contract v2 lists them (every cantidad in units), written once like listed_lines.
  listed_lines_units TEXT,
  -- Its invoice's Almacen, kept equal by the triggers below: counts and lists by warehouse
  -- read the returns alone, never a million invoice rows.
  almacen TEXT,
  -- What a search of the returns list reads: its invoice's Nfactura, Cliente, Clienteid and its
  -- manifest's number joined by U+001F (a search never holds a control character, so it matches
  -- the joined text exactly when it is inside one of the four), kept equal by the triggers below.
  search_text TEXT
);
CREATE INDEX returns_processed ON returns (processed_date, estado, id);
CREATE INDEX returns_invoice_date ON returns (invoice_date, estado, id);
CREATE INDEX returns_registered ON returns (registered_date, id);
CREATE INDEX returns_invoice ON returns (invoice_id);
-- Partial, so only a query about pending returns can choose it (the dashboard's count).
CREATE INDEX returns_pending ON returns (almacen) WHERE estado = 'pending';
-- Counting the matches of a search reads this index alone (one LIKE per return).
CREATE INDEX returns_search ON returns (search_text, almacen, estado, registered_date);
CREATE TRIGGER returns_invoice_copy_on_insert AFTER INSERT ON returns BEGIN
  UPDATE returns SET (almacen, search_text) =
    (SELECT i.almacen, i.nfactura || char(31) || i.cliente || char(31) || i.cliente_id || char(31) || m.numero FROM invoices i JOIN manifests m ON m.id = i.manifest_id WHERE i.id = NEW.invoice_id)
    WHERE id = NEW.id;
END;
CREATE TRIGGER returns_almacen_follows_invoice AFTER UPDATE OF almacen ON invoices WHEN NEW.almacen IS NOT OLD.almacen BEGIN
  UPDATE returns SET almacen = NEW.almacen WHERE invoice_id = NEW.id;
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

-- Per manifest and warehouse, what the manifest lists show (issue 15), kept by the triggers below
-- through every write of invoices and returns: `invoices` stored (annulled ones too: they make the
-- manifest visible), `counted_invoices` and `counted_micros` those not annulled and their exact sum,
-- `holding_returns` the pending and approved returns of its invoices, `approved_cents` the sum of
-- the approved ones. A list reads a few rows per manifest, never every invoice. The settlement of
-- the part (issue 40, migration 11): `pending_returns` its pending returns, `deposited_cents` its
-- active deposits and `justified_deposits` how many of them carry a justification,
-- `adjusted_cents` its cent adjustments.
CREATE TABLE manifest_totals (
  manifest_id INTEGER NOT NULL REFERENCES manifests (id),
  almacen TEXT NOT NULL,
  invoices INTEGER NOT NULL,
  counted_invoices INTEGER NOT NULL,
  counted_micros INTEGER NOT NULL,
  holding_returns INTEGER NOT NULL,
  approved_cents INTEGER NOT NULL,
  pending_returns INTEGER NOT NULL DEFAULT 0,
  deposited_cents INTEGER NOT NULL DEFAULT 0,
  justified_deposits INTEGER NOT NULL DEFAULT 0,
  adjusted_cents INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (manifest_id, almacen)
);
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

-- Pending returns follow their invoice's part, like holding_returns (migration 11). The part a
-- moved invoice lands in is upserted: whichever of this trigger and the one above runs first
-- creates the row.
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

-- Personal accounts (issue 12). `usuario` is unique ignoring case; `almacenes` is a JSON array of
-- warehouse codes, or "todos"; `password_hash` is scrypt with its cost parameters and salt.
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

-- A browser session: only the SHA-256 of its token is stored.
CREATE TABLE sessions (
  token_hash TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  last_used_at TEXT NOT NULL,
  ip TEXT NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);

-- Failed logins per login name (lower case, known or not) and the lockout they caused.
CREATE TABLE login_lockouts (
  usuario_key TEXT PRIMARY KEY,
  failures INTEGER NOT NULL,
  window_start TEXT NOT NULL,
  locked_until TEXT
);

-- The money of a manifest (issue 40, migration 11). A bank deposit of one warehouse part of a
-- manifest, in integer cents; `fecha` is the slip's local date; `referencia_clave` is the slip
-- number upper-cased without blanks, dashes or dots: an active deposit's bank and slip are
-- unique. Never deleted: a cancelled one keeps who, when and why. Its receipt file's kind, size
-- and upload are kept here after the file itself is pruned (settlement.receiptRetentionDays).
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
-- A deposit's counted money moves manifest_totals (an edit or a cancellation takes out what it
-- counted and puts in what it counts now).
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

-- The file of a deposit's slip (JPEG, PNG, WebP or PDF, recognised by its bytes), until pruned.
CREATE TABLE deposit_receipts (
  deposit_id INTEGER PRIMARY KEY REFERENCES deposits (id),
  stored_at TEXT NOT NULL,
  data BLOB NOT NULL
);
CREATE INDEX deposit_receipts_stored ON deposit_receipts (stored_at);

-- A signed cent adjustment of one part, never edited or deleted (a mistake is corrected by the
-- opposite one).
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
CREATE TRIGGER manifest_totals_adjustment_added AFTER INSERT ON settlement_adjustments BEGIN
  UPDATE manifest_totals SET adjusted_cents = adjusted_cents + NEW.amount_cents WHERE manifest_id = NEW.manifest_id AND almacen = NEW.almacen;
END;

-- When an invoice was first printed and by whom (the person's name), its last print and how many
-- copies followed (issue 42; schema version 13). No row: never printed — the next print is the
-- original, every later one says "COPIA". Each print is also in the audit log.
CREATE TABLE invoice_prints (
  invoice_id INTEGER PRIMARY KEY REFERENCES invoices (id) ON DELETE CASCADE,
  first_at TEXT NOT NULL,
  first_by TEXT NOT NULL,
  last_at TEXT NOT NULL,
  last_by TEXT NOT NULL,
  copies INTEGER NOT NULL DEFAULT 0 CHECK (copies >= 0)
);
