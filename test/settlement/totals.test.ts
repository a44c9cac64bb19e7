import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Database } from '../../src/db/database.ts'
import { withService, type TestService } from '../support/service.ts'
import {
  acceptBatch,
  as,
  createPeople,
  deposit,
  depositBody,
  lineInvoice,
  returnOf,
  seedReason,
} from '../support/settlement.ts'

/**
 * What the lists read of each part's settlement — manifest_totals' pending_returns,
 * deposited_cents, justified_deposits and adjusted_cents (migration 11) — is kept by triggers
 * through every write of returns, deposits and adjustments. After every step it is compared with
 * the same values summed from the stored rows; at the end the values themselves are checked too.
 */
const SETTLED = 'manifest_id, almacen, pending_returns, deposited_cents, justified_deposits, adjusted_cents'

function maintained(db: Database): unknown[] {
  return db.sqlite
    .prepare(`SELECT ${SETTLED} FROM manifest_totals WHERE invoices > 0 ORDER BY manifest_id, almacen`)
    .all()
}

function recomputed(db: Database): unknown[] {
  return db.sqlite
    .prepare(
      `SELECT t.manifest_id, t.almacen,
         (SELECT count(*) FROM returns r JOIN invoices i ON i.id = r.invoice_id WHERE i.manifest_id = t.manifest_id AND i.almacen = t.almacen AND r.estado = 'pending') AS pending_returns,
         (SELECT coalesce(sum(amount_cents), 0) FROM deposits d WHERE d.manifest_id = t.manifest_id AND d.almacen = t.almacen AND d.estado = 'active') AS deposited_cents,
         (SELECT count(*) FROM deposits d WHERE d.manifest_id = t.manifest_id AND d.almacen = t.almacen AND d.estado = 'active' AND d.justificacion IS NOT NULL) AS justified_deposits,
         (SELECT coalesce(sum(amount_cents), 0) FROM settlement_adjustments a WHERE a.manifest_id = t.manifest_id AND a.almacen = t.almacen) AS adjusted_cents
       FROM manifest_totals t WHERE t.invoices > 0 ORDER BY t.manifest_id, t.almacen`,
    )
    .all()
}

type Step = [string, (service: TestService) => Promise<unknown>]

/** A change through the API that must be answered `status`. */
const call =
  (status: number, send: (service: TestService) => Promise<{ status: number; body: unknown }>) =>
  async (service: TestService) => {
    const answer = await send(service)
    assert.equal(answer.status, status, JSON.stringify(answer.body))
  }
const JUSTIFIED = 'Depositó también un vale de la ruta anterior'

const steps: Step[] = [
  [
    'the batch',
    (service) =>
      acceptBatch(service, [
        lineInvoice('F-1', '905112', 'OAC', 100),
        lineInvoice('F-2', '905112', 'OAS', 50),
        lineInvoice('F-3', '905113', 'OAC', 10),
      ]),
  ],
  [
    'people and a reason',
    async (service) => {
      await createPeople(service)
      await seedReason(service)
    },
  ],
  ['a pending return', (service) => returnOf(service, 'F-1', 10, 'pending')],
  ['it is approved', call(200, (service) => as(service, 'clave', 'POST', 'devoluciones/1/aprobar'))],
  ['another pending, rejected', (service) => returnOf(service, 'F-2', 5, 'rejected')],
  ['another pending, kept', (service) => returnOf(service, 'F-2', 5, 'pending')],
  ['registered and approved at once, then cancelled', (service) => returnOf(service, 'F-1', 5, 'cancelled')],
  ['a deposit', (service) => deposit(service, '905112', depositBody(60, { almacen: 'OAC' }))],
  [
    'a justified overpayment',
    (service) => deposit(service, '905112', depositBody(40, { almacen: 'OAC', justificacion: JUSTIFIED })),
  ],
  ['a deposit of the other part', (service) => deposit(service, '905112', depositBody(20, { almacen: 'OAS' }))],
  ['an amount edited', call(200, (service) => as(service, 'clave', 'PUT', 'depositos/1', { monto: 50 }))],
  [
    'a justification removed where none is needed',
    call(200, (service) => as(service, 'clave', 'PUT', 'depositos/2', { monto: 30, justificacion: null })),
  ],
  [
    'a justification added',
    call(200, (service) => as(service, 'clave', 'PUT', 'depositos/3', { justificacion: JUSTIFIED })),
  ],
  [
    'a cancellation',
    call(200, (service) => as(service, 'fin-oac', 'POST', 'depositos/1/anular', { motivo: 'Registrado dos veces' })),
  ],
  [
    'adjustments',
    async (service) => {
      await as(service, 'admin', 'POST', 'manifiestos/905112/ajustes', {
        almacen: 'OAC',
        monto: 0.5,
        motivo: 'Redondeo del banco',
      })
      await as(service, 'admin', 'POST', 'manifiestos/905112/ajustes', {
        almacen: 'OAS',
        monto: -0.25,
        motivo: 'Redondeo del banco',
      })
    },
  ],
  ['a deposit of another manifest', (service) => deposit(service, '905113', depositBody(10))],
  [
    'a refused deposit changes nothing',
    call(422, (service) => as(service, 'clave', 'POST', 'manifiestos/905113/depositos', depositBody(5))),
  ],
]

test('settlement totals: every write keeps manifest_totals equal to the stored rows', () =>
  withService({}, async (service) => {
    for (const [name, step] of steps) {
      await step(service)
      assert.deepEqual(maintained(service.db), recomputed(service.db), `after «${name}»`)
    }
    assert.deepEqual(maintained(service.db), [
      {
        manifest_id: 1,
        almacen: 'OAC',
        pending_returns: 0,
        deposited_cents: 3000,
        justified_deposits: 0,
        adjusted_cents: 50,
      },
      {
        manifest_id: 1,
        almacen: 'OAS',
        pending_returns: 1,
        deposited_cents: 2000,
        justified_deposits: 1,
        adjusted_cents: -25,
      },
      {
        manifest_id: 2,
        almacen: 'OAC',
        pending_returns: 0,
        deposited_cents: 1000,
        justified_deposits: 0,
        adjusted_cents: 0,
      },
    ])
  }))

test('settlement totals: a pending return follows its invoice when the invoice moves to another part', () =>
  withService({}, async (service) => {
    await acceptBatch(service, [lineInvoice('F-1', '905112', 'OAC', 100), lineInvoice('F-2', '905112', 'OAS', 50)])
    await seedReason(service)
    await returnOf(service, 'F-1', 10, 'pending')
    // No route moves an invoice to another warehouse today; the triggers hold if a future one does.
    service.db.sqlite.prepare("UPDATE invoices SET almacen = 'OAO' WHERE nfactura = 'F-1'").run()
    assert.deepEqual(maintained(service.db), recomputed(service.db))
    service.db.sqlite.prepare("UPDATE invoices SET almacen = 'OAS' WHERE nfactura = 'F-1'").run()
    assert.deepEqual(maintained(service.db), recomputed(service.db))
    assert.deepEqual(
      service.db.sqlite.prepare('SELECT almacen, pending_returns FROM manifest_totals WHERE pending_returns > 0').all(),
      [{ almacen: 'OAS', pending_returns: 1 }],
    )
  }))
