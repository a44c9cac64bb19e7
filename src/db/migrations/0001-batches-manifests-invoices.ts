import type { Migration } from './migration.ts'

export const migration0001: Migration = {
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
}
