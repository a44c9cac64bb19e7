import assert from 'node:assert/strict'
import { test } from 'node:test'
import { all, type Database } from '../../src/db/database.ts'
import { MIGRATIONS } from '../../src/db/migrations/index.ts'
import { migrateDatabase } from '../../src/db/migrate.ts'
import { invoice, postBatch } from '../support/batches.ts'
import { insertBatchRow, insertInvoiceRow, insertManifestRow } from '../support/fixtures.ts'
import { FACTURA, operator, registerReturn, seedReturns } from '../support/operator.ts'
import { testScenarios, type DatabaseCheck, type ScenarioRequest } from '../support/scenarios.ts'
import { withService, type TestService } from '../support/service.ts'
import { DERIVED_VALUES } from '../../src/app/derived-values.ts'
import { CLOSE_UNSETTLED } from '../support/settlement.ts'

/**
 * manifest_totals and the invoice fields copied onto each return (migration 9) are kept by
 * triggers through every write path of invoices and returns. Each scenario runs its steps through
 * the real API and, after every step and its last request, compares them with the same values
 * recomputed from every invoice and return; at the end it also checks the totals themselves, so
 * a table left empty on both sides cannot pass.
 */

interface TotalsRow {
  manifiesto: string
  almacen: string
  invoices: number
  counted_invoices: number
  counted_micros: number
  holding_returns: number
  approved_cents: number
}

const COLUMNS = 'manifest_id, almacen, invoices, counted_invoices, counted_micros, holding_returns, approved_cents'

function maintained(db: Database): TotalsRow[] {
  return all(
    db,
    db.query
      .selectFrom('manifest_totals as t')
      .innerJoin('manifests as m', 'm.id', 't.manifest_id')
      .select([
        'm.numero as manifiesto',
        't.almacen',
        't.invoices',
        't.counted_invoices',
        't.counted_micros',
        't.holding_returns',
        't.approved_cents',
      ])
      .where('t.invoices', '>', 0)
      .orderBy('m.numero')
      .orderBy('t.almacen'),
  )
}

/** The totals summed from scratch, as the lists computed them before migration 9. */
function recomputed(db: Database): TotalsRow[] {
  return db.sqlite
    .prepare(
      `SELECT m.numero AS manifiesto, i.almacen, count(*) AS invoices, count(*) FILTER (WHERE i.annulled_at IS NULL) AS counted_invoices,
         coalesce(sum(i.total_micros) FILTER (WHERE i.annulled_at IS NULL), 0) AS counted_micros,
         (SELECT count(*) FROM returns r JOIN invoices ri ON ri.id = r.invoice_id WHERE ri.manifest_id = m.id AND ri.almacen = i.almacen AND r.estado IN ('pending', 'approved')) AS holding_returns,
         (SELECT coalesce(sum(r.total_cents), 0) FROM returns r JOIN invoices ri ON ri.id = r.invoice_id WHERE ri.manifest_id = m.id AND ri.almacen = i.almacen AND r.estado = 'approved') AS approved_cents
       FROM invoices i JOIN manifests m ON m.id = i.manifest_id GROUP BY m.id, i.almacen ORDER BY m.numero, i.almacen`,
    )
    .all() as TotalsRow[]
}

/** What each return holds of its invoice and manifest, and what it should hold. */
function copies(db: Database): { held: unknown[]; current: unknown[] } {
  return {
    held: db.sqlite.prepare('SELECT id, almacen, search_text FROM returns ORDER BY id').all(),
    current: db.sqlite
      .prepare(
        'SELECT r.id, i.almacen, i.nfactura || char(31) || i.cliente || char(31) || i.cliente_id || char(31) || m.numero AS search_text FROM returns r JOIN invoices i ON i.id = r.invoice_id JOIN manifests m ON m.id = i.manifest_id ORDER BY r.id',
      )
      .all(),
  }
}

const row = (manifiesto: string, almacen: string, counts: Omit<TotalsRow, 'manifiesto' | 'almacen'>): TotalsRow => ({
  manifiesto,
  almacen,
  ...counts,
})

type Step = (service: TestService) => Promise<{ status: number }>

const MOTIVO = { motivo: 'Cliente se equivocó' }
const seed: Step = async (service) => {
  await seedReturns(service)
  return { status: 200 }
}
const batch =
  (invoices: unknown[]): Step =>
  (service) =>
    postBatch(service, invoices)
const call =
  (method: string, path: string, body?: unknown): Step =>
  (service) =>
    operator(service, method, path, body)
const register =
  (lineas: unknown[], extra?: Record<string, unknown>): Step =>
  (service) =>
    registerReturn(service, lineas, extra)
const insert = (invoices: unknown[]): ScenarioRequest => ({
  as: 'client',
  method: 'POST',
  path: '/api/v1/facturas/insertar',
  body: invoices,
})

/** The totals match the ones recomputed from scratch, and each return's copies its invoice's current fields. */
function assertMaintained(service: TestService, when: string): void {
  assert.deepEqual(maintained(service.db), recomputed(service.db), when)
  const { held, current } = copies(service.db)
  assert.deepEqual(held, current, `copies ${when}`)
}

/** Runs the steps through the API, each answered its status, the totals kept after each. */
const steps =
  (...list: Array<[Step, number]>) =>
  async (service: TestService): Promise<void> => {
    for (const [index, [step, status]] of list.entries()) {
      assert.equal((await step(service)).status, status, `step ${index + 1}`)
      assertMaintained(service, `after step ${index + 1}`)
    }
  }

/** After the request the totals are still kept, and are these. */
const totals =
  (expected: TotalsRow[]): DatabaseCheck =>
  (service) =>
  () => {
    assertMaintained(service, 'after the request')
    assert.deepEqual(maintained(service.db), expected)
  }

// The example batch: 001-001-01-00912001 (OAC, 2300.18) and 001-001-01-00912002 (OAS, 188.97), manifest 905112.
const EXAMPLE = [
  row('905112', 'OAC', {
    invoices: 1,
    counted_invoices: 1,
    counted_micros: 2_300_180_000,
    holding_returns: 0,
    approved_cents: 0,
  }),
  row('905112', 'OAS', {
    invoices: 1,
    counted_invoices: 1,
    counted_micros: 188_970_000,
    holding_returns: 0,
    approved_cents: 0,
  }),
]

testScenarios(
  'manifest totals',
  [
    {
      name: 'batch inserts into two manifests and warehouses',
      setup: steps([seed, 200]),
      request: insert([
        invoice('N-1', '905113', { Total: 100.5 }),
        invoice('N-2', '905113', { Almacen: 'OAO', Total: 0.01 }),
        invoice('N-3', '905113', { Total: 1 }),
      ]),
      status: 200,
      database: totals([
        ...EXAMPLE,
        row('905113', 'OAC', {
          invoices: 2,
          counted_invoices: 2,
          counted_micros: 101_500_000,
          holding_returns: 0,
          approved_cents: 0,
        }),
        row('905113', 'OAO', {
          invoices: 1,
          counted_invoices: 1,
          counted_micros: 10_000,
          holding_returns: 0,
          approved_cents: 0,
        }),
      ]),
    },
    {
      name: 'returns registered, approved, rejected and cancelled',
      setup: steps(
        [seed, 200],
        [register([{ numeroLinea: 1, unidades: 1 }]), 201],
        [register([{ numeroLinea: 1, unidades: 2 }], { aprobar: true }), 201],
        [register([{ numeroLinea: 1, unidades: 3 }]), 201],
        [register([{ numeroLinea: 1, unidades: 4 }]), 201],
        [call('POST', 'devoluciones/1/aprobar'), 200],
        [call('POST', 'devoluciones/3/rechazar', MOTIVO), 200],
        [call('POST', 'devoluciones/2/anular', MOTIVO), 200],
      ),
      request: { method: 'POST', path: 'devoluciones/aprobar', body: { ids: ['4'] } },
      status: 200,
      // Held: 1 (approved, 1 unit = 35.88) and 4 (approved, 4 units = 143.52).
      database: totals([{ ...EXAMPLE[0]!, holding_returns: 2, approved_cents: 3588 + 14352 }, EXAMPLE[1]!]),
    },
    {
      name: 'an auto-update moves an invoice with its returns to another warehouse, total and client',
      service: { config: { intake: { autoUpdateFields: ['Almacen', 'Total', 'Cliente', 'Clienteid'] } } },
      setup: steps(
        [seed, 200],
        [register([{ numeroLinea: 1, unidades: 1 }], { aprobar: true }), 201],
        [register([{ numeroLinea: 1, unidades: 1 }]), 201],
      ),
      request: insert([
        invoice(FACTURA, '905112', {
          Almacen: 'OAS',
          Total: 2000,
          Cliente: 'ABARROTERIA NUEVA',
          Clienteid: '40999999',
        }),
      ]),
      status: 200,
      database: totals([
        row('905112', 'OAS', {
          invoices: 2,
          counted_invoices: 2,
          counted_micros: 2_188_970_000,
          holding_returns: 2,
          approved_cents: 3588,
        }),
      ]),
    },
    {
      name: 'an accepted conflict replaces the total; a discarded one changes nothing',
      setup: steps(
        [seed, 200],
        [register([{ numeroLinea: 1, unidades: 1 }], { aprobar: true }), 201],
        [batch([invoice(FACTURA, '905112', { Total: 2400, Cliente: 'NUEVO NOMBRE' })]), 200],
        [call('POST', 'conflictos/1/aceptar'), 200],
        [batch([invoice(FACTURA, '905112', { Total: 9999, Almacen: 'OAO' })]), 200],
      ),
      request: { method: 'POST', path: 'conflictos/2/descartar' },
      status: 200,
      database: totals([
        { ...EXAMPLE[0]!, counted_micros: 2_400_000_000, holding_returns: 1, approved_cents: 3588 },
        EXAMPLE[1]!,
      ]),
    },
    {
      name: 'a confirmed re-issue leaves the totals (still stored); a discarded one stays counted',
      setup: steps(
        [
          batch([
            invoice('A-1', '905100', { Clienteid: 'C1' }, '2026-11-21'),
            invoice('A-2', '905100', { Clienteid: 'C2', Total: 50 }, '2026-11-21'),
          ]),
          200,
        ],
        [
          batch([
            invoice('B-1', '905101', { Clienteid: 'C1' }),
            invoice('B-2', '905101', { Clienteid: 'C2', Total: 50 }),
            invoice('N-1', '905101', { Clienteid: 'C9', Total: 100 }),
          ]),
          200,
        ],
        [call('POST', 'reemisiones/1/confirmar'), 200],
      ),
      request: { method: 'POST', path: 'reemisiones/2/descartar' },
      status: 200,
      database: totals([
        row('905100', 'OAC', {
          invoices: 2,
          counted_invoices: 2,
          counted_micros: 2_350_180_000,
          holding_returns: 0,
          approved_cents: 0,
        }),
        row('905101', 'OAC', {
          invoices: 3,
          counted_invoices: 2,
          counted_micros: 150_000_000,
          holding_returns: 0,
          approved_cents: 0,
        }),
      ]),
    },
    {
      name: 'closing and reopening a manifest keeps its totals',
      service: { config: CLOSE_UNSETTLED },
      setup: steps(
        [seed, 200],
        [register([{ numeroLinea: 1, unidades: 1 }], { aprobar: true }), 201],
        [call('POST', 'manifiestos/905112/cerrar', { motivo: 'Ruta completa' }), 200],
      ),
      request: { method: 'POST', path: 'manifiestos/905112/reabrir', body: { motivo: 'Faltó una devolución' } },
      status: 200,
      database: totals([{ ...EXAMPLE[0]!, holding_returns: 1, approved_cents: 3588 }, EXAMPLE[1]!]),
    },
  ],
  { as: 'operator' },
)

test('manifest totals: migration 9 sums the invoices and returns already stored and copies the invoice fields onto the returns', () => {
  let before: TotalsRow[] = []
  return withService(
    {
      beforeMigrate: (db) => {
        migrateDatabase(
          db,
          DERIVED_VALUES,
          MIGRATIONS.filter((migration) => migration.version <= 7),
        )
        const batchId = insertBatchRow(db)
        const first = insertManifestRow(db, { numero: '905112', createdAt: '2026-11-22T16:00:00.000Z', batchId })
        const second = insertManifestRow(db, { numero: '905113', createdAt: '2026-11-22T17:00:00.000Z', batchId })
        const a = insertInvoiceRow(db, { nfactura: 'F-1', manifestId: first, batchId, total: 10.25 })
        insertInvoiceRow(db, { nfactura: 'F-2', manifestId: first, batchId, total: 0.1 })
        const c = insertInvoiceRow(db, { nfactura: 'F-3', manifestId: second, batchId, total: 7 })
        db.sqlite
          .exec(`UPDATE invoices SET almacen = 'OAS' WHERE id = ${c}; UPDATE invoices SET annulled_at = '2026-11-22T18:00:00.000Z' WHERE nfactura = 'F-2';
          INSERT INTO return_reasons (codigo, descripcion, created_at) VALUES ('DANADO', 'Producto dañado', '2026-11-22T16:00:00.000Z');
          INSERT INTO returns (invoice_id, reason_codigo, fecha, estado, total_cents, listed_lines, registered_at, registered_date, registered_by)
            VALUES (${a}, 'DANADO', '2026-11-22T09:00:00', 'approved', 500, '[]', '2026-11-22T16:00:00.000Z', '2026-11-22', 'Ana'),
                   (${a}, 'DANADO', '2026-11-22T09:00:00', 'pending', 70, '[]', '2026-11-22T16:00:00.000Z', '2026-11-22', 'Ana'),
                   (${c}, 'DANADO', '2026-11-22T09:00:00', 'cancelled', 90, '[]', '2026-11-22T16:00:00.000Z', '2026-11-22', 'Ana')`)
        before = recomputed(db)
      },
    },
    async (service) => {
      assert.deepEqual(before, [
        row('905112', 'OAC', {
          invoices: 2,
          counted_invoices: 1,
          counted_micros: 10_250_000,
          holding_returns: 2,
          approved_cents: 500,
        }),
        row('905113', 'OAS', {
          invoices: 1,
          counted_invoices: 1,
          counted_micros: 7_000_000,
          holding_returns: 0,
          approved_cents: 0,
        }),
      ])
      assert.deepEqual(maintained(service.db), before)
      assert.equal(
        service.db.sqlite.prepare(`SELECT count(*) FROM (SELECT ${COLUMNS} FROM manifest_totals)`).pluck().get(),
        2,
      )
      const { held, current } = copies(service.db)
      assert.deepEqual(held, current)
      assert.deepEqual(
        held.map((entry) =>
          Object.values(entry as object)
            .slice(1)
            .join(' '),
        ),
        [
          'OAC F-1\u001fCliente de prueba\u001fC01\u001f905112',
          'OAC F-1\u001fCliente de prueba\u001fC01\u001f905112',
          'OAS F-3\u001fCliente de prueba\u001fC01\u001f905113',
        ],
      )
    },
  )
})
