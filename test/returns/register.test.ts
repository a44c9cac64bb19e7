import assert from 'node:assert/strict'
import { test } from 'node:test'
import { all } from '../../src/db/database.ts'
import { databaseState, invoice, postBatch } from '../support/batches.ts'
import { FACTURA, OPERATOR, operator, registerReturn, seedReturns } from '../support/operator.ts'
import { nothingWritten, refusal, testScenarios, unchanged } from '../support/scenarios.ts'
import { withService, type TestService } from '../support/service.ts'

const base = { factura: FACTURA, concepto: 'DANADO', fecha: '2026-11-22T09:30:00' }

/** An invoice whose line 2 is a discount: its Total is negative (the contract allows it on lines, never on the invoice). */
const DISCOUNTED = 'F-DESCUENTO'
async function seedDiscountLine(service: TestService): Promise<void> {
  const lines = (invoice(DISCOUNTED).LineasFactura as Array<Record<string, unknown>>).map((line) =>
    line.NumeroLinea === 2 ? { ...line, Total: -50.25 } : line,
  )
  const posted = await postBatch(service, [invoice(DISCOUNTED, '905113', { LineasFactura: lines })])
  assert.equal(posted.status, 200, JSON.stringify(posted.body))
}

/** A new return refused: its message, nothing written. */
const refused = (body: Record<string, unknown>, message: string) => ({
  request: { method: 'POST', path: 'devoluciones', body },
  status: 422,
  body: lineRefusal(message),
  database: [unchanged('the counts', counts), nothingWritten()],
})
/** The refusal's body: a message naming a line also carries the line's NumeroLinea, so a form can mark it. */
const lineRefusal = (message: string) => {
  const line = /^Línea (\d+)/.exec(message)
  return line ? { ...refusal(message), linea: Number(line[1]) } : refusal(message)
}
const counts = (service: TestService) => ({ ...databaseState(service.db), returns: returnsCount(service) })

testScenarios(
  'returns',
  [
    {
      name: 'a negative quantity → 422, nothing written',
      ...refused(
        { ...base, lineas: [{ numeroLinea: 1, unidades: -1 }] },
        'Cuerpo inválido: lineas[0].unidades: debe ser al menos 0.',
      ),
    },
    {
      name: 'no lines → 422, nothing written',
      ...refused({ ...base, lineas: [] }, 'Cuerpo inválido: lineas: debe tener al menos 1 elemento(s).'),
    },
    {
      name: 'an impossible date → 422, nothing written',
      ...refused(
        { ...base, fecha: '2026-02-30', lineas: [{ numeroLinea: 1, unidades: 1 }] },
        'Cuerpo inválido: fecha: debe ser una fecha real, YYYY-MM-DD, o fecha y hora YYYY-MM-DDTHH:mm:ss.',
      ),
    },
    {
      name: 'a date in another format → 422, nothing written',
      ...refused(
        { ...base, fecha: '22/11/2026', lineas: [{ numeroLinea: 1, unidades: 1 }] },
        'Cuerpo inválido: fecha: debe ser una fecha real, YYYY-MM-DD, o fecha y hora YYYY-MM-DDTHH:mm:ss.',
      ),
    },
    {
      name: 'no quantity → 422, nothing written',
      ...refused(
        { ...base, lineas: [{ numeroLinea: 1, cajas: 0 }] },
        'Línea 1: indique cajas y/o unidades mayores que cero.',
      ),
    },
    {
      name: 'the same line twice → 422, nothing written',
      ...refused(
        {
          ...base,
          lineas: [
            { numeroLinea: 1, unidades: 1 },
            { numeroLinea: 1, unidades: 1 },
          ],
        },
        'Línea 1: aparece dos veces en esta devolución.',
      ),
    },
    {
      name: 'a line the invoice does not have → 422, nothing written',
      ...refused(
        { ...base, lineas: [{ numeroLinea: 9, unidades: 1 }] },
        `Línea 9: la factura ${FACTURA} no tiene esa línea (tiene 1, 2, 3).`,
      ),
    },
    {
      name: 'an unknown invoice → 422, nothing written',
      ...refused(
        { ...base, factura: 'NO-EXISTE', lineas: [{ numeroLinea: 1, unidades: 1 }] },
        'No existe la factura NO-EXISTE.',
      ),
    },
    {
      name: 'an unknown reason → 422, nothing written',
      ...refused(
        { ...base, concepto: 'NADA', lineas: [{ numeroLinea: 1, unidades: 1 }] },
        'No existe el concepto NADA.',
      ),
    },
    {
      name: 'an inactive reason → 422, nothing written',
      setup: (service) => operator(service, 'PUT', 'conceptos/VENCIDO', { activo: false }),
      ...refused(
        { ...base, concepto: 'VENCIDO', lineas: [{ numeroLinea: 1, unidades: 1 }] },
        'El concepto VENCIDO está inactivo: no admite devoluciones nuevas.',
      ),
    },
    {
      name: 'a closed manifest → 422, nothing written',
      setup: (service) => service.db.sqlite.exec("UPDATE manifests SET estado = 'closed'"),
      ...refused(
        { ...base, lineas: [{ numeroLinea: 1, unidades: 1 }] },
        `El manifiesto 905112 de la factura ${FACTURA} está cerrado: no admite devoluciones.`,
      ),
    },
    {
      name: 'more units than the line has → 422, nothing written',
      ...refused(
        { ...base, lineas: [{ numeroLinea: 1, unidades: 13 }] },
        'Línea 1, ACEITE VEGETAL 410 mL 1/24: se quieren devolver 13 unid., pero la línea tiene 12 unid. y ya hay 0 unid. en devoluciones pendientes o aprobadas (disponibles: 12 unid.).',
      ),
    },
    {
      name: 'more boxes than the line has → 422, nothing written',
      ...refused(
        { ...base, lineas: [{ numeroLinea: 2, cajas: 2, unidades: 1 }] },
        'Línea 2, SALSA DE TOMATE 8X12X87GR: se quieren devolver 2 cajas + 1 unid. (193 unid.), pero la línea tiene 2 cajas (192 unid.) y ya hay 0 unid. en devoluciones pendientes o aprobadas (disponibles: 2 cajas (192 unid.)).',
      ),
    },
    {
      name: 'over-returning across earlier pending and approved returns → 422, nothing written',
      setup: async (service) => {
        await registerReturn(service, [{ numeroLinea: 3, cajas: 1 }])
        await registerReturn(service, [{ numeroLinea: 3, unidades: 5 }], { aprobar: true })
      },
      ...refused(
        { ...base, lineas: [{ numeroLinea: 3, unidades: 6 }] },
        'Línea 3, JABON LIMON 115GRX72: se quieren devolver 6 unid., pero la línea tiene 1 caja + 10 unid. (82 unid.) y ya hay 1 caja + 5 unid. (77 unid.) en devoluciones pendientes o aprobadas (disponibles: 5 unid.).',
      ),
    },
    {
      name: 'a line whose Total is negative (a discount) → 422, nothing written',
      setup: seedDiscountLine,
      ...refused(
        { ...base, factura: DISCOUNTED, lineas: [{ numeroLinea: 2, unidades: 1 }] },
        'Línea 2, SALSA DE TOMATE 8X12X87GR: su Total en la factura es negativo (-50.25: un descuento o una bonificación), y una devolución nunca tiene total negativo; esa línea no admite devoluciones.',
      ),
    },
    {
      name: 'a good line beside one whose Total is negative: nothing of it is written → 422, nothing written',
      setup: seedDiscountLine,
      ...refused(
        {
          ...base,
          factura: DISCOUNTED,
          lineas: [
            { numeroLinea: 1, unidades: 12 },
            { numeroLinea: 2, cajas: 2 },
          ],
        },
        'Línea 2, SALSA DE TOMATE 8X12X87GR: su Total en la factura es negativo (-50.25: un descuento o una bonificación), y una devolución nunca tiene total negativo; esa línea no admite devoluciones.',
      ),
    },
  ],
  { setup: seedReturns, as: 'operator' },
)

function returnsCount(service: TestService): unknown {
  return service.db.sqlite
    .prepare("SELECT (SELECT count(*) FROM returns) || '/' || (SELECT count(*) FROM return_lines)")
    .pluck()
    .get()
}

const amounts: Array<{ name: string; steps: unknown[][]; totals: number[] }> = [
  { name: 'whole boxes: one box of two (1476.77 × 96/192)', steps: [[{ numeroLinea: 2, cajas: 1 }]], totals: [738.39] },
  { name: 'all the boxes', steps: [[{ numeroLinea: 2, cajas: 2 }]], totals: [1476.77] },
  { name: 'loose units of a UN line (430.56 × 5/12)', steps: [[{ numeroLinea: 1, unidades: 5 }]], totals: [179.4] },
  { name: 'the box of a mixed line (392.85 × 72/82)', steps: [[{ numeroLinea: 3, cajas: 1 }]], totals: [344.94] },
  {
    name: 'the loose units of a mixed line (392.85 × 10/82)',
    steps: [[{ numeroLinea: 3, unidades: 10 }]],
    totals: [47.91],
  },
  { name: 'boxes given as units', steps: [[{ numeroLinea: 2, unidades: 96 }]], totals: [738.39] },
  {
    name: 'several lines in one return',
    steps: [
      [
        { numeroLinea: 1, unidades: 12 },
        { numeroLinea: 2, cajas: 1, unidades: 6 },
      ],
    ],
    totals: [430.56 + 784.53],
  },
  {
    name: 'partial returns in several steps up to the whole line',
    steps: [[{ numeroLinea: 1, unidades: 5 }], [{ numeroLinea: 1, unidades: 5 }], [{ numeroLinea: 1, unidades: 2 }]],
    totals: [179.4, 179.4, 71.76],
  },
]

for (const scenario of amounts) {
  test(`returns amounts: ${scenario.name}`, () =>
    withService({}, async (service) => {
      await seedReturns(service)
      const totals = []
      for (const lineas of scenario.steps) {
        const { status, body } = await registerReturn(service, lineas)
        assert.equal(status, 201, JSON.stringify(body))
        totals.push(body.total)
      }
      assert.deepEqual(
        totals,
        scenario.totals.map((total) => Math.round(total * 100) / 100),
      )
    }))
}

test('returns: registering answers 201 with the return, its lines in the listing unit, and audits it', () =>
  withService({}, async (service) => {
    await seedReturns(service)
    const { status, body } = await registerReturn(
      service,
      [
        { numeroLinea: 2, cajas: 1 },
        { numeroLinea: 3, cajas: 1, unidades: 10 },
      ],
      { fecha: '2026-11-22' },
    )
    assert.equal(status, 201)
    const expected = {
      id: '1',
      factura: FACTURA,
      manifiesto: '905112',
      concepto: 'DANADO',
      conceptoDescripcion: 'Producto dañado',
      fecha: '2026-11-22T00:00:00',
      estado: 'pending',
      total: 1131.24,
      fechaProcesado: null,
      horaProcesado: null,
      registradaPor: OPERATOR,
      registradaEn: '2026-11-22 10:00:00',
      aprobadaPor: null,
      cerradaPor: null,
      cerrada_en: null,
      motivo: null,
      lineas: [
        {
          numeroLinea: 2,
          productoId: '81800012',
          producto: 'SALSA DE TOMATE 8X12X87GR',
          uniVenta: 'CJ',
          unidades: 96,
          factor_conversion: 96,
          cantidad: 1,
          lineTotal: 738.39,
        },
        {
          numeroLinea: 3,
          productoId: '52480038',
          producto: 'JABON LIMON 115GRX72',
          uniVenta: 'CJ',
          unidades: 82,
          factor_conversion: 72,
          cantidad: 1.138889,
          lineTotal: 392.85,
        },
      ],
    }
    assert.deepEqual(body, expected)
    assert.deepEqual((await operator(service, 'GET', 'devoluciones/1')).body, {
      ...expected,
      clienteid: '40112233',
      cliente: 'PULPERIA LA ESPERANZA',
      almacen: 'OAC',
    })
    const audit = all(
      service.db,
      service.db.query.selectFrom('audit_log').selectAll().where('subject_type', '=', 'devolucion'),
    )
    assert.deepEqual(
      audit.map((row) => [row.actor, row.action, row.subject_id, JSON.parse(row.after!)]),
      [[OPERATOR, 'devolucion.registrada', '1', expected]],
    )
  }))

test('returns: aprobar: true registers and approves at once, processed now in Honduras', () =>
  withService({ now: '2026-11-23T05:30:15.000Z' }, async (service) => {
    await seedReturns(service)
    const { status, body } = await registerReturn(service, [{ numeroLinea: 1, unidades: 1 }], { aprobar: true })
    assert.equal(status, 201)
    assert.deepEqual(
      [body.estado, body.fechaProcesado, body.horaProcesado, body.aprobadaPor],
      ['approved', '2026-11-22', '23:30:15', OPERATOR],
    )
  }))
