import type { Migration } from './migration.ts'

/**
 * Migration 13 (issue 42): when an invoice was first printed and by whom, and how many copies
 * followed. One row per printed invoice (never one per print: a manifest of 1,000 invoices printed
 * three times stays 1,000 rows; each print is in the audit log). An invoice without a row was never
 * printed: its next print is the original, every later one says "COPIA".
 */
export const INVOICE_PRINTS_SQL = `
CREATE TABLE invoice_prints (
  invoice_id INTEGER PRIMARY KEY REFERENCES invoices (id) ON DELETE CASCADE,
  first_at TEXT NOT NULL,
  first_by TEXT NOT NULL,
  last_at TEXT NOT NULL,
  last_by TEXT NOT NULL,
  copies INTEGER NOT NULL DEFAULT 0 CHECK (copies >= 0)
);
`

export const migration0013: Migration = {
  version: 13,
  name: 'invoice prints: when an invoice was first printed and by whom, the last print and the count of copies',
  sql: INVOICE_PRINTS_SQL,
}
