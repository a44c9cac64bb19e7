import assert from 'node:assert/strict'
import { test } from 'node:test'
import { withService, type ConfigOverrides, type TestService } from '../support/service.ts'
import {
  acceptBatch,
  as,
  createPeople,
  deposit,
  depositBody,
  lineInvoice,
  returnOf,
  seedReason,
  settlementRows,
  type Who,
} from '../support/settlement.ts'

/**
 * Closing a manifest needs it settled (settlement.closeRequiresSettlement, true by default): every
 * part's diferencia 0, or negative with a justified overpayment, and no pending return. The 422
 * says what is missing. 905112 holds F-1 (OAC, L 1,234.50) and F-2 (OAS, L 20.00).
 */
const JUSTIFIED = 'Se depositó también el vale de la ruta anterior'

interface Row {
  name: string
  config?: ConfigOverrides
  who?: Who
  setup: (service: TestService) => Promise<unknown>
  status: number
  message?: string
}

const both = (service: TestService) =>
  Promise.all([
    deposit(service, '905112', depositBody(1234.5, { almacen: 'OAC' })),
    deposit(service, '905112', depositBody(20, { almacen: 'OAS' })),
  ])

const rows: Row[] = [
  {
    name: 'finance may not close',
    who: 'fin-oac',
    setup: async () => {},
    status: 403,
    message:
      'Su rol (finanzas) no permite cerrar o reabrir manifiestos ni cambiar su plazo de devoluciones; pídaselo a un supervisor.',
  },
  {
    name: 'nothing deposited',
    setup: async () => {},
    status: 422,
    message:
      'No se puede cerrar el manifiesto 905112: falta depositar L 1,234.50 del almacén OAC y L 20.00 del almacén OAS. Registre lo que falta (o ajuste los centavos) y vuelva a cerrarlo.',
  },
  {
    name: 'one part settled, the other short by a cent, with two pending returns',
    setup: async (service) => {
      await deposit(service, '905112', depositBody(1234.5, { almacen: 'OAC' }))
      await deposit(service, '905112', depositBody(19.99, { almacen: 'OAS' }))
      await returnOf(service, 'F-1', 1, 'pending')
      await returnOf(service, 'F-2', 1, 'pending')
    },
    status: 422,
    message:
      'No se puede cerrar el manifiesto 905112: falta depositar L 0.01 del almacén OAS; hay 2 devoluciones pendientes. Registre lo que falta (o ajuste los centavos) y vuelva a cerrarlo.',
  },
  {
    name: 'the money settled, but a return pending',
    setup: async (service) => {
      await both(service)
      await returnOf(service, 'F-2', 1, 'pending')
    },
    status: 422,
    message:
      'No se puede cerrar el manifiesto 905112: hay 1 devolución pendiente. Registre lo que falta (o ajuste los centavos) y vuelva a cerrarlo.',
  },
  {
    name: 'money over without a justification (a return approved after the deposits)',
    setup: async (service) => {
      await both(service)
      await returnOf(service, 'F-1', 10, 'approved')
    },
    status: 422,
    message:
      'No se puede cerrar el manifiesto 905112: sobran L 123.45 del almacén OAC sin justificación (justifique el depósito de más o corríjalo). Registre lo que falta (o ajuste los centavos) y vuelva a cerrarlo.',
  },
  { name: 'every part settled exactly', setup: both, status: 200 },
  {
    name: 'an overpayment justified',
    setup: async (service) => {
      await deposit(service, '905112', depositBody(1300, { almacen: 'OAC', justificacion: JUSTIFIED }))
      await deposit(service, '905112', depositBody(20, { almacen: 'OAS' }))
    },
    status: 200,
  },
  {
    name: 'settled with a cent adjustment',
    setup: async (service) => {
      await deposit(service, '905112', depositBody(1234.49, { almacen: 'OAC' }))
      await deposit(service, '905112', depositBody(20, { almacen: 'OAS' }))
      await as(service, 'fin-oac', 'POST', 'manifiestos/905112/ajustes', {
        monto: 0.01,
        motivo: 'El banco cobró un centavo',
      })
    },
    status: 200,
  },
  {
    name: 'every invoice came back: nothing to deposit, it closes',
    setup: async (service) => {
      await returnOf(service, 'F-1', 100, 'approved')
      await returnOf(service, 'F-2', 100, 'approved')
    },
    status: 200,
  },
  {
    name: 'returns rejected and cancelled do not hold it',
    setup: async (service) => {
      await returnOf(service, 'F-1', 5, 'rejected')
      await returnOf(service, 'F-2', 5, 'cancelled')
      await both(service)
    },
    status: 200,
  },
  {
    name: 'with settlement.closeRequiresSettlement false it closes unsettled, as before',
    config: { settlement: { closeRequiresSettlement: false } },
    setup: async () => {},
    status: 200,
  },
]

for (const row of rows) {
  test(`closing: ${row.name} → ${row.status}`, () =>
    withService({ config: row.config ?? {} }, async (service) => {
      await acceptBatch(service, [lineInvoice('F-1', '905112', 'OAC', 1234.5), lineInvoice('F-2', '905112', 'OAS', 20)])
      await seedReason(service)
      await createPeople(service)
      await row.setup(service)
      const who = row.who ?? 'sup'
      await as(service, who, 'GET', 'resumen')
      const before = settlementRows(service)
      const detail = await as(service, who, 'GET', 'manifiestos/905112')
      const answer = await as(service, who, 'POST', 'manifiestos/905112/cerrar', { motivo: 'Ruta liquidada' })
      assert.equal(answer.status, row.status, JSON.stringify(answer.body))
      const estado = service.db.sqlite.prepare("SELECT estado FROM manifests WHERE numero = '905112'").pluck().get()
      if (row.status !== 200) {
        assert.equal(answer.body.message, row.message)
        assert.deepEqual([estado, settlementRows(service)], ['imported', before], 'a refusal changes nothing')
        if (row.status === 422) {
          assert.equal(detail.body.liquidacion.lista_para_cerrar, false, 'the manifest says it is not ready')
          assert.equal(
            `No se puede cerrar el manifiesto 905112: ${detail.body.liquidacion.falta.charAt(0).toLowerCase()}${detail.body.liquidacion.falta.slice(1)} Registre lo que falta (o ajuste los centavos) y vuelva a cerrarlo.`,
            row.message,
            "falta is the refusal's sentence",
          )
        }
        return
      }
      assert.equal(detail.body.liquidacion.lista_para_cerrar, true, 'the manifest said it was ready')
      assert.deepEqual(
        [estado, answer.body.estado, answer.body.liquidacion.lista_para_cerrar, answer.body.liquidacion.falta],
        ['closed', 'closed', false, null],
      )
    }))
}

/** 905112 settled and closed, with its deposits: who may reopen it. */
const reopenRows: Array<{ who: Who; cancel?: boolean; status: number; message?: string }> = [
  {
    who: 'sup',
    status: 403,
    message:
      'El manifiesto 905112 tiene depósitos registrados: solo el administrador puede reabrirlo. Pídaselo al administrador.',
  },
  {
    who: 'clave',
    status: 403,
    message:
      'El manifiesto 905112 tiene depósitos registrados: solo el administrador puede reabrirlo. Pídaselo al administrador.',
  },
  {
    who: 'fin-oac',
    status: 403,
    message:
      'Su rol (finanzas) no permite cerrar o reabrir manifiestos ni cambiar su plazo de devoluciones; pídaselo a un supervisor.',
  },
  { who: 'admin', status: 200 },
]

for (const row of reopenRows) {
  test(`closing: ${row.who} reopens a manifest with deposits → ${row.status}; its deposits and adjustments stay`, () =>
    withService({}, async (service) => {
      await acceptBatch(service, [lineInvoice('F-1', '905112', 'OAC', 10)])
      await createPeople(service)
      await deposit(service, '905112', depositBody(9.99))
      assert.equal(
        (
          await as(service, 'admin', 'POST', 'manifiestos/905112/ajustes', {
            monto: 0.01,
            motivo: 'Redondeo del banco',
          })
        ).status,
        201,
      )
      assert.equal((await as(service, 'sup', 'POST', 'manifiestos/905112/cerrar')).status, 200)
      const answer = await as(service, row.who, 'POST', 'manifiestos/905112/reabrir', {
        motivo: 'Falta registrar una devolución',
      })
      assert.equal(answer.status, row.status, JSON.stringify(answer.body))
      if (row.message) assert.equal(answer.body.message, row.message)
      const estado = service.db.sqlite.prepare("SELECT estado FROM manifests WHERE numero = '905112'").pluck().get()
      assert.equal(estado, row.status === 200 ? 'imported' : 'closed')
      assert.deepEqual([settlementRows(service).deposits, settlementRows(service).adjustments], [1, 1])
      if (row.status === 200)
        assert.deepEqual(
          [answer.body.liquidacion.depositado, answer.body.liquidacion.ajustes, answer.body.liquidacion.diferencia],
          [9.99, 0.01, 0],
        )
    }))
}

test('closing: without active deposits (only cancelled ones) a supervisor reopens', () =>
  withService({}, async (service) => {
    await acceptBatch(service, [lineInvoice('F-1', '905112', 'OAC', 10)])
    await seedReason(service)
    await createPeople(service)
    const id = await deposit(service, '905112', depositBody(10))
    assert.equal(
      (await as(service, 'fin-oac', 'POST', `depositos/${id}/anular`, { motivo: 'Era de otro manifiesto' })).status,
      200,
    )
    await returnOf(service, 'F-1', 100, 'approved')
    assert.equal((await as(service, 'sup', 'POST', 'manifiestos/905112/cerrar')).status, 200)
    assert.equal(
      (await as(service, 'sup', 'POST', 'manifiestos/905112/reabrir', { motivo: 'Falta una devolución' })).status,
      200,
    )
  }))

test('closing: a closed manifest takes no deposit, adjustment, edit, cancellation or receipt', () =>
  withService({}, async (service) => {
    await acceptBatch(service, [lineInvoice('F-1', '905112', 'OAC', 10)])
    await createPeople(service)
    const id = await deposit(service, '905112', depositBody(10))
    assert.equal((await as(service, 'sup', 'POST', 'manifiestos/905112/cerrar')).status, 200)
    const before = settlementRows(service)
    const answers = [
      await as(service, 'fin-oac', 'POST', 'manifiestos/905112/depositos', depositBody(1)),
      await as(service, 'fin-oac', 'POST', 'manifiestos/905112/ajustes', { monto: 0.01, motivo: 'Redondeo del banco' }),
      await as(service, 'fin-oac', 'PUT', `depositos/${id}`, { monto: 9 }),
      await as(service, 'fin-oac', 'POST', `depositos/${id}/anular`, { motivo: 'Registrado dos veces' }),
    ]
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [422, 422, 422, 422],
    )
    assert.deepEqual(settlementRows(service), { ...before, audit: settlementRows(service).audit })
  }))
