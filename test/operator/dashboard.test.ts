import assert from 'node:assert/strict'
import { test } from 'node:test'
import { asPerson, createAccount, sessionOf } from '../support/accounts.ts'
import { exampleBatch, invoice, postBatch, resumen, type Answer } from '../support/batches.ts'
import { insertBatchRow } from '../support/fixtures.ts'
import { operator, seedReturns } from '../support/operator.ts'
import { withService, type TestService } from '../support/service.ts'

/**
 * GET resumen, the console's Inicio. Today (2026-11-22, Honduras): the example batch (manifest
 * 905112: F1 in OAC, F2 in OAS), the same batch with a changed Tel (2 conflicts held), a batch
 * whose manifest 905200 names an unknown warehouse (answered 422), and a batch that failed. Pending
 * returns: one on F1, one on F2, plus one on F1 approved. Manifest 905100 (OAC, another client, created two days
 * earlier) is the oldest open one; 905112's returns window ends today.
 */
const F1 = '001-001-01-00912001'
const F2 = '001-001-01-00912002'

async function seed(service: TestService): Promise<void> {
  service.clock.set('2026-11-20T16:00:00Z')
  assert.equal(
    (await postBatch(service, [invoice('F-OLD', '905100', { Clienteid: '99999999' }, '2026-11-20')])).status,
    200,
  )
  service.clock.set('2026-11-22T16:00:00Z')
  await seedReturns(service)
  for (const factura of [F1, F2, F1]) {
    const created = await operator(service, 'POST', 'devoluciones', {
      factura,
      concepto: 'DANADO',
      fecha: '2026-11-22',
      lineas: [{ numeroLinea: 1, unidades: 1 }],
    })
    assert.equal(created.status, 201)
  }
  assert.equal((await operator(service, 'POST', 'devoluciones/3/aprobar')).status, 200)
  assert.equal(
    (
      await postBatch(
        service,
        exampleBatch().map((entry) => ({ ...entry, Tel: '00000000' })),
      )
    ).status,
    200,
  )
  assert.equal((await postBatch(service, [invoice('F-X', '905200', { Almacen: 'ZZZ' })])).status, 422)
  const failed = insertBatchRow(service.db, '0b9b1c2e-0000-4000-8000-000000000001')
  service.db.sqlite
    .prepare(
      "UPDATE batches SET estado = 'failed', http_status = NULL, failure = 'interrumpido', received_at = '2026-11-22T17:00:00.000Z' WHERE id = ?",
    )
    .run(failed)
  service.db.sqlite.exec("UPDATE manifests SET returns_deadline = '2026-11-22' WHERE numero = '905112'")
  await createAccount(service, 'op-oac', 'operador', ['OAC'])
  await createAccount(service, 'sup-oac', 'supervisor', ['OAC'])
  await createAccount(service, 'sup-oao', 'supervisor', ['OAO'])
}

type Who = 'op-oac' | 'sup-oac' | 'sup-oao' | 'clave'

async function dashboard(service: TestService, who: Who): Promise<{ status: number; body: Answer }> {
  if (who === 'clave') return operator(service, 'GET', 'resumen')
  return asPerson(service, await sessionOf(service, who), 'GET', 'resumen')
}

const batches = {
  cantidad: 4,
  // The example: 2 inserted; resent: 2 held; 905200: 1 rejected; the failed one adds nothing (905100 came two days ago).
  resumen: resumen({ recibidas: 5, insertadas: 2, pendientes_revision: 2, rechazadas: 1 }),
  fallidos: [
    { batch_uuid: '0b9b1c2e-0000-4000-8000-000000000001', recibido_en: '2026-11-22 11:00:00', fallo: 'interrumpido' },
  ],
}

/**
 * Inicio's money (issue 40): nothing deposited yet, so every open part is missing its a_depositar —
 * 905100 (OAC, 2 days old) L 2,300.18; 905112's OAC part L 2,300.18 − the approved L 35.88; its OAS
 * part L 188.97 — all of it in the 0–2 days group.
 */
function money(monto: number, manifiestos: number): Answer {
  return {
    por_depositar: { monto, manifiestos },
    listos_para_cerrar: 0,
    depositos_hoy: { cantidad: 0, monto: 0 },
    por_liquidar_por_antiguedad: [
      { desde_dias: 0, hasta_dias: 2, manifiestos, por_depositar: monto },
      { desde_dias: 3, hasta_dias: 7, manifiestos: 0, por_depositar: 0 },
      { desde_dias: 8, hasta_dias: 15, manifiestos: 0, por_depositar: 0 },
      { desde_dias: 16, hasta_dias: null, manifiestos: 0, por_depositar: 0 },
    ],
  }
}

const rows: Array<{ who: Who; expect: (rejected: string) => Answer }> = [
  {
    who: 'op-oac',
    expect: () => ({
      fecha: '2026-11-22',
      lotes: null,
      conflictos_pendientes: null,
      devoluciones_pendientes: 1,
      devoluciones_pendientes_importe: 35.88,
      recibido_hoy: { facturas: 1, importe: 2300.18 },
      reemisiones_pendientes: 0,
      manifiestos_abiertos: {
        cantidad: 2,
        mas_antiguo: { numero: '905100', fecha_ingreso: '2026-11-20 10:00:00', dias: 2 },
      },
      plazos_que_vencen_hoy: [
        { numero: '905112', plazo_devoluciones: '2026-11-22 23:59:59', devoluciones_pendientes: 1 },
      ],
      liquidacion: money(4564.48, 2),
    }),
  },
  {
    who: 'sup-oac',
    expect: (rejected) => ({
      fecha: '2026-11-22',
      lotes: {
        ...batches,
        de_sus_almacenes: 1,
        con_rechazos: [{ batch_uuid: rejected, recibido_en: '2026-11-22 10:00:00', http_status: 422 }],
      },
      conflictos_pendientes: 1,
      devoluciones_pendientes: 1,
      devoluciones_pendientes_importe: 35.88,
      recibido_hoy: { facturas: 1, importe: 2300.18 },
      reemisiones_pendientes: 0,
      manifiestos_abiertos: {
        cantidad: 2,
        mas_antiguo: { numero: '905100', fecha_ingreso: '2026-11-20 10:00:00', dias: 2 },
      },
      plazos_que_vencen_hoy: [
        { numero: '905112', plazo_devoluciones: '2026-11-22 23:59:59', devoluciones_pendientes: 1 },
      ],
      liquidacion: money(4564.48, 2),
    }),
  },
  {
    who: 'sup-oao',
    expect: (rejected) => ({
      fecha: '2026-11-22',
      lotes: {
        ...batches,
        de_sus_almacenes: 0,
        con_rechazos: [{ batch_uuid: rejected, recibido_en: '2026-11-22 10:00:00', http_status: 422 }],
      },
      conflictos_pendientes: 0,
      devoluciones_pendientes: 0,
      devoluciones_pendientes_importe: 0,
      recibido_hoy: { facturas: 0, importe: 0 },
      reemisiones_pendientes: 0,
      manifiestos_abiertos: { cantidad: 0, mas_antiguo: null },
      plazos_que_vencen_hoy: [],
      liquidacion: money(0, 0),
    }),
  },
  {
    who: 'clave',
    expect: (rejected) => ({
      fecha: '2026-11-22',
      lotes: {
        ...batches,
        de_sus_almacenes: 1,
        con_rechazos: [{ batch_uuid: rejected, recibido_en: '2026-11-22 10:00:00', http_status: 422 }],
      },
      conflictos_pendientes: 2,
      devoluciones_pendientes: 2,
      devoluciones_pendientes_importe: 59.5,
      recibido_hoy: { facturas: 2, importe: 2489.15 },
      reemisiones_pendientes: 0,
      manifiestos_abiertos: {
        cantidad: 2,
        mas_antiguo: { numero: '905100', fecha_ingreso: '2026-11-20 10:00:00', dias: 2 },
      },
      plazos_que_vencen_hoy: [
        { numero: '905112', plazo_devoluciones: '2026-11-22 23:59:59', devoluciones_pendientes: 2 },
      ],
      liquidacion: money(4753.45, 2),
    }),
  },
]

for (const row of rows) {
  test(`dashboard: ${row.who} sees today for its warehouses and rights`, () =>
    withService({}, async (service) => {
      await seed(service)
      const rejected = service.db.sqlite
        .prepare('SELECT uuid FROM batches WHERE http_status = 422')
        .pluck()
        .get() as string
      const { status, body } = await dashboard(service, row.who)
      assert.equal(status, 200, JSON.stringify(body))
      assert.deepEqual(body, row.expect(rejected))
    }))
}

test('dashboard: without authentication → 401', () =>
  withService({}, async (service) => {
    const response = await service.fetch('/api/v1/operador/resumen')
    assert.equal(response.status, 401)
  }))

test('dashboard: an empty database gives zeros and nulls, never an error', () =>
  withService({}, async (service) => {
    assert.deepEqual(await operator(service, 'GET', 'resumen'), {
      status: 200,
      body: {
        fecha: '2026-11-22',
        lotes: { cantidad: 0, de_sus_almacenes: 0, resumen: resumen({}), fallidos: [], con_rechazos: [] },
        conflictos_pendientes: 0,
        devoluciones_pendientes: 0,
        devoluciones_pendientes_importe: 0,
        recibido_hoy: { facturas: 0, importe: 0 },
        reemisiones_pendientes: 0,
        manifiestos_abiertos: { cantidad: 0, mas_antiguo: null },
        plazos_que_vencen_hoy: [],
        liquidacion: money(0, 0),
      },
    })
  }))

test("dashboard: yesterday's batches do not count today; closed manifests are not open; a possible re-issue is pending", () =>
  withService({}, async (service) => {
    service.clock.set('2026-11-21T16:00:00Z')
    assert.equal((await postBatch(service, [invoice('F-1', '905111', {}, '2026-11-21')])).status, 200)
    service.clock.set('2026-11-22T16:00:00Z')
    assert.equal((await postBatch(service, [invoice('F-2', '905112', {}, '2026-11-22')])).status, 200)
    // Settled by its deposit (registered today), 905111 closes; its money is no longer open.
    assert.equal(
      (
        await operator(service, 'POST', 'manifiestos/905111/depositos', {
          monto: 2300.18,
          fecha: '2026-11-21',
          banco: 'Ficohsa',
          referencia: '88001',
        })
      ).status,
      201,
    )
    assert.equal((await operator(service, 'POST', 'manifiestos/905111/cerrar')).status, 200)
    const { body } = await operator(service, 'GET', 'resumen')
    assert.deepEqual(
      [body.lotes.cantidad, body.lotes.resumen.insertadas, body.manifiestos_abiertos, body.reemisiones_pendientes],
      [1, 1, { cantidad: 1, mas_antiguo: { numero: '905112', fecha_ingreso: '2026-11-22 10:00:00', dias: 0 } }, 1],
    )
    assert.deepEqual(
      [body.liquidacion.por_depositar, body.liquidacion.depositos_hoy],
      [
        { monto: 2300.18, manifiestos: 1 },
        { cantidad: 1, monto: 2300.18 },
      ],
    )
  }))

const pendingRows: Array<{ who: Who; counts: { devoluciones: number | null; conflictos: number | null } }> = [
  { who: 'op-oac', counts: { devoluciones: null, conflictos: null } },
  { who: 'sup-oac', counts: { devoluciones: 1, conflictos: 1 } },
  { who: 'sup-oao', counts: { devoluciones: 0, conflictos: 0 } },
  { who: 'clave', counts: { devoluciones: 2, conflictos: 2 } },
]

for (const row of pendingRows) {
  test(`pendientes: ${row.who} sees what waits for it in its warehouses (null: its role does not decide it)`, () =>
    withService({}, async (service) => {
      await seed(service)
      const answer =
        row.who === 'clave'
          ? await operator(service, 'GET', 'pendientes')
          : await asPerson(service, await sessionOf(service, row.who), 'GET', 'pendientes')
      assert.deepEqual(answer, { status: 200, body: row.counts })
    }))
}
