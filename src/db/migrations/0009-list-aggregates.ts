import type { Migration } from './migration.ts'

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

export const migration0009: Migration = {
  version: 9,
  name: 'per manifest and warehouse totals of invoices and returns, kept by triggers, for the manifest lists; what a returns search reads, copied onto each return as one text; the audit log by kind of subject',
  sql: LIST_AGGREGATES_SQL,
}
