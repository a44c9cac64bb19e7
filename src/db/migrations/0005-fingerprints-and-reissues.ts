import type { Database } from '../database.ts'
import type { DerivedValues, FingerprintLine, Migration } from './migration.ts'

export const migration0005: Migration = {
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
}

/**
 * Migration 5: every stored invoice gets its fingerprint, computed from its stored columns (the
 * same values the intake computes it from), a thousand invoices at a time.
 */
function backfillFingerprints(db: Database, derive: DerivedValues): void {
  const invoices = db.sqlite.prepare(
    'SELECT id, cliente_id, total FROM invoices WHERE id > ? AND fingerprint IS NULL ORDER BY id LIMIT 1000',
  )
  const lines = db.sqlite.prepare(
    'SELECT invoice_id, producto_id, cantidad_fracciones, cantidad_caja, factor_conversion FROM invoice_lines WHERE invoice_id BETWEEN ? AND ? ORDER BY invoice_id, position',
  )
  const update = db.sqlite.prepare('UPDATE invoices SET fingerprint = ? WHERE id = ?')
  type LineRow = FingerprintLine & { invoice_id: number }
  for (let after = 0; ;) {
    const page = invoices.all(after) as Array<{ id: number; cliente_id: string; total: number }>
    if (page.length === 0) return
    const byInvoice = new Map<number, LineRow[]>()
    for (const line of lines.all(page[0]!.id, page[page.length - 1]!.id) as LineRow[]) {
      const list = byInvoice.get(line.invoice_id)
      if (list) list.push(line)
      else byInvoice.set(line.invoice_id, [line])
    }
    for (const invoice of page) {
      update.run(
        derive.fingerprintOf({
          clienteId: invoice.cliente_id,
          total: invoice.total,
          lines: byInvoice.get(invoice.id) ?? [],
        }),
        invoice.id,
      )
    }
    after = page[page.length - 1]!.id
  }
}
