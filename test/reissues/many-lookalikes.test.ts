import assert from 'node:assert/strict'
import { test } from 'node:test'
import { LocalDate } from '@js-joda/core'
import { findReissueCandidates } from '../../src/reissues/reissues.detection.ts'
import { invoice, postBatch, type Invoice } from '../support/batches.ts'
import { withService } from '../support/service.ts'

/**
 * A pulpería that buys the same single product every week: 3,000 stored invoices of one customer
 * with the same line and Total, then 3,000 new ones. Comparing each new invoice with every stored
 * look-alike took 18.8 s (27.7 s on the machine that found it), and the process answered nothing
 * else meanwhile; the bench measures the time and the longest ping, these tests the answer and the
 * bound on what is compared.
 */
const COUNT = 3000

function lookalikes(prefix: string, manifiesto: string, fecha: string): Invoice[] {
  const line = (invoice('x').LineasFactura as Invoice[])[0]!
  return Array.from({ length: COUNT }, (_, i) =>
    invoice(
      `${prefix}-${i + 1}`,
      manifiesto,
      { Clienteid: 'C-PULPERIA', Total: 100, LineasFactura: [{ ...line, Total: 100 }] },
      fecha,
    ),
  )
}

const CONFIG = { config: { rateLimits: { insertPerMinute: 1000 } } }

test('re-issues: 3,000 new look-alikes of 3,000 stored ones are answered, each flagged once, naming a stored one', () =>
  withService(CONFIG, async (service) => {
    service.clock.set('2026-11-21T16:00:00Z')
    assert.equal((await postBatch(service, lookalikes('A', '905100', '2026-11-21'))).status, 200)
    service.clock.set('2026-11-22T16:00:00Z')
    const { status, body } = await postBatch(service, lookalikes('B', '905101', '2026-11-22'))
    assert.equal(status, 200, JSON.stringify(body))
    assert.equal(body.resumen.insertadas, COUNT)
    const flagged = service.db.sqlite
      .prepare(
        "SELECT count(*) AS copies, count(DISTINCT x.invoice_id) AS distinct_copies, min(o.nfactura = 'A-1') AS all_name_the_first FROM invoice_reissues x JOIN invoices o ON o.id = x.original_invoice_id",
      )
      .get() as { copies: number; distinct_copies: number; all_name_the_first: number }
    assert.deepEqual(flagged, { copies: COUNT, distinct_copies: COUNT, all_name_the_first: 1 })
  }))

test('re-issues: whatever is stored, a batch meets one row per fingerprint and day: its first look-alike and the first of another manifest', () =>
  withService(CONFIG, async (service) => {
    service.clock.set('2026-11-21T16:00:00Z')
    assert.equal((await postBatch(service, lookalikes('A', '905100', '2026-11-21'))).status, 200)
    assert.equal(
      (
        await postBatch(
          service,
          lookalikes('C', '905102', '2026-11-21').map((copy, i) => ({ ...copy, Nfactura: `C-${i}` })),
        )
      ).status,
      200,
    )
    const fingerprint = service.db.sqlite
      .prepare("SELECT fingerprint FROM invoices WHERE nfactura = 'A-1'")
      .pluck()
      .get() as string
    const candidates = findReissueCandidates(service.db, [{ fingerprint, date: LocalDate.parse('2026-11-22') }], 3)
    const byDay = candidates.get(fingerprint)!
    const nfactura = (id: number | null) =>
      service.db.sqlite.prepare('SELECT nfactura FROM invoices WHERE id = ?').pluck().get(id)
    assert.deepEqual(
      [...byDay].map(([day, lookalikes]) => [
        LocalDate.ofEpochDay(day).toString(),
        nfactura(lookalikes.first_id),
        nfactura(lookalikes.second_id),
      ]),
      [['2026-11-21', 'A-1', 'C-0']],
    )
  }))
