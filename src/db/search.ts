import { sql, type RawBuilder } from 'kysely'

/**
 * "This invoice id is among the matches of `match` in the invoice search index" (migration 12;
 * `match` is an FTS5 query made by src/shared/search-terms.ts `searchMatchQuery`). Every search of
 * invoices — the header's, a manifest's invoices, the returns list — goes through this index, so
 * they all match alike: case, accents and word order do not count, words may be partial. An empty
 * `match` (a search without a letter or digit, like "%") matches nothing.
 */
export function inInvoiceSearch(idColumn: string, match: string): RawBuilder<boolean> {
  if (match === '') return sql<boolean>`0`
  return sql<boolean>`${sql.ref(idColumn)} IN (SELECT rowid FROM invoice_search WHERE invoice_search MATCH ${match})`
}
