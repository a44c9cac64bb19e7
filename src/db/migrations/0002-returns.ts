import type { Migration } from './migration.ts'

export const migration0002: Migration = {
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
}
