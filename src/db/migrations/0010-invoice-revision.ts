import type { Migration } from './migration.ts'

export const migration0010: Migration = {
  version: 10,
  name: "each invoice's revision, counted up whenever its stored version is replaced (what the intake compared ahead of a batch's transaction is still what is stored); the fingerprint index covers the re-issue candidates",
  sql: `ALTER TABLE invoices ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
-- Re-issue candidates are read from the index alone (no invoice row per stored look-alike):
-- 100,000 stored look-alikes of a batch were 100,000 row lookups inside its transaction.
-- annulled_at is in it (always NULL there) so that SQLite sees the index as covering.
DROP INDEX invoices_fingerprint;
CREATE INDEX invoices_fingerprint ON invoices (fingerprint, fecha_factura, manifest_id, annulled_at) WHERE annulled_at IS NULL;`,
}
