import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Invoice } from '../support/batches.ts'
import {
  acceptBatch,
  as,
  createPeople,
  deposit,
  depositBody,
  lineInvoice,
  returnOf,
  seedReason,
  settlementOf,
  type ReturnEnd,
  type Who,
} from '../support/settlement.ts'
import { withService, type TestService } from '../support/service.ts'

/**
 * The settlement's formulas (issue 40, contract §12), per warehouse part and in total, in exact
 * cents: facturado − devuelto (approved returns only) = a depositar; a depositar − depositado
 * (active deposits) − ajustes = diferencia. Each row builds manifest 905112 through the API and
 * holds the settlement its detail shows (summed from the stored rows) — and the list's (from the
 * totals the triggers keep) to be the same.
 */
interface Row {
  name: string
  invoices: Invoice[]
  returns?: Array<{ factura: string; units: number; end: ReturnEnd }>
  deposits?: Array<{ monto: number; almacen?: string; justificacion?: string; cancel?: boolean }>
  adjustments?: Array<{ monto: number; almacen?: string }>
  who?: Who
  expected: Record<string, unknown>
}

const part = (almacen: string, figures: Record<string, number>, more: Record<string, unknown> = {}) => ({
  almacen,
  devuelto: 0,
  depositado: 0,
  ajustes: 0,
  devoluciones_pendientes: 0,
  sobrepago_justificado: false,
  ...figures,
  ...more,
})

const JUSTIFIED = 'El cliente pagó de más y se le devuelve en la próxima ruta'

const rows: Row[] = [
  {
    name: 'one warehouse, nothing deposited: all of it is missing',
    invoices: [lineInvoice('F-1', '905112', 'OAC', 100)],
    expected: {
      facturado: 100,
      devuelto: 0,
      a_depositar: 100,
      depositado: 0,
      ajustes: 0,
      diferencia: 100,
      devoluciones_pendientes: 0,
      liquidada: false,
      lista_para_cerrar: false,
      falta: 'Falta depositar L 100.00 del almacén OAC.',
      por_almacen: [
        part(
          'OAC',
          { facturado: 100, a_depositar: 100, diferencia: 100 },
          { liquidada: false, falta: 'Falta depositar L 100.00 del almacén OAC.' },
        ),
      ],
    },
  },
  {
    name: 'several warehouses are settled each on its own; the total is their sum',
    invoices: [
      lineInvoice('F-1', '905112', 'OAC', 100),
      lineInvoice('F-2', '905112', 'OAC', 50.5),
      lineInvoice('F-3', '905112', 'OAS', 20),
      lineInvoice('F-4', '905112', 'OAO', 1234.5),
    ],
    deposits: [
      { monto: 150.5, almacen: 'OAC' },
      { monto: 10, almacen: 'OAS' },
    ],
    expected: {
      facturado: 1405,
      devuelto: 0,
      a_depositar: 1405,
      depositado: 160.5,
      ajustes: 0,
      diferencia: 1244.5,
      devoluciones_pendientes: 0,
      liquidada: false,
      lista_para_cerrar: false,
      falta: 'Falta depositar L 1,234.50 del almacén OAO y L 10.00 del almacén OAS.',
      por_almacen: [
        part(
          'OAC',
          { facturado: 150.5, a_depositar: 150.5, depositado: 150.5, diferencia: 0 },
          { liquidada: true, falta: null },
        ),
        part(
          'OAO',
          { facturado: 1234.5, a_depositar: 1234.5, diferencia: 1234.5 },
          { liquidada: false, falta: 'Falta depositar L 1,234.50 del almacén OAO.' },
        ),
        part(
          'OAS',
          { facturado: 20, a_depositar: 20, depositado: 10, diferencia: 10 },
          { liquidada: false, falta: 'Falta depositar L 10.00 del almacén OAS.' },
        ),
      ],
    },
  },
  {
    name: 'a person of OAC sees only the OAC part, and its sum',
    invoices: [lineInvoice('F-1', '905112', 'OAC', 100), lineInvoice('F-3', '905112', 'OAS', 20)],
    deposits: [{ monto: 100, almacen: 'OAC' }],
    who: 'op-oac',
    expected: {
      facturado: 100,
      devuelto: 0,
      a_depositar: 100,
      depositado: 100,
      ajustes: 0,
      diferencia: 0,
      devoluciones_pendientes: 0,
      liquidada: true,
      lista_para_cerrar: true,
      falta: null,
      por_almacen: [
        part(
          'OAC',
          { facturado: 100, a_depositar: 100, depositado: 100, diferencia: 0 },
          { liquidada: true, falta: null },
        ),
      ],
    },
  },
  {
    name: 'every return state: only approved returns are devuelto; a pending one keeps it open',
    invoices: [lineInvoice('F-1', '905112', 'OAC', 100)],
    returns: [
      { factura: 'F-1', units: 10, end: 'approved' },
      { factura: 'F-1', units: 5, end: 'pending' },
      { factura: 'F-1', units: 3, end: 'rejected' },
      { factura: 'F-1', units: 2, end: 'cancelled' },
    ],
    deposits: [{ monto: 90 }],
    expected: {
      facturado: 100,
      devuelto: 10,
      a_depositar: 90,
      depositado: 90,
      ajustes: 0,
      diferencia: 0,
      devoluciones_pendientes: 1,
      liquidada: false,
      lista_para_cerrar: false,
      falta: 'Hay 1 devolución pendiente.',
      por_almacen: [
        part(
          'OAC',
          { facturado: 100, devuelto: 10, a_depositar: 90, depositado: 90, diferencia: 0 },
          { devoluciones_pendientes: 1, liquidada: false, falta: 'Hay 1 devolución pendiente.' },
        ),
      ],
    },
  },
  {
    name: 'L 0.10 + L 0.20 is L 0.30 exactly, and a deposit of L 0.30 settles it',
    invoices: [lineInvoice('F-1', '905112', 'OAC', 0.1), lineInvoice('F-2', '905112', 'OAC', 0.2)],
    deposits: [{ monto: 0.3 }],
    expected: {
      facturado: 0.3,
      devuelto: 0,
      a_depositar: 0.3,
      depositado: 0.3,
      ajustes: 0,
      diferencia: 0,
      devoluciones_pendientes: 0,
      liquidada: true,
      lista_para_cerrar: true,
      falta: null,
      por_almacen: [
        part(
          'OAC',
          { facturado: 0.3, a_depositar: 0.3, depositado: 0.3, diferencia: 0 },
          { liquidada: true, falta: null },
        ),
      ],
    },
  },
  {
    name: '1,000 invoices of L 0.01 are L 10.00, settled by a deposit of L 10.00',
    invoices: Array.from({ length: 1000 }, (_, i) => lineInvoice(`C-${i}`, '905112', 'OAC', 0.01)),
    deposits: [{ monto: 10 }],
    expected: {
      facturado: 10,
      devuelto: 0,
      a_depositar: 10,
      depositado: 10,
      ajustes: 0,
      diferencia: 0,
      devoluciones_pendientes: 0,
      liquidada: true,
      lista_para_cerrar: true,
      falta: null,
      por_almacen: [
        part(
          'OAC',
          { facturado: 10, a_depositar: 10, depositado: 10, diferencia: 0 },
          { liquidada: true, falta: null },
        ),
      ],
    },
  },
  {
    name: 'a cent adjustment settles what no deposit will (positive takes the missing cent as received)',
    invoices: [lineInvoice('F-1', '905112', 'OAC', 100)],
    deposits: [{ monto: 99.99 }],
    adjustments: [{ monto: 0.01 }],
    expected: {
      facturado: 100,
      devuelto: 0,
      a_depositar: 100,
      depositado: 99.99,
      ajustes: 0.01,
      diferencia: 0,
      devoluciones_pendientes: 0,
      liquidada: true,
      lista_para_cerrar: true,
      falta: null,
      por_almacen: [
        part(
          'OAC',
          { facturado: 100, a_depositar: 100, depositado: 99.99, ajustes: 0.01, diferencia: 0 },
          { liquidada: true, falta: null },
        ),
      ],
    },
  },
  {
    name: 'an overpayment with its justification is settled (diferencia negative)',
    invoices: [lineInvoice('F-1', '905112', 'OAC', 100)],
    deposits: [{ monto: 100.5, justificacion: JUSTIFIED }],
    expected: {
      facturado: 100,
      devuelto: 0,
      a_depositar: 100,
      depositado: 100.5,
      ajustes: 0,
      diferencia: -0.5,
      devoluciones_pendientes: 0,
      liquidada: true,
      lista_para_cerrar: true,
      falta: null,
      por_almacen: [
        part(
          'OAC',
          { facturado: 100, a_depositar: 100, depositado: 100.5, diferencia: -0.5 },
          { sobrepago_justificado: true, liquidada: true, falta: null },
        ),
      ],
    },
  },
  {
    name: 'a return approved after the deposit leaves money over without a justification',
    invoices: [lineInvoice('F-1', '905112', 'OAC', 100)],
    deposits: [{ monto: 100 }],
    returns: [{ factura: 'F-1', units: 10, end: 'approved' }],
    expected: {
      facturado: 100,
      devuelto: 10,
      a_depositar: 90,
      depositado: 100,
      ajustes: 0,
      diferencia: -10,
      devoluciones_pendientes: 0,
      liquidada: false,
      lista_para_cerrar: false,
      falta: 'Sobran L 10.00 del almacén OAC sin justificación (justifique el depósito de más o corríjalo).',
      por_almacen: [
        part(
          'OAC',
          { facturado: 100, devuelto: 10, a_depositar: 90, depositado: 100, diferencia: -10 },
          {
            liquidada: false,
            falta: 'Sobran L 10.00 del almacén OAC sin justificación (justifique el depósito de más o corríjalo).',
          },
        ),
      ],
    },
  },
  {
    name: 'a cancelled deposit stops counting',
    invoices: [lineInvoice('F-1', '905112', 'OAC', 100)],
    deposits: [{ monto: 60 }, { monto: 40, cancel: true }],
    expected: {
      facturado: 100,
      devuelto: 0,
      a_depositar: 100,
      depositado: 60,
      ajustes: 0,
      diferencia: 40,
      devoluciones_pendientes: 0,
      liquidada: false,
      lista_para_cerrar: false,
      falta: 'Falta depositar L 40.00 del almacén OAC.',
      por_almacen: [
        part(
          'OAC',
          { facturado: 100, a_depositar: 100, depositado: 60, diferencia: 40 },
          { liquidada: false, falta: 'Falta depositar L 40.00 del almacén OAC.' },
        ),
      ],
    },
  },
  {
    name: 'every invoice came back: nothing to deposit, settled',
    invoices: [lineInvoice('F-1', '905112', 'OAC', 100), lineInvoice('F-2', '905112', 'OAC', 33.33)],
    returns: [
      { factura: 'F-1', units: 100, end: 'approved' },
      { factura: 'F-2', units: 100, end: 'approved' },
    ],
    expected: {
      facturado: 133.33,
      devuelto: 133.33,
      a_depositar: 0,
      depositado: 0,
      ajustes: 0,
      diferencia: 0,
      devoluciones_pendientes: 0,
      liquidada: true,
      lista_para_cerrar: true,
      falta: null,
      por_almacen: [
        part(
          'OAC',
          { facturado: 133.33, devuelto: 133.33, a_depositar: 0, diferencia: 0 },
          { liquidada: true, falta: null },
        ),
      ],
    },
  },
]

async function build(service: TestService, row: Row): Promise<void> {
  await acceptBatch(service, row.invoices)
  await seedReason(service)
  await createPeople(service)
  for (const ret of (row.returns ?? []).filter((entry) => entry.end !== 'approved'))
    await returnOf(service, ret.factura, ret.units, ret.end)
  for (const entry of row.deposits ?? []) {
    const id = await deposit(
      service,
      '905112',
      depositBody(entry.monto, {
        ...(entry.almacen ? { almacen: entry.almacen } : {}),
        ...(entry.justificacion ? { justificacion: entry.justificacion } : {}),
      }),
    )
    if (entry.cancel)
      assert.equal(
        (await as(service, 'fin-oac', 'POST', `depositos/${id}/anular`, { motivo: 'Boleta registrada dos veces' }))
          .status,
        200,
      )
  }
  // Approved after the deposits: a return approved later moves a_depositar under what was deposited.
  for (const ret of (row.returns ?? []).filter((entry) => entry.end === 'approved'))
    await returnOf(service, ret.factura, ret.units, ret.end)
  for (const entry of row.adjustments ?? []) {
    const made = await as(service, 'fin-oac', 'POST', 'manifiestos/905112/ajustes', {
      monto: entry.monto,
      motivo: 'El banco redondeó la transferencia',
      ...(entry.almacen ? { almacen: entry.almacen } : {}),
    })
    assert.equal(made.status, 201, JSON.stringify(made.body))
  }
}

for (const row of rows) {
  test(`settlement formulas: ${row.name}`, () =>
    withService({}, async (service) => {
      await build(service, row)
      const who = row.who ?? 'clave'
      assert.deepEqual(await settlementOf(service, '905112', who), row.expected)
      const listed = await as(service, who, 'GET', 'manifiestos?pagina=1')
      assert.deepEqual(
        listed.body.manifiestos[0].liquidacion,
        row.expected,
        'the list (maintained totals) shows what the detail (stored rows) shows',
      )
      const plain = await as(service, who, 'GET', 'manifiestos')
      assert.deepEqual(plain.body[0].liquidacion, row.expected)
    }))
}
