import type { Migration } from './migration.ts'

export const migration0008: Migration = {
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
}
