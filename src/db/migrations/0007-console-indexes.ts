import type { Migration } from './migration.ts'

export const migration0007: Migration = {
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
}
