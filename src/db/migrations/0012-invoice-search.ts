import type { Migration } from './migration.ts'

/**
 * Migration 12 (issue 41): the invoice search index. One FTS5 row per invoice (rowid = the
 * invoice's id) with the words a person searches an invoice by: its number (and, for numbers like
 * 001-001-01-00912001, the last group without its leading zeros, 912001, as the warehouse says
 * it), the client's name and code, the RTN, the route and the manifest's number. Tokenizer
 * `unicode61 remove_diacritics 2`: case and accents do not count (src/shared/search-terms.ts cuts
 * and folds searches the same way). Contentless (the text is in the invoices already; only the
 * index is stored) with contentless_delete, so a row can be replaced; detail=column (which column
 * a word is in, not where in it: no phrase search is needed, and the index is smaller); prefix
 * indexes of one and two characters, so that a search's short words ("g" of G-0005…, "fa", "r" of
 * R-12) read one list instead of merging every word they begin — 70 ms → under 1 ms at 1,000,000
 * invoices, for ~60 bytes more per invoice.
 *
 * Triggers keep it in the same transaction as every write of an invoice (the intake's insert and
 * update in place, an accepted conflict) and of a manifest's number; the back-fill indexes what is
 * stored.
 */
const INVOICE_SEARCH_SQL = `
CREATE VIRTUAL TABLE invoice_search USING fts5(
  factura, cliente, cliente_id, rtn, ruta, manifiesto,
  content = '', contentless_delete = 1, detail = column, prefix = '1 2', tokenize = 'unicode61 remove_diacritics 2'
);
INSERT INTO invoice_search (rowid, factura, cliente, cliente_id, rtn, ruta, manifiesto)
  SELECT i.id, i.nfactura || ' ' || ltrim(substr(i.nfactura, length(rtrim(i.nfactura, '0123456789')) + 1), '0'), i.cliente, i.cliente_id, i.rtn, i.numero_ruta, m.numero
  FROM invoices i JOIN manifests m ON m.id = i.manifest_id;
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
`

export const migration0012: Migration = {
  version: 12,
  name: 'the invoice search index (FTS5, accents and case folded), kept by triggers in the same transaction as every invoice write, back-filled',
  sql: INVOICE_SEARCH_SQL,
}
