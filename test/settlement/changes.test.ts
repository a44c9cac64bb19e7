import assert from 'node:assert/strict'
import { test } from 'node:test'
import { withService, type TestService } from '../support/service.ts'
import {
  acceptBatch,
  as,
  BANK,
  createPeople,
  deposit,
  lineInvoice,
  seedReason,
  returnOf,
  settlementOf,
  settlementRows,
  TODAY,
  type Who,
  type AuditRow,
} from '../support/settlement.ts'

/**
 * Editing (PUT depositos/{id}) and cancelling (POST depositos/{id}/anular) a deposit. 905112 holds
 * F-1 (OAC, L 100.00) with deposits 1 (L 60.00, BAC 1001) and 2 (L 40.00, BAC 1002): settled.
 * 905113 (OAC, L 10.00) holds deposit 3 (L 10.00, Ficohsa 3003) and is closed. For the overpayment
 * rule the deposit edited is left out of what is already deposited.
 */
async function seed(service: TestService): Promise<void> {
  await acceptBatch(service, [lineInvoice('F-1', '905112', 'OAC', 100), lineInvoice('F-2', '905113', 'OAC', 10)])
  await createPeople(service)
  await seedReason(service)
  await deposit(service, '905112', { monto: 60, fecha: TODAY, banco: BANK, referencia: '1001' })
  await deposit(service, '905112', { monto: 40, fecha: TODAY, banco: BANK, referencia: '1002' })
  await deposit(service, '905113', { monto: 10, fecha: TODAY, banco: 'Ficohsa', referencia: '3003' })
  assert.equal((await as(service, 'sup', 'POST', 'manifiestos/905113/cerrar')).status, 200)
}

const JUSTIFIED = 'La ruta depositó también un vale anterior'

interface Row {
  name: string
  who?: Who
  method: 'PUT' | 'POST'
  path: string
  body: unknown
  setup?: (service: TestService) => Promise<unknown>
  status: number
  message?: string | RegExp
  /** What the deposit shows afterwards, and the OAC part's depositado. */
  after?: Record<string, unknown>
  depositado?: number
}

const rows: Row[] = [
  {
    name: 'an operator may not edit',
    who: 'op-oac',
    method: 'PUT',
    path: 'depositos/2',
    body: { monto: 39 },
    status: 403,
    message: 'Su rol (operador) no permite registrar ni modificar depósitos; pídaselo a un supervisor o a finanzas.',
  },
  {
    name: 'a supervisor may not cancel',
    who: 'sup-oac',
    method: 'POST',
    path: 'depositos/2/anular',
    body: { motivo: 'Registrado dos veces' },
    status: 403,
    message: 'Su rol (supervisor) no permite anular depósitos; pídaselo a finanzas o al administrador.',
  },
  {
    name: 'an empty change',
    method: 'PUT',
    path: 'depositos/2',
    body: {},
    status: 422,
    message:
      'Cuerpo inválido: cuerpo: debe traer al menos un campo que cambiar (monto, fecha, banco, referencia, notas o justificacion).',
  },
  {
    name: 'a motivo of 9 characters',
    who: 'fin-oac',
    method: 'POST',
    path: 'depositos/2/anular',
    body: { motivo: 'Duplicado' },
    status: 422,
    message: 'Cuerpo inválido: motivo: debe tener al menos 10 caracteres (tiene 9): explique con más detalle.',
  },
  {
    name: 'a motivo of 501 characters',
    who: 'fin-oac',
    method: 'POST',
    path: 'depositos/2/anular',
    body: { motivo: 'x'.repeat(501) },
    status: 422,
    message: 'Cuerpo inválido: motivo: debe tener a lo sumo 500 caracteres.',
  },
  {
    name: 'an unknown deposit',
    method: 'PUT',
    path: 'depositos/99',
    body: { monto: 1 },
    status: 404,
    message: 'No existe el depósito 99.',
  },
  {
    name: 'a deposit of another warehouse',
    who: 'fin-oas',
    method: 'POST',
    path: 'depositos/2/anular',
    body: { motivo: 'Registrado dos veces' },
    status: 404,
    message: 'No existe el depósito 2.',
  },
  {
    name: 'not an id',
    method: 'PUT',
    path: 'depositos/abc',
    body: { monto: 1 },
    status: 404,
    message: 'No existe el depósito abc.',
  },
  {
    name: 'raising one over what is to deposit (the others count, not itself)',
    method: 'PUT',
    path: 'depositos/2',
    body: { monto: 45 },
    status: 422,
    message:
      'justificacion: Con L 45.00, el depósito 2 deja el almacén OAC del manifiesto 905112 con L 5.00 depositados de más (a depositar L 100.00, depositado con este L 105.00). Escriba una justificación de 15 a 1,000 caracteres, o corrija el monto.',
  },
  {
    name: 'the slip of another active deposit',
    method: 'PUT',
    path: 'depositos/2',
    body: { referencia: '10-01' },
    status: 422,
    message: /ya está registrada en el depósito 1 del manifiesto 905112/,
  },
  {
    name: 'a date in the future',
    method: 'PUT',
    path: 'depositos/2',
    body: { fecha: '2026-12-01' },
    status: 422,
    message: /^fecha: 2026-12-01 es una fecha futura/,
  },
  {
    name: 'a deposit of a closed manifest',
    method: 'PUT',
    path: 'depositos/3',
    body: { monto: 9 },
    status: 422,
    message:
      'El manifiesto 905113 del depósito 3 está cerrado: el depósito ya no se puede modificar. Si hace falta, el administrador reabre el manifiesto.',
  },
  {
    name: 'cancelling one of a closed manifest',
    who: 'fin-oac',
    method: 'POST',
    path: 'depositos/3/anular',
    body: { motivo: 'Registrado dos veces' },
    status: 422,
    message:
      'El manifiesto 905113 del depósito 3 está cerrado: el depósito ya no se puede anular. Si hace falta, el administrador reabre el manifiesto.',
  },
  {
    name: 'a cancelled deposit cannot be edited',
    setup: (service) => as(service, 'fin-oac', 'POST', 'depositos/2/anular', { motivo: 'Registrado dos veces' }),
    method: 'PUT',
    path: 'depositos/2',
    body: { monto: 39 },
    status: 422,
    message: 'El depósito 2 está anulado: ya no se puede modificar. Registre uno nuevo si hace falta.',
  },
  {
    name: 'nor cancelled again',
    setup: (service) => as(service, 'fin-oac', 'POST', 'depositos/2/anular', { motivo: 'Registrado dos veces' }),
    who: 'admin',
    method: 'POST',
    path: 'depositos/2/anular',
    body: { motivo: 'Registrado dos veces' },
    status: 422,
    message: 'El depósito 2 está anulado: ya no se puede anular. Registre uno nuevo si hace falta.',
  },
  {
    name: 'removing the justification of an overpayment',
    setup: (service) => as(service, 'clave', 'PUT', 'depositos/2', { monto: 45, justificacion: JUSTIFIED }),
    method: 'PUT',
    path: 'depositos/2',
    body: { justificacion: null },
    status: 422,
    message:
      /^justificacion: Con L 45.00, el depósito 2 deja el almacén OAC del manifiesto 905112 con L 5.00 depositados de más/,
  },
  {
    name: 'the same amount: the others count, not itself',
    method: 'PUT',
    path: 'depositos/2',
    body: { monto: 40, notas: 'Revisado' },
    status: 200,
    after: { monto: 40, notas: 'Revisado', modificado_por: 'Ana Lucía Fiallos' },
    depositado: 100,
  },
  {
    name: 'lowering one',
    who: 'sup-oac',
    method: 'PUT',
    path: 'depositos/2',
    body: { monto: 39.5 },
    status: 200,
    after: { monto: 39.5, modificado_por: 'Nombre de sup-oac' },
    depositado: 99.5,
  },
  {
    name: 'raising one with a justification',
    who: 'fin-oac',
    method: 'PUT',
    path: 'depositos/2',
    body: { monto: 45, justificacion: JUSTIFIED },
    status: 200,
    after: { monto: 45, justificacion: JUSTIFIED },
    depositado: 105,
  },
  {
    name: 'its own slip written otherwise',
    method: 'PUT',
    path: 'depositos/2',
    body: { referencia: '10 02', banco: 'bac credomatic' },
    status: 200,
    after: { referencia: '10 02', banco: BANK },
    depositado: 100,
  },
  {
    name: 'cancelling: it stops counting, kept with who, when and why',
    who: 'fin-oac',
    method: 'POST',
    path: 'depositos/2/anular',
    body: { motivo: '  Registrado dos veces  ' },
    status: 200,
    after: {
      estado: 'cancelled',
      anulado_por: 'Nombre de fin-oac',
      anulado_en: '2026-11-22 10:00:00',
      motivo_anulacion: 'Registrado dos veces',
    },
    depositado: 60,
  },
]

for (const row of rows) {
  test(`deposit changes: ${row.name} → ${row.status}`, () =>
    withService({}, async (service) => {
      await seed(service)
      await row.setup?.(service)
      const who = row.who ?? 'clave'
      await as(service, who, 'GET', 'resumen')
      const before = settlementRows(service)
      const stored = service.db.sqlite.prepare('SELECT * FROM deposits ORDER BY id').all()
      const previous = await as(service, 'clave', 'GET', 'depositos/2')
      const answer = await as(service, who, row.method, row.path, row.body)
      assert.equal(answer.status, row.status, JSON.stringify(answer.body))
      if (typeof row.message === 'string') assert.equal(answer.body.message, row.message)
      if (row.message instanceof RegExp) assert.match(answer.body.message, row.message)
      if (row.status !== 200) {
        assert.deepEqual(
          [settlementRows(service), service.db.sqlite.prepare('SELECT * FROM deposits ORDER BY id').all()],
          [before, stored],
          'a refusal writes nothing',
        )
        return
      }
      assert.deepEqual(answer.body, { ...answer.body, ...row.after })
      assert.equal((await settlementOf(service, '905112')).depositado, row.depositado)
      const entry = service.db.sqlite
        .prepare(
          'SELECT action, subject_type, subject_id, before, after, detail FROM audit_log ORDER BY id DESC LIMIT 1',
        )
        .get() as AuditRow
      assert.deepEqual(
        {
          action: entry.action,
          tipo: entry.subject_type,
          sujeto: entry.subject_id,
          before: JSON.parse(entry.before),
          after: JSON.parse(entry.after),
        },
        {
          action: row.method === 'PUT' ? 'deposito.modificado' : 'deposito.anulado',
          tipo: 'deposito',
          sujeto: '2',
          before: previous.body,
          after: answer.body,
        },
        'audited with before and after',
      )
    }))
}

test('deposit changes: nothing changed → 200 as it was, nothing written', () =>
  withService({}, async (service) => {
    await seed(service)
    const before = settlementRows(service)
    const previous = await as(service, 'clave', 'GET', 'depositos/2')
    const answer = await as(service, 'clave', 'PUT', 'depositos/2', { monto: 40, banco: BANK, referencia: '1002' })
    assert.deepEqual([answer.status, answer.body, settlementRows(service)], [200, previous.body, before])
  }))

test("deposit changes: the deposit's history lists its registration, change and cancellation", () =>
  withService({}, async (service) => {
    await seed(service)
    assert.equal((await as(service, 'sup-oac', 'PUT', 'depositos/2', { monto: 39 })).status, 200)
    assert.equal(
      (await as(service, 'fin-oac', 'POST', 'depositos/2/anular', { motivo: 'Registrado dos veces' })).status,
      200,
    )
    const history = await as(service, 'fin-oac', 'GET', 'auditoria?tipo=deposito&sujeto=2')
    assert.equal(history.status, 200)
    assert.deepEqual(
      history.body.map((entry: { accion: string; quien: string }) => [entry.accion, entry.quien]),
      [
        ['deposito.registrado', 'Ana Lucía Fiallos'],
        ['deposito.modificado', 'Nombre de sup-oac'],
        ['deposito.anulado', 'Nombre de fin-oac'],
      ],
    )
    const oas = await as(service, 'fin-oas', 'GET', 'auditoria?tipo=deposito&sujeto=2')
    assert.deepEqual(oas.body, [], 'a deposit of OAC is not in the history a person of OAS reads')
  }))

test('deposit changes: a return approved after the deposits leaves an overpayment; justifying a deposit settles it', () =>
  withService({}, async (service) => {
    await seed(service)
    await returnOf(service, 'F-1', 5, 'approved')
    assert.equal(
      (await settlementOf(service, '905112')).falta,
      'Sobran L 5.00 del almacén OAC sin justificación (justifique el depósito de más o corríjalo).',
    )
    assert.equal((await as(service, 'fin-oac', 'PUT', 'depositos/2', { justificacion: JUSTIFIED })).status, 200)
    const liquidacion = await settlementOf(service, '905112')
    assert.deepEqual([liquidacion.diferencia, liquidacion.liquidada, liquidacion.falta], [-5, true, null])
  }))
