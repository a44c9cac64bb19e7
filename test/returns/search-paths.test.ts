import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Database } from '../../src/db/database.ts'
import { matchesSearch, searchTerms } from '../../src/shared/search-terms.ts'
import { insertBatchRow, insertInvoiceRow, insertManifestRow } from '../support/fixtures.ts'
import { operator } from '../support/operator.ts'
import { withService } from '../support/service.ts'

/**
 * A search of the returns list picks its page by sorting the matches when few returns match
 * (≤ 2,000) and walks the returns by id when many do (src/returns/return-lists.store.ts). Both must
 * answer what the search means (issue 41, src/shared/search-terms.ts): the returns whose invoice
 * has, for every word searched, a word beginning with it — in its number, client, Clienteid, RTN,
 * route or manifest number — ignoring case and accents, newest first.
 * 2,100 returns on invoices F-00001…F-02100 of manifests 905112 (the first 1,500) and 905113.
 */
function seed(db: Database): void {
  const batchId = insertBatchRow(db)
  const manifests = [
    insertManifestRow(db, { numero: '905112', createdAt: '2026-11-22T16:00:00.000Z', batchId }),
    insertManifestRow(db, { numero: '905113', createdAt: '2026-11-22T16:00:00.000Z', batchId }),
  ]
  db.sqlite.exec(
    "INSERT INTO return_reasons (codigo, descripcion, created_at) VALUES ('DANADO', 'Producto dañado', '2026-11-22T16:00:00.000Z')",
  )
  const addReturn = db.sqlite.prepare(
    "INSERT INTO returns (invoice_id, reason_codigo, fecha, estado, total_cents, listed_lines, registered_at, registered_date, registered_by, invoice_date) VALUES (?, 'DANADO', '2026-11-22T09:00:00', 'pending', 100, '[]', '2026-11-22T16:00:00.000Z', '2026-11-22', 'Ana', '2026-11-22')",
  )
  db.sqlite.transaction(() => {
    for (let n = 1; n <= 2100; n++) {
      const invoiceId = insertInvoiceRow(db, {
        nfactura: `F-${String(n).padStart(5, '0')}`,
        manifestId: manifests[n <= 1500 ? 0 : 1]!,
        batchId,
        total: n,
      })
      if (n % 7 === 0)
        db.sqlite
          .prepare("UPDATE invoices SET cliente = 'Pulpería Ñandú', cliente_id = 'C77' WHERE id = ?")
          .run(invoiceId)
      addReturn.run(invoiceId)
    }
  })()
}

/** The page as the search means it, computed in JS over every return's invoice and manifest (no index). */
function expected(db: Database, text: string, pagina: number): { total: number; ids: string[] } {
  const terms = searchTerms(text)
  const rows = db.sqlite
    .prepare(
      'SELECT r.id, i.nfactura, i.cliente, i.cliente_id, i.rtn, i.numero_ruta, m.numero FROM returns r JOIN invoices i ON i.id = r.invoice_id JOIN manifests m ON m.id = i.manifest_id ORDER BY r.id DESC',
    )
    .all() as Array<{
    id: number
    nfactura: string
    cliente: string
    cliente_id: string
    rtn: string | null
    numero_ruta: string | null
    numero: string
  }>
  const lastDigits = (nfactura: string) => /([0-9]+)$/.exec(nfactura)?.[1]?.replace(/^0+/, '') ?? ''
  const found =
    terms.length === 0
      ? []
      : rows.filter((row) =>
          matchesSearch(
            [row.nfactura, lastDigits(row.nfactura), row.cliente, row.cliente_id, row.rtn, row.numero_ruta, row.numero],
            terms,
          ),
        )
  return { total: found.length, ids: found.slice((pagina - 1) * 100, pagina * 100).map((row) => String(row.id)) }
}

const searches: Array<{ name: string; buscar: string; pagina: number; total: number }> = [
  { name: 'every return matches (walked by id)', buscar: 'f-0', pagina: 1, total: 2100 },
  { name: 'every return matches, a later page (walked by id)', buscar: 'F-0', pagina: 21, total: 2100 },
  {
    name: 'the client of one invoice in seven, accented letters as written (index)',
    buscar: 'pulpería Ñ',
    pagina: 3,
    total: 300,
  },
  { name: 'without accents, lower case, other word order (index)', buscar: 'nandu pulperia', pagina: 1, total: 300 },
  { name: 'a client id (index)', buscar: 'C77', pagina: 1, total: 300 },
  { name: 'a manifest number (index)', buscar: '905113', pagina: 6, total: 600 },
  { name: 'the beginning of the manifest number (walked by id)', buscar: '9051', pagina: 1, total: 2100 },
  { name: 'the beginning of a group of an invoice number (index)', buscar: '-0201', pagina: 1, total: 10 },
  {
    name: 'the last group of an invoice number without its zeros, as the warehouse says it: 201 finds F-00201 and F-02010…F-02019 (index)',
    buscar: '201',
    pagina: 1,
    total: 11,
  },
  { name: 'a search without a letter or digit finds nothing', buscar: '%', pagina: 1, total: 0 },
  { name: 'text across two fields matches nothing (index)', buscar: '02100Cliente', pagina: 1, total: 0 },
]

for (const search of searches) {
  test(`returns search paths: ${search.name}`, () =>
    withService({}, async (service) => {
      seed(service.db)
      const want = expected(service.db, search.buscar, search.pagina)
      assert.equal(want.total, search.total)
      const { status, body } = await operator(
        service,
        'GET',
        `devoluciones?buscar=${encodeURIComponent(search.buscar)}&pagina=${search.pagina}`,
      )
      assert.equal(status, 200)
      assert.deepEqual(
        { total: body.total, ids: (body.devoluciones as Array<{ id: string }>).map((entry) => entry.id) },
        want,
      )
    }))
}
