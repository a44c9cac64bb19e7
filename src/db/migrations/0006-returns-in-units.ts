import type { Database } from '../database.ts'
import type { DerivedValues, ListedLineRow, Migration } from './migration.ts'

export const migration0006: Migration = {
  version: 6,
  name: "returns carry their invoice's issue date and their listed lines in units (both back-filled), for contract v2's listing",
  sql: `
ALTER TABLE returns ADD COLUMN invoice_date TEXT;
UPDATE returns SET invoice_date = (SELECT fecha_factura FROM invoices WHERE invoices.id = returns.invoice_id);
CREATE INDEX returns_invoice_date ON returns (invoice_date, estado, id);
ALTER TABLE returns ADD COLUMN listed_lines_units TEXT;
`,
  step: backfillListedLinesInUnits,
}

/** Migration 6: every stored return gets its `lineasDevolucion` in units, from its lines, a thousand returns at a time. */
function backfillListedLinesInUnits(db: Database, derive: DerivedValues): void {
  const returns = db.sqlite
    .prepare('SELECT id FROM returns WHERE id > ? AND listed_lines_units IS NULL ORDER BY id LIMIT 1000')
    .pluck()
  const lines = db.sqlite.prepare(
    'SELECT return_id, numero_linea, producto_id, producto_desc, uni_venta, factor_conversion, units, amount_cents FROM return_lines WHERE return_id BETWEEN ? AND ? ORDER BY return_id, id',
  )
  const update = db.sqlite.prepare('UPDATE returns SET listed_lines_units = ? WHERE id = ?')
  type LineRow = ListedLineRow & { return_id: number }
  for (let after = 0; ;) {
    const page = returns.all(after) as number[]
    if (page.length === 0) return
    const byReturn = new Map<number, LineRow[]>()
    for (const line of lines.all(page[0]!, page[page.length - 1]!) as LineRow[]) {
      const list = byReturn.get(line.return_id)
      if (list) list.push(line)
      else byReturn.set(line.return_id, [line])
    }
    for (const id of page) update.run(derive.listedLinesInUnits(byReturn.get(id) ?? []), id)
    after = page[page.length - 1]!
  }
}
