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
  settlementOf,
  settlementRows,
  type Who,
  type AuditRow,
} from '../support/settlement.ts'

/**
 * Cent adjustments (POST manifiestos/{numero}/ajustes): 905112 holds F-1 (OAC, L 100.00) with a
 * deposit of L 99.70 and F-2 (OAS, L 20.00); 905113 (OAC, L 5.00) is settled and closed.
 * Signed, not zero, |monto| ≤ settlement.maxAdjustment (L 1.00), motivo of 10 characters or more,
 * only while open; never edited (no route does): a mistake is corrected by the opposite one.
 */
async function seed(service: TestService): Promise<void> {
  await acceptBatch(service, [
    lineInvoice('F-1', '905112', 'OAC', 100),
    lineInvoice('F-2', '905112', 'OAS', 20),
    lineInvoice('F-3', '905113', 'OAC', 5),
  ])
  await createPeople(service)
  await deposit(service, '905112', depositBody(99.7, { almacen: 'OAC' }))
  await deposit(service, '905113', depositBody(5))
  assert.equal((await as(service, 'sup', 'POST', 'manifiestos/905113/cerrar')).status, 200)
}

const MOTIVO = 'El banco redondeó la transferencia'

interface Row {
  name: string
  who?: Who
  numero?: string
  body: Record<string, unknown>
  config?: ConfigOverrides
  status: number
  message?: string | RegExp
  /** The OAC part afterwards. */
  part?: { ajustes: number; diferencia: number }
}

const rows: Row[] = [
  {
    name: 'a supervisor may not adjust',
    who: 'sup-oac',
    body: { almacen: 'OAC', monto: 0.3, motivo: MOTIVO },
    status: 403,
    message:
      'Su rol (supervisor) no permite ajustar centavos de la liquidación; pídaselo a finanzas o al administrador.',
  },
  {
    name: 'the integration key acts as a supervisor: no',
    who: 'clave',
    body: { almacen: 'OAC', monto: 0.3, motivo: MOTIVO },
    status: 403,
    message:
      'La clave de integración (OperatorKey) no permite ajustar centavos de la liquidación; pídaselo a finanzas o al administrador.',
  },
  {
    name: 'zero',
    body: { almacen: 'OAC', monto: 0, motivo: MOTIVO },
    status: 422,
    message:
      'Cuerpo inválido: monto: debe ser un monto distinto de 0 con a lo sumo dos decimales (centavos), por ejemplo 1234.50.',
  },
  {
    name: 'three decimals',
    body: { almacen: 'OAC', monto: 0.305, motivo: MOTIVO },
    status: 422,
    message:
      'Cuerpo inválido: monto: debe ser un monto distinto de 0 con a lo sumo dos decimales (centavos), por ejemplo 1234.50.',
  },
  {
    name: 'over the limit',
    body: { almacen: 'OAC', monto: 1.01, motivo: MOTIVO },
    status: 422,
    message:
      'monto: el ajuste de L 1.01 pasa el máximo de L 1.00 por ajuste (settlement.maxAdjustment). Una diferencia así no es de centavos: revise los depósitos y las devoluciones del manifiesto.',
  },
  {
    name: 'under minus the limit',
    body: { almacen: 'OAC', monto: -1.01, motivo: MOTIVO },
    status: 422,
    message: /^monto: el ajuste de -L 1.01 pasa el máximo de L 1.00/,
  },
  {
    name: 'over a lower configured limit',
    config: { settlement: { maxAdjustment: 0.25 } },
    body: { almacen: 'OAC', monto: 0.3, motivo: MOTIVO },
    status: 422,
    message: /^monto: el ajuste de L 0.30 pasa el máximo de L 0.25/,
  },
  {
    name: 'a motivo of 9 characters',
    body: { almacen: 'OAC', monto: 0.3, motivo: 'Redondeo.' },
    status: 422,
    message: 'Cuerpo inválido: motivo: debe tener al menos 10 caracteres (tiene 9): explique con más detalle.',
  },
  {
    name: 'no motivo',
    body: { almacen: 'OAC', monto: 0.3 },
    status: 422,
    message: 'Cuerpo inválido: motivo: es obligatorio.',
  },
  {
    name: 'no warehouse on a manifest of two',
    body: { monto: 0.3, motivo: MOTIVO },
    status: 422,
    message: /^almacen: el manifiesto 905112 tiene facturas de OAC, OAS/,
  },
  {
    name: 'a manifest of another warehouse',
    who: 'fin-oas',
    numero: '905113',
    body: { monto: 0.3, motivo: MOTIVO },
    status: 404,
    message: 'El manifiesto 905113 no existe.',
  },
  {
    name: 'a closed manifest',
    numero: '905113',
    body: { monto: 0.3, motivo: MOTIVO },
    status: 422,
    message:
      'El manifiesto 905113 está cerrado: no admite ajustes. Si hace falta, un supervisor lo reabre (con depósitos, el administrador).',
  },
  {
    name: 'finance of OAC takes the missing 30 cents as received',
    who: 'fin-oac',
    body: { monto: 0.3, motivo: MOTIVO },
    status: 201,
    part: { ajustes: 0.3, diferencia: 0 },
  },
  {
    name: 'the limit itself, positive',
    body: { almacen: 'OAC', monto: 1, motivo: MOTIVO },
    status: 201,
    part: { ajustes: 1, diferencia: -0.7 },
  },
  {
    name: 'the limit itself, negative',
    body: { almacen: 'OAC', monto: -1, motivo: MOTIVO },
    status: 201,
    part: { ajustes: -1, diferencia: 1.3 },
  },
  {
    name: 'one cent',
    body: { almacen: 'OAC', monto: 0.01, motivo: MOTIVO },
    status: 201,
    part: { ajustes: 0.01, diferencia: 0.29 },
  },
]

for (const row of rows) {
  test(`adjustments: ${row.name} → ${row.status}`, () =>
    withService({ config: row.config ?? {} }, async (service) => {
      await seed(service)
      const who = row.who ?? 'admin'
      await as(service, who, 'GET', 'resumen')
      const before = settlementRows(service)
      const answer = await as(service, who, 'POST', `manifiestos/${row.numero ?? '905112'}/ajustes`, row.body)
      assert.equal(answer.status, row.status, JSON.stringify(answer.body))
      if (typeof row.message === 'string') assert.equal(answer.body.message, row.message)
      if (row.message instanceof RegExp) assert.match(answer.body.message, row.message)
      if (row.status !== 201) {
        assert.deepEqual(settlementRows(service), before, 'a refusal writes nothing')
        return
      }
      assert.deepEqual(
        { ...answer.body, id: '1' },
        {
          id: '1',
          manifiesto: '905112',
          almacen: 'OAC',
          monto: row.body.monto,
          motivo: MOTIVO,
          registrado_por: who === 'admin' ? 'Nombre de admin' : 'Nombre de fin-oac',
          registrado_en: '2026-11-22 10:00:00',
        },
      )
      const oac = (await settlementOf(service, '905112')).por_almacen[0]
      assert.deepEqual({ ajustes: oac.ajustes, diferencia: oac.diferencia }, row.part)
      const entry = service.db.sqlite
        .prepare('SELECT action, subject_type, detail FROM audit_log ORDER BY id DESC LIMIT 1')
        .get() as AuditRow
      assert.deepEqual(
        [entry.action, entry.subject_type, JSON.parse(entry.detail)],
        [
          'ajuste.registrado',
          'ajuste',
          { manifiesto: '905112', almacen: 'OAC', diferencia_antes: 0.3, diferencia_despues: row.part!.diferencia },
        ],
      )
    }))
}

test('adjustments: a mistaken one is corrected by the opposite one; both stay listed, in order', () =>
  withService({}, async (service) => {
    await seed(service)
    const first = await as(service, 'fin-oac', 'POST', 'manifiestos/905112/ajustes', { monto: 0.7, motivo: MOTIVO })
    const undo = await as(service, 'fin-oac', 'POST', 'manifiestos/905112/ajustes', {
      monto: -0.7,
      motivo: 'Corrige el ajuste 1: eran 30 centavos',
    })
    const right = await as(service, 'fin-oac', 'POST', 'manifiestos/905112/ajustes', { monto: 0.3, motivo: MOTIVO })
    assert.deepEqual([first.status, undo.status, right.status], [201, 201, 201])
    const listed = await as(service, 'sup-oac', 'GET', 'manifiestos/905112/ajustes')
    assert.deepEqual(
      listed.body.map((entry: { id: string; monto: number }) => [entry.id, entry.monto]),
      [
        ['1', 0.7],
        ['2', -0.7],
        ['3', 0.3],
      ],
    )
    const liquidacion = await settlementOf(service, '905112', 'fin-oac')
    assert.deepEqual([liquidacion.ajustes, liquidacion.diferencia, liquidacion.lista_para_cerrar], [0.3, 0, true])
    assert.equal(
      (await as(service, 'fin-oas', 'GET', 'manifiestos/905112/ajustes')).body.length,
      0,
      'OAS sees no OAC adjustment',
    )
  }))

test('adjustments: no route edits or deletes one', () =>
  withService({}, async (service) => {
    for (const method of ['PUT', 'DELETE']) {
      const answer = await as(service, 'clave', method, 'manifiestos/905112/ajustes', {})
      assert.equal(answer.status, 405)
    }
  }))
