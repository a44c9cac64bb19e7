import assert from 'node:assert/strict'
import { test } from 'node:test'
import { all } from '../../src/db/database.ts'
import { exampleBatch, invoice, postBatch, storedOriginal } from '../support/batches.ts'
import { FACTURA, OPERATOR, operator, registerReturn, seedReturns } from '../support/operator.ts'
import { containing, holds, nothingWritten, refusal, testScenarios, type DatabaseCheck } from '../support/scenarios.ts'
import { withService, type TestService } from '../support/service.ts'
import { CLOSE_UNSETTLED } from '../support/settlement.ts'

test('operator invoice: unknown → 404', () =>
  withService({}, async (service) => {
    assert.deepEqual(await operator(service, 'GET', 'facturas/NO-EXISTE'), {
      status: 404,
      body: { success: false, message: 'No existe la factura NO-EXISTE.' },
    })
  }))

test('operator invoice: lines with units, returned and available; its returns; the original as received', () =>
  withService({}, async (service) => {
    await seedReturns(service)
    await registerReturn(service, [
      { numeroLinea: 2, cajas: 1 },
      { numeroLinea: 3, unidades: 10 },
    ])
    await registerReturn(service, [{ numeroLinea: 3, cajas: 1 }], { aprobar: true })
    await registerReturn(service, [{ numeroLinea: 1, unidades: 12 }])
    await operator(service, 'POST', 'devoluciones/3/rechazar', { motivo: 'no' })
    const { status, body } = await operator(service, 'GET', `facturas/${FACTURA}`)
    assert.equal(status, 200)
    assert.deepEqual(body.lineas, [
      {
        numeroLinea: 1,
        productoId: '30110205',
        producto: 'ACEITE VEGETAL 410 mL 1/24',
        uniVenta: 'UN',
        factorConversion: 24,
        unidades: 12,
        devueltas: 0,
        disponibles: 12,
        total: 430.56,
      },
      {
        numeroLinea: 2,
        productoId: '81800012',
        producto: 'SALSA DE TOMATE 8X12X87GR',
        uniVenta: 'CJ',
        factorConversion: 96,
        unidades: 192,
        devueltas: 96,
        disponibles: 96,
        total: 1476.77,
      },
      {
        numeroLinea: 3,
        productoId: '52480038',
        producto: 'JABON LIMON 115GRX72',
        uniVenta: 'CJ',
        factorConversion: 72,
        unidades: 82,
        devueltas: 82,
        disponibles: 0,
        total: 392.85,
      },
    ])
    assert.deepEqual(
      {
        factura: body.factura,
        manifiesto: body.manifiesto,
        manifiesto_estado: body.manifiesto_estado,
        plazo_devoluciones: body.plazo_devoluciones,
        admite_devoluciones: body.admite_devoluciones,
        almacen: body.almacen,
        cliente: body.cliente,
        fecha_factura: body.fecha_factura,
        total: body.total,
        recibida_en: body.recibida_en,
        actualizada_en: body.actualizada_en,
        conflicto_pendiente: body.conflicto_pendiente,
      },
      {
        factura: FACTURA,
        manifiesto: '905112',
        manifiesto_estado: 'imported',
        plazo_devoluciones: null,
        admite_devoluciones: true,
        almacen: 'OAC',
        cliente: 'PULPERIA LA ESPERANZA',
        fecha_factura: '2026-11-22',
        total: 2300.18,
        recibida_en: '2026-11-22 10:00:00',
        actualizada_en: null,
        conflicto_pendiente: null,
      },
    )
    assert.deepEqual(
      (body.devoluciones as Array<{ id: string; estado: string }>).map((r) => [r.id, r.estado]),
      [
        ['1', 'pending'],
        ['2', 'approved'],
        ['3', 'rejected'],
      ],
    )
    assert.deepEqual(body.original, exampleBatch()[0])
  }))

async function conflictOn(
  service: TestService,
  changes: Record<string, unknown> = { Cliente: 'NUEVO NOMBRE', Total: 2400 },
): Promise<void> {
  assert.equal((await postBatch(service, [invoice('F-1')])).status, 200)
  const held = await postBatch(service, [invoice('F-1', '905112', changes)])
  assert.equal(held.body.resumen.pendientes_revision, 1)
}

test('operator conflicts: listed by state with both versions; the invoice shows its pending conflict', () =>
  withService({}, async (service) => {
    await conflictOn(service)
    const { status, body } = await operator(service, 'GET', 'conflictos?estado=pending')
    assert.equal(status, 200)
    assert.equal(body.length, 1)
    const [conflict] = body as Array<Record<string, unknown>>
    assert.deepEqual(
      { ...conflict, batch_uuid: typeof conflict!.batch_uuid },
      {
        id: '1',
        factura: 'F-1',
        cliente: 'PULPERIA LA ESPERANZA',
        clienteid: '40112233',
        almacen: 'OAC',
        manifiesto: '905112',
        estado: 'pending',
        campos_con_cambio: ['Cliente', 'Total'],
        recibido_en: '2026-11-22 10:00:00',
        batch_uuid: 'string',
        decidido_por: null,
        decidido_en: null,
        nota: null,
        existente: invoice('F-1'),
        entrante: invoice('F-1', '905112', { Cliente: 'NUEVO NOMBRE', Total: 2400 }),
      },
    )
    assert.deepEqual((await operator(service, 'GET', 'conflictos?estado=accepted')).body, [])
    const shown = (await operator(service, 'GET', 'facturas/F-1')).body.conflicto_pendiente
    assert.deepEqual(
      { ...shown, batch_uuid: typeof shown.batch_uuid },
      { id: '1', campos_con_cambio: ['Cliente', 'Total'], recibido_en: '2026-11-22 10:00:00', batch_uuid: 'string' },
    )
  }))

const EXISTING = invoice('F-1')
const INCOMING = invoice('F-1', '905112', { Cliente: 'NUEVO NOMBRE', Total: 2400 })
const stored = (version: unknown) =>
  holds('the stored version', (service) => storedOriginal(service.db, 'F-1'), version)
const auditRows = (service: TestService) =>
  all(service.db, service.db.query.selectFrom('audit_log').selectAll().orderBy('id'))

/** One audit row for the decision, by the operator, on invoice F-1 (with both versions, when accepted). */
const audited =
  (action: string): DatabaseCheck =>
  (service) => {
    const before = auditRows(service).length
    return () => {
      const added = auditRows(service).slice(before)
      assert.deepEqual(
        added.map((row) => [row.actor, row.action, row.subject_type, row.subject_id]),
        [[OPERATOR, action, 'factura', 'F-1']],
      )
      if (action === 'conflicto.aceptado') {
        assert.deepEqual(JSON.parse(added[0]!.after!), INCOMING)
        assert.deepEqual(JSON.parse(added[0]!.before!), EXISTING)
      }
    }
  }

const refused = (message: string, version: unknown) => ({
  status: 422,
  body: refusal(message),
  database: [stored(version), nothingWritten()],
})

testScenarios(
  'operator conflicts',
  [
    {
      name: 'unknown conflict → 404',
      request: { method: 'POST', path: 'conflictos/9/aceptar' },
      status: 404,
      body: refusal('No existe el conflicto 9.'),
      database: [stored(EXISTING), nothingWritten()],
    },
    {
      name: 'accept a decided conflict → 422',
      setup: (service) => operator(service, 'POST', 'conflictos/1/descartar'),
      request: { method: 'POST', path: 'conflictos/1/aceptar' },
      ...refused('El conflicto 1 ya fue decidido (descartado).', EXISTING),
    },
    {
      name: 'discard an accepted conflict → 422',
      setup: (service) => operator(service, 'POST', 'conflictos/1/aceptar'),
      request: { method: 'POST', path: 'conflictos/1/descartar' },
      ...refused('El conflicto 1 ya fue decidido (aceptado).', INCOMING),
    },
    {
      name: 'accept on a closed manifest → 422',
      setup: (service) => operator(service, 'POST', 'manifiestos/905112/cerrar'),
      request: { method: 'POST', path: 'conflictos/1/aceptar' },
      ...refused('El manifiesto 905112 está cerrado: reábralo para decidir el conflicto 1.', EXISTING),
    },
    {
      name: 'discard on a closed manifest → 422',
      setup: (service) => operator(service, 'POST', 'manifiestos/905112/cerrar'),
      request: { method: 'POST', path: 'conflictos/1/descartar' },
      ...refused('El manifiesto 905112 está cerrado: reábralo para decidir el conflicto 1.', EXISTING),
    },
    {
      name: 'accept → the incoming version is stored, audited',
      request: { method: 'POST', path: 'conflictos/1/aceptar', body: { nota: 'Confirmado con el proveedor' } },
      status: 200,
      body: containing({ id: '1', estado: 'accepted', decidido_por: OPERATOR, nota: 'Confirmado con el proveedor' }),
      database: [stored(INCOMING), audited('conflicto.aceptado')],
    },
    {
      name: 'discard → the existing version stays, audited',
      request: { method: 'POST', path: 'conflictos/1/descartar' },
      status: 200,
      body: containing({ id: '1', estado: 'discarded', decidido_por: OPERATOR }),
      database: [stored(EXISTING), audited('conflicto.descartado')],
    },
  ],
  // A closed manifest is a setup here, not the subject: it closes unsettled.
  { setup: (service) => conflictOn(service), as: 'operator', service: { config: CLOSE_UNSETTLED } },
)

test('operator conflicts: accepting replaces the lines too, and the stored hash makes a resend of that version unchanged', () =>
  withService({}, async (service) => {
    const lines = (invoice('x').LineasFactura as Array<Record<string, unknown>>).slice(0, 1)
    await conflictOn(service, { LineasFactura: lines })
    await operator(service, 'POST', 'conflictos/1/aceptar')
    const detail = (await operator(service, 'GET', 'facturas/F-1')).body
    assert.equal(detail.lineas.length, 1)
    assert.equal(detail.actualizada_en, '2026-11-22 10:00:00')
    const resend = await postBatch(service, [invoice('F-1', '905112', { LineasFactura: lines }), invoice('F-2')])
    assert.equal(resend.body.resumen.sin_cambios, 1)
  }))
