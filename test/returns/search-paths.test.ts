import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Database } from '../../src/db/database.ts'
import { insertBatchRow, insertInvoiceRow, insertManifestRow } from '../support/fixtures.ts'
import { operator } from '../support/operator.ts'
import { withService } from '../support/service.ts'

/**
 * A search of the returns list picks its page from the index when few returns match (≤ 2,000)
 * and walks the returns by id when many do (src/returns/returns.store.ts). Both must answer what
 * the search meant before the text was copied onto the returns: the returns whose invoice's
 * number, client or Clienteid, or whose manifest's number, contains the text, newest first.
 * 2,100 returns on invoices F-00001…F-02100 of manifests 905112 (the first 1,500) and 905113.
 */
function seed(db: Database): void {
  const batchId = insertBatchRow(db)
  const manifests = [insertManifestRow(db, { numero: '905112', createdAt: '2026-11-22T16:00:00.000Z', batchId }), insertManifestRow(db, { numero: '905113', createdAt: '2026-11-22T16:00:00.000Z', batchId })]
  db.sqlite.exec("INSERT INTO return_reasons (codigo, descripcion, created_at) VALUES ('DANADO', 'Producto dañado', '2026-11-22T16:00:00.000Z')")
  const addReturn = db.sqlite.prepare(
    "INSERT INTO returns (invoice_id, reason_codigo, fecha, estado, total_cents, listed_lines, registered_at, registered_date, registered_by, invoice_date) VALUES (?, 'DANADO', '2026-11-22T09:00:00', 'pending', 100, '[]', '2026-11-22T16:00:00.000Z', '2026-11-22', 'Ana', '2026-11-22')",
  )
  db.sqlite.transaction(() => {
    for (let n = 1; n <= 2100; n++) {
      const invoiceId = insertInvoiceRow(db, { nfactura: `F-${String(n).padStart(5, '0')}`, manifestId: manifests[n <= 1500 ? 0 : 1]!, batchId, total: n })
      if (n % 7 === 0) db.sqlite.prepare("UPDATE invoices SET cliente = 'Pulpería Ñandú', cliente_id = 'C77' WHERE id = ?").run(invoiceId)
      addReturn.run(invoiceId)
    }
  })()
}

/** The page as the search was computed before: joining every return's invoice and manifest. */
function expected(db: Database, text: string, pagina: number): { total: number; ids: string[] } {
  const pattern = `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`
  const where = "FROM returns r JOIN invoices i ON i.id = r.invoice_id JOIN manifests m ON m.id = i.manifest_id WHERE i.nfactura LIKE @pattern ESCAPE '\\' OR i.cliente LIKE @pattern ESCAPE '\\' OR i.cliente_id LIKE @pattern ESCAPE '\\' OR m.numero LIKE @pattern ESCAPE '\\'"
  const total = db.sqlite.prepare(`SELECT count(*) ${where}`).pluck().get({ pattern }) as number
  const ids = db.sqlite.prepare(`SELECT r.id ${where} ORDER BY r.id DESC LIMIT 100 OFFSET @offset`).pluck().all({ pattern, offset: (pagina - 1) * 100 }) as number[]
  return { total, ids: ids.map(String) }
}

const searches: Array<{ name: string; buscar: string; pagina: number; total: number }> = [
  { name: 'every return matches (walked by id)', buscar: 'f-0', pagina: 1, total: 2100 },
  { name: 'every return matches, a later page (walked by id)', buscar: 'F-0', pagina: 21, total: 2100 },
  { name: 'the client of one invoice in seven, accented letters as written (index)', buscar: 'pulpería Ñ', pagina: 3, total: 300 },
  { name: 'an accented capital is not folded, as before (index, nothing)', buscar: 'pulpería ñ', pagina: 1, total: 0 },
  { name: 'a client id (index)', buscar: 'C77', pagina: 1, total: 300 },
  { name: 'a manifest number (index)', buscar: '905113', pagina: 6, total: 600 },
  { name: 'the manifest number or invoice numbers that contain it (index)', buscar: '9051', pagina: 1, total: 2100 },
  { name: 'a part of invoice numbers (index)', buscar: '-0201', pagina: 1, total: 10 },
  { name: 'a % is literal (index, nothing)', buscar: '%', pagina: 1, total: 0 },
  { name: 'text across two fields matches nothing (index)', buscar: '02100Cliente', pagina: 1, total: 0 },
]

for (const search of searches) {
  test(`returns search paths: ${search.name}`, () =>
    withService({}, async (service) => {
      seed(service.db)
      const want = expected(service.db, search.buscar, search.pagina)
      assert.equal(want.total, search.total)
      const { status, body } = await operator(service, 'GET', `devoluciones?buscar=${encodeURIComponent(search.buscar)}&pagina=${search.pagina}`)
      assert.equal(status, 200)
      assert.deepEqual({ total: body.total, ids: (body.devoluciones as Array<{ id: string }>).map((entry) => entry.id) }, want)
    }))
}
