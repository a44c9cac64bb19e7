import assert from 'node:assert/strict'
import { test } from 'node:test'
import { API_KEY, withService, type TestService } from '../support/service.ts'
import {
  acceptBatch,
  as,
  BANK,
  createPeople,
  deposit,
  depositBody,
  lineInvoice,
  settlementOf,
  settlementRows,
  TODAY,
  type Who,
  type AuditRow,
} from '../support/settlement.ts'

/**
 * Registering a deposit (POST manifiestos/{numero}/depositos), rule by rule: 905112 holds F-1 (OAC,
 * L 100.00) and F-2 (OAS, L 50.00), arrived 2026-11-22; 905113 (OAC, L 80.00) holds deposit 1,
 * slip «BAC-0099» of BAC Credomatic, and deposit 2, slip 555 of Ficohsa, on its OAS part… no: 905113
 * is OAC only; 905114 (OAS, L 30.00) holds deposit 2 (Ficohsa 555). 905115 (OAC, L 10.00) is closed.
 * Every refusal writes nothing.
 */
async function seed(service: TestService): Promise<void> {
  await acceptBatch(service, [
    lineInvoice('F-1', '905112', 'OAC', 100),
    lineInvoice('F-2', '905112', 'OAS', 50),
    lineInvoice('F-3', '905113', 'OAC', 80),
    lineInvoice('F-4', '905114', 'OAS', 30),
    lineInvoice('F-5', '905115', 'OAC', 10),
  ])
  await createPeople(service)
  await deposit(service, '905113', { monto: 20, fecha: TODAY, banco: BANK, referencia: 'BAC-0099' })
  await deposit(service, '905114', { monto: 5, fecha: TODAY, banco: 'Ficohsa', referencia: '555' })
  await deposit(service, '905115', depositBody(10))
  assert.equal((await as(service, 'sup', 'POST', 'manifiestos/905115/cerrar')).status, 200)
}

interface Row {
  name: string
  who?: Who
  numero?: string
  body: Record<string, unknown>
  status: number
  message?: string | RegExp
  /** What the registered deposit shows. */
  view?: Record<string, unknown>
}

const JUSTIFIED = 'El cliente pagó la factura vieja en la misma boleta'
const ok = (body: Record<string, unknown>) => ({ almacen: 'OAC', fecha: TODAY, banco: BANK, ...body })

const rows: Row[] = [
  {
    name: 'an operator may not register deposits',
    who: 'op-oac',
    body: ok({ monto: 10, referencia: '1' }),
    status: 403,
    message: 'Su rol (operador) no permite registrar ni modificar depósitos; pídaselo a un supervisor o a finanzas.',
  },
  {
    name: 'an amount of 0',
    body: ok({ monto: 0, referencia: '1' }),
    status: 422,
    message: 'Cuerpo inválido: monto: debe ser mayor que 0.',
  },
  {
    name: 'a negative amount',
    body: ok({ monto: -5, referencia: '1' }),
    status: 422,
    message: /^Cuerpo inválido: monto:/,
  },
  {
    name: 'more than two decimals',
    body: ok({ monto: 10.005, referencia: '1' }),
    status: 422,
    message:
      'Cuerpo inválido: monto: debe ser un monto distinto de 0 con a lo sumo dos decimales (centavos), por ejemplo 1234.50.',
  },
  {
    name: 'over 10^12',
    body: ok({ monto: 1e12 + 1, referencia: '1' }),
    status: 422,
    message: /^Cuerpo inválido: monto:/,
  },
  {
    name: 'an amount as text',
    body: ok({ monto: '10', referencia: '1' }),
    status: 422,
    message: /^Cuerpo inválido: monto:/,
  },
  {
    name: 'an impossible date',
    body: ok({ monto: 10, fecha: '2026-02-30', referencia: '1' }),
    status: 422,
    message: /fecha: debe ser una fecha real en formato YYYY-MM-DD/,
  },
  {
    name: 'a date in the future',
    body: ok({ monto: 10, fecha: '2026-11-23', referencia: '1' }),
    status: 422,
    message:
      'fecha: 2026-11-23 es una fecha futura; la fecha del depósito es la de la boleta, hoy (2026-11-22) o antes.',
  },
  {
    name: 'a date before the manifest arrived',
    body: ok({ monto: 10, fecha: '2026-11-21', referencia: '1' }),
    status: 422,
    message:
      'fecha: 2026-11-21 es anterior al ingreso del manifiesto (2026-11-22); un depósito de su liquidación no puede ser de antes. Revise la fecha de la boleta.',
  },
  {
    name: 'a bank that is not configured',
    body: ok({ monto: 10, banco: 'Banco Falso', referencia: '1' }),
    status: 422,
    message:
      'banco: «Banco Falso» no es uno de los bancos configurados (Banco de Occidente, BAC Credomatic, Ficohsa, Banco Atlántida, Banpaís). Elija uno de ellos; el administrador los cambia en settlement.banks.',
  },
  {
    name: 'a blank slip number',
    body: ok({ monto: 10, referencia: '   ' }),
    status: 422,
    message: 'Cuerpo inválido: referencia: no puede estar en blanco.',
  },
  {
    name: 'a slip number of 101 characters',
    body: ok({ monto: 10, referencia: 'x'.repeat(101) }),
    status: 422,
    message: 'Cuerpo inválido: referencia: debe tener a lo sumo 100 caracteres.',
  },
  {
    name: 'no slip number',
    body: { almacen: 'OAC', monto: 10, fecha: TODAY, banco: BANK },
    status: 422,
    message: 'Cuerpo inválido: referencia: es obligatorio.',
  },
  {
    name: 'an unknown field',
    body: ok({ monto: 10, referencia: '1', cuenta: '123' }),
    status: 422,
    message: /cuenta: campo desconocido/,
  },
  {
    name: 'no warehouse on a manifest of two',
    body: { monto: 10, fecha: TODAY, banco: BANK, referencia: '1' },
    status: 422,
    message:
      'almacen: el manifiesto 905112 tiene facturas de OAC, OAS: indique de qué almacén es (cada almacén se liquida por separado).',
  },
  {
    name: 'a warehouse the manifest does not have',
    body: ok({ almacen: 'OAO', monto: 10, referencia: '1' }),
    status: 422,
    message:
      'almacen: el manifiesto 905112 no tiene facturas del almacén OAO entre las suyas; sus almacenes en este manifiesto: OAC, OAS.',
  },
  {
    name: 'a supervisor of OAC, for the OAS part',
    who: 'sup-oac',
    body: ok({ almacen: 'OAS', monto: 10, referencia: '1' }),
    status: 422,
    message:
      'almacen: el manifiesto 905112 no tiene facturas del almacén OAS entre las suyas; sus almacenes en este manifiesto: OAC.',
  },
  {
    name: 'an unknown manifest',
    numero: '999999',
    body: ok({ monto: 10, referencia: '1' }),
    status: 404,
    message: 'El manifiesto 999999 no existe.',
  },
  {
    name: 'a manifest of another warehouse',
    who: 'fin-oac',
    numero: '905114',
    body: ok({ monto: 10, referencia: '1' }),
    status: 404,
    message: 'El manifiesto 905114 no existe.',
  },
  {
    name: 'a closed manifest',
    numero: '905115',
    body: ok({ monto: 10, referencia: '1' }),
    status: 422,
    message:
      'El manifiesto 905115 está cerrado: no admite depósitos nuevos. Si hace falta, un supervisor lo reabre (con depósitos, el administrador).',
  },
  {
    name: 'the same bank and slip as an active deposit (written otherwise)',
    body: ok({ monto: 10, referencia: ' bac 0099 ' }),
    status: 422,
    message:
      'referencia: la boleta bac 0099 de BAC Credomatic ya está registrada en el depósito 1 del manifiesto 905113. Una boleta se registra una sola vez: revise el número, o anule primero el otro depósito si estaba mal.',
  },
  {
    name: 'a slip already registered in another warehouse is not named',
    who: 'fin-oac',
    body: ok({ monto: 10, banco: 'Ficohsa', referencia: '555' }),
    status: 422,
    message:
      'referencia: la boleta 555 de Ficohsa ya está registrada en un depósito de otro almacén. Una boleta se registra una sola vez: revise el número, o anule primero el otro depósito si estaba mal.',
  },
  {
    name: 'more than there is to deposit, without a justification',
    body: ok({ monto: 100.01, referencia: '1' }),
    status: 422,
    message:
      'justificacion: El depósito de L 100.01 deja el almacén OAC del manifiesto 905112 con L 0.01 depositados de más (a depositar L 100.00, depositado con este L 100.01). Escriba una justificación de 15 a 1,000 caracteres, o corrija el monto.',
  },
  {
    name: 'a justification of 14 characters',
    body: ok({ monto: 100.01, referencia: '1', justificacion: 'Pagó de más xx' }),
    status: 422,
    message: 'Cuerpo inválido: justificacion: debe tener al menos 15 caracteres (tiene 14): explique con más detalle.',
  },
  {
    name: 'a supervisor registers what is missing of the OAC part',
    who: 'sup-oac',
    body: { monto: 100, fecha: TODAY, banco: 'bac credomatic', referencia: 'A-77', notas: 'Ruta 3' },
    status: 201,
    view: {
      manifiesto: '905112',
      almacen: 'OAC',
      monto: 100,
      banco: BANK,
      referencia: 'A-77',
      notas: 'Ruta 3',
      justificacion: null,
      estado: 'active',
      registrado_por: 'Nombre de sup-oac',
      comprobante: null,
    },
  },
  {
    name: 'the same slip number at another bank',
    body: ok({ monto: 10, banco: 'Ficohsa', referencia: 'BAC-0099' }),
    status: 201,
    view: { banco: 'Ficohsa', referencia: 'BAC-0099' },
  },
  {
    name: 'an overpayment with its justification',
    who: 'fin-oac',
    body: ok({ monto: 100.5, referencia: '1', justificacion: JUSTIFIED }),
    status: 201,
    view: { monto: 100.5, justificacion: JUSTIFIED, registrado_por: 'Nombre de fin-oac' },
  },
  {
    name: 'L 0.01, the least',
    body: ok({ almacen: 'OAS', monto: 0.01, referencia: '1' }),
    status: 201,
    view: { almacen: 'OAS', monto: 0.01 },
  },
]

for (const row of rows) {
  test(`deposits: ${row.name} → ${row.status}`, () =>
    withService({}, async (service) => {
      await seed(service)
      await as(service, row.who ?? 'clave', 'GET', 'resumen') // a person's login is audited: before the count
      const before = settlementRows(service)
      const answer = await as(
        service,
        row.who ?? 'clave',
        'POST',
        `manifiestos/${row.numero ?? '905112'}/depositos`,
        row.body,
      )
      assert.equal(answer.status, row.status, JSON.stringify(answer.body))
      if (typeof row.message === 'string') assert.equal(answer.body.message, row.message)
      if (row.message instanceof RegExp) assert.match(answer.body.message, row.message)
      if (row.status !== 201) {
        assert.deepEqual(settlementRows(service), before, 'a refusal writes nothing')
        return
      }
      assert.deepEqual({ ...answer.body, ...row.view }, answer.body, 'the deposit as registered')
      assert.deepEqual(settlementRows(service), { ...before, deposits: before.deposits + 1, audit: before.audit + 1 })
      const stored = await as(service, 'clave', 'GET', `depositos/${answer.body.id}`)
      assert.deepEqual(stored.body, answer.body)
      const entry = service.db.sqlite
        .prepare(
          "SELECT action, subject_type, subject_id, after, detail FROM audit_log WHERE subject_type = 'deposito' ORDER BY id DESC LIMIT 1",
        )
        .get() as AuditRow
      assert.deepEqual(
        {
          action: entry.action,
          sujeto: entry.subject_id,
          after: JSON.parse(entry.after),
          detail: JSON.parse(entry.detail),
        },
        {
          action: 'deposito.registrado',
          sujeto: answer.body.id,
          after: answer.body,
          detail: { manifiesto: '905112', almacen: answer.body.almacen },
        },
      )
    }))
}

test('deposits: without a key or a session → 401, nothing written', () =>
  withService({}, async (service) => {
    await seed(service)
    const before = settlementRows(service)
    const response = await service.fetch('/api/v1/operador/manifiestos/905112/depositos', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ApiKey: API_KEY },
      body: JSON.stringify(ok({ monto: 1, referencia: '1' })),
    })
    assert.equal(response.status, 401)
    assert.deepEqual(settlementRows(service), before)
  }))

test('deposits: a cancelled deposit frees its slip; the part counts only the active one', () =>
  withService({}, async (service) => {
    await seed(service)
    const first = await deposit(service, '905112', ok({ monto: 40, referencia: 'R-1' }))
    assert.equal(
      (
        await as(service, 'fin-oac', 'POST', `depositos/${first}/anular`, {
          motivo: 'El monto era otro, se registra de nuevo',
        })
      ).status,
      200,
    )
    await deposit(service, '905112', ok({ monto: 45, referencia: 'R-1' }))
    const liquidacion = await settlementOf(service, '905112')
    assert.deepEqual(liquidacion.por_almacen[0], {
      ...liquidacion.por_almacen[0],
      almacen: 'OAC',
      depositado: 45,
      diferencia: 55,
    })
  }))

test("deposits: a manifest's list shows its deposits of one's warehouses, cancelled ones too, in order", () =>
  withService({}, async (service) => {
    await seed(service)
    const oac = await deposit(service, '905112', ok({ monto: 40, referencia: 'R-1' }))
    const oas = await deposit(service, '905112', ok({ almacen: 'OAS', monto: 5, referencia: 'R-2' }))
    assert.equal(
      (
        await as(service, 'admin', 'POST', `depositos/${oac}/anular`, {
          motivo: 'Se registró en el manifiesto equivocado',
        })
      ).status,
      200,
    )
    const all = await as(service, 'clave', 'GET', 'manifiestos/905112/depositos')
    assert.deepEqual(
      all.body.map((entry: { id: string; estado: string }) => [entry.id, entry.estado]),
      [
        [oac, 'cancelled'],
        [oas, 'active'],
      ],
    )
    const mine = await as(service, 'sup-oac', 'GET', 'manifiestos/905112/depositos')
    assert.deepEqual(
      mine.body.map((entry: { id: string }) => entry.id),
      [oac],
    )
    assert.equal((await as(service, 'sup-oac', 'GET', `depositos/${oas}`)).status, 404)
  }))
