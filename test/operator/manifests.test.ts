import assert from 'node:assert/strict'
import { test } from 'node:test'
import { all } from '../../src/db/database.ts'
import { invoice, postBatch } from '../support/batches.ts'
import { OPERATOR, operator } from '../support/operator.ts'
import { containing, nothingWritten, refusal, testScenarios, type DatabaseCheck } from '../support/scenarios.ts'
import { withService, type TestService } from '../support/service.ts'

/** 905111 created the 21st (local), 905112 and 905113 the 22nd; 905113 closed. */
async function seed(service: TestService): Promise<void> {
  service.clock.set('2026-11-21T16:00:00Z')
  await postBatch(service, [invoice('F-1', '905111', { Total: 100.1 }, '2026-11-21')])
  service.clock.set('2026-11-22T16:00:00Z')
  await postBatch(service, [
    invoice('F-2', '905112', { Total: 0.2 }),
    invoice('F-3', '905112', { Total: 0.1 }),
    invoice('F-4', '905113'),
  ])
  service.db.sqlite.exec(
    "UPDATE manifests SET estado = 'closed', closed_at = '2026-11-22T17:00:00.000Z' WHERE numero = '905113'",
  )
}

const numeros = (...list: string[]) => list.map((numero) => containing({ numero }))

testScenarios(
  'operator manifests',
  [
    {
      name: 'a bad filter (estado=abierto) → 422 naming the parameter',
      request: { path: 'manifiestos?estado=abierto' },
      status: 422,
      body: refusal('El parámetro estado tiene un valor no admitido (se recibió "abierto").'),
    },
    {
      name: 'a bad filter (hasta=2026-13-01) → 422 naming the parameter',
      request: { path: 'manifiestos?hasta=2026-13-01' },
      status: 422,
      body: refusal('El parámetro hasta debe ser una fecha real en formato YYYY-MM-DD (se recibió "2026-13-01").'),
    },
    {
      name: 'a bad filter (desde=2026-02-30) → 422 naming the parameter',
      request: { path: 'manifiestos?desde=2026-02-30' },
      status: 422,
      body: refusal('El parámetro desde debe ser una fecha real en formato YYYY-MM-DD (se recibió "2026-02-30").'),
    },
    {
      name: 'detail of an unknown manifest → 404',
      request: { path: 'manifiestos/12345' },
      status: 404,
      body: refusal('El manifiesto 12345 no existe.'),
    },
    { name: 'list (all)', request: { path: 'manifiestos' }, status: 200, body: numeros('905111', '905112', '905113') },
    {
      name: 'list ?estado=closed',
      request: { path: 'manifiestos?estado=closed' },
      status: 200,
      body: numeros('905113'),
    },
    {
      name: 'list ?estado=imported&desde=2026-11-22',
      request: { path: 'manifiestos?estado=imported&desde=2026-11-22' },
      status: 200,
      body: numeros('905112'),
    },
    {
      name: 'list ?hasta=2026-11-21',
      request: { path: 'manifiestos?hasta=2026-11-21' },
      status: 200,
      body: numeros('905111'),
    },
    { name: 'list ?desde=2026-11-23', request: { path: 'manifiestos?desde=2026-11-23' }, status: 200, body: [] },
  ],
  { setup: seed, as: 'operator' },
)

test('operator manifests: the list item and the detail with its invoices', () =>
  withService({}, async (service) => {
    await seed(service)
    const listed = (await operator(service, 'GET', 'manifiestos?desde=2026-11-22&hasta=2026-11-22&estado=imported'))
      .body
    const liquidacion = {
      facturado: 0.3,
      devuelto: 0,
      a_depositar: 0.3,
      depositado: 0,
      ajustes: 0,
      diferencia: 0.3,
      devoluciones_pendientes: 0,
      liquidada: false,
      lista_para_cerrar: false,
      falta: 'Falta depositar L 0.30 del almacén OAC.',
      por_almacen: [
        {
          almacen: 'OAC',
          facturado: 0.3,
          devuelto: 0,
          a_depositar: 0.3,
          depositado: 0,
          ajustes: 0,
          diferencia: 0.3,
          devoluciones_pendientes: 0,
          sobrepago_justificado: false,
          liquidada: false,
          falta: 'Falta depositar L 0.30 del almacén OAC.',
        },
      ],
    }
    const view = {
      numero: '905112',
      estado: 'imported',
      fecha_ingreso: '2026-11-22 10:00:00',
      cerrado_en: null,
      total_facturas: 2,
      total_importe: 0.3,
      devoluciones: { cantidad: 0, total_aprobado: 0 },
      plazo_devoluciones: null,
      dias_habiles_restantes: null,
      liquidacion,
    }
    assert.deepEqual(listed, [view])
    const detail = await operator(service, 'GET', 'manifiestos/905112')
    assert.equal(detail.status, 200)
    assert.deepEqual(detail.body, {
      ...view,
      facturas: [
        {
          factura: 'F-2',
          almacen: 'OAC',
          clienteid: '40112233',
          cliente: 'PULPERIA LA ESPERANZA',
          fecha_factura: '2026-11-22',
          total: 0.2,
          devoluciones_aprobadas: 0,
          conflicto_pendiente: false,
          anulada: false,
          reemision: null,
        },
        {
          factura: 'F-3',
          almacen: 'OAC',
          clienteid: '40112233',
          cliente: 'PULPERIA LA ESPERANZA',
          fecha_factura: '2026-11-22',
          total: 0.1,
          devoluciones_aprobadas: 0,
          conflicto_pendiente: false,
          anulada: false,
          reemision: null,
        },
      ],
    })
  }))

const auditRows = (service: TestService) =>
  all(service.db, service.db.query.selectFrom('audit_log').selectAll().orderBy('id'))

/** One audit row written by the request: the operator, the action and motivo, the state before and after. */
const audited =
  (action: string, detail: unknown, from: string, to: string): DatabaseCheck =>
  (service) => {
    const before = auditRows(service).length
    return () =>
      assert.deepEqual(
        auditRows(service)
          .slice(before)
          .map((row) => ({
            actor: row.actor,
            action: row.action,
            detail: row.detail && JSON.parse(row.detail),
            before: JSON.parse(row.before!).estado,
            after: JSON.parse(row.after!).estado,
          })),
        [{ actor: OPERATOR, action, detail, before: from, after: to }],
      )
  }

const post = (path: string, body?: unknown) => ({ method: 'POST', path, body })

/** 905112 holds L 0.30 (OAC): a deposit of L 0.30 settles it, so it closes. */
const settle = (service: TestService) =>
  operator(service, 'POST', 'manifiestos/905112/depositos', {
    monto: 0.3,
    fecha: '2026-11-22',
    banco: 'Ficohsa',
    referencia: '77001',
  })

testScenarios(
  'operator manifests',
  [
    {
      name: 'reopen without motivo → 422',
      request: post('manifiestos/905113/reabrir'),
      status: 422,
      body: refusal('Cuerpo inválido: motivo: es obligatorio.'),
      database: nothingWritten(),
    },
    {
      name: 'close an unknown manifest → 404',
      request: post('manifiestos/999/cerrar'),
      status: 404,
      body: refusal('El manifiesto 999 no existe.'),
      database: nothingWritten(),
    },
    {
      name: 'close a closed manifest → 422',
      request: post('manifiestos/905113/cerrar'),
      status: 422,
      body: refusal('El manifiesto 905113 ya está cerrado.'),
      database: nothingWritten(),
    },
    {
      name: 'reopen an open manifest → 422',
      request: post('manifiestos/905112/reabrir', { motivo: 'x' }),
      status: 422,
      body: refusal('El manifiesto 905112 no está cerrado: no hay nada que reabrir.'),
      database: nothingWritten(),
    },
    {
      name: 'close → 200, audited',
      setup: settle,
      request: post('manifiestos/905112/cerrar'),
      status: 200,
      body: containing({ numero: '905112', estado: 'closed' }),
      database: audited('manifiesto.cerrado', null, 'imported', 'closed'),
    },
    {
      name: 'close with a motivo → 200, motivo audited',
      setup: settle,
      request: post('manifiestos/905112/cerrar', { motivo: 'Ruta liquidada' }),
      status: 200,
      body: containing({ numero: '905112', estado: 'closed' }),
      database: audited('manifiesto.cerrado', { motivo: 'Ruta liquidada' }, 'imported', 'closed'),
    },
    {
      name: 'reopen with motivo → 200, audited',
      request: post('manifiestos/905113/reabrir', { motivo: 'Faltó una factura' }),
      status: 200,
      body: containing({ numero: '905113', estado: 'imported' }),
      database: audited('manifiesto.reabierto', { motivo: 'Faltó una factura' }, 'closed', 'imported'),
    },
  ],
  { setup: seed, as: 'operator' },
)
