import assert from 'node:assert/strict'
import { test } from 'node:test'
import { all } from '../../src/db/database.ts'
import { exampleBatch, invoice, postBatch, storedOriginal } from '../support/batches.ts'
import { FACTURA, OPERATOR, operator, registerReturn, seedReturns } from '../support/operator.ts'
import { withService, type TestService } from '../support/service.ts'
import { CLOSE_UNSETTLED } from '../support/settlement.ts'

test('operator invoice: unknown → 404', () =>
  withService({}, async (service) => {
    assert.deepEqual(await operator(service, 'GET', 'facturas/NO-EXISTE'), { status: 404, body: { success: false, message: 'No existe la factura NO-EXISTE.' } })
  }))

test('operator invoice: lines with units, returned and available; its returns; the original as received', () =>
  withService({}, async (service) => {
    await seedReturns(service)
    await registerReturn(service, [{ numeroLinea: 2, cajas: 1 }, { numeroLinea: 3, unidades: 10 }])
    await registerReturn(service, [{ numeroLinea: 3, cajas: 1 }], { aprobar: true })
    await registerReturn(service, [{ numeroLinea: 1, unidades: 12 }])
    await operator(service, 'POST', 'devoluciones/3/rechazar', { motivo: 'no' })
    const { status, body } = await operator(service, 'GET', `facturas/${FACTURA}`)
    assert.equal(status, 200)
    assert.deepEqual(body.lineas, [
      { numeroLinea: 1, productoId: '30110205', producto: 'ACEITE VEGETAL 410 mL 1/24', uniVenta: 'UN', factorConversion: 24, unidades: 12, devueltas: 0, disponibles: 12, total: 430.56 },
      { numeroLinea: 2, productoId: '81800012', producto: 'SALSA DE TOMATE 8X12X87GR', uniVenta: 'CJ', factorConversion: 96, unidades: 192, devueltas: 96, disponibles: 96, total: 1476.77 },
      { numeroLinea: 3, productoId: '52480038', producto: 'JABON LIMON 115GRX72', uniVenta: 'CJ', factorConversion: 72, unidades: 82, devueltas: 82, disponibles: 0, total: 392.85 },
    ])
    assert.deepEqual(
      { factura: body.factura, manifiesto: body.manifiesto, manifiesto_estado: body.manifiesto_estado, plazo_devoluciones: body.plazo_devoluciones, admite_devoluciones: body.admite_devoluciones, almacen: body.almacen, cliente: body.cliente, fecha_factura: body.fecha_factura, total: body.total, recibida_en: body.recibida_en, actualizada_en: body.actualizada_en, conflicto_pendiente: body.conflicto_pendiente },
      { factura: FACTURA, manifiesto: '905112', manifiesto_estado: 'imported', plazo_devoluciones: null, admite_devoluciones: true, almacen: 'OAC', cliente: 'PULPERIA LA ESPERANZA', fecha_factura: '2026-11-22', total: 2300.18, recibida_en: '2026-11-22 10:00:00', actualizada_en: null, conflicto_pendiente: null },
    )
    assert.deepEqual((body.devoluciones as Array<{ id: string; estado: string }>).map((r) => [r.id, r.estado]), [['1', 'pending'], ['2', 'approved'], ['3', 'rejected']])
    assert.deepEqual(body.original, exampleBatch()[0])
  }))

async function conflictOn(service: TestService, changes: Record<string, unknown> = { Cliente: 'NUEVO NOMBRE', Total: 2400 }): Promise<void> {
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
      { id: '1', factura: 'F-1', manifiesto: '905112', estado: 'pending', campos_con_cambio: ['Cliente', 'Total'], recibido_en: '2026-11-22 10:00:00', batch_uuid: 'string', decidido_por: null, decidido_en: null, nota: null, existente: invoice('F-1'), entrante: invoice('F-1', '905112', { Cliente: 'NUEVO NOMBRE', Total: 2400 }) },
    )
    assert.deepEqual((await operator(service, 'GET', 'conflictos?estado=accepted')).body, [])
    const shown = (await operator(service, 'GET', 'facturas/F-1')).body.conflicto_pendiente
    assert.deepEqual({ ...shown, batch_uuid: typeof shown.batch_uuid }, { id: '1', campos_con_cambio: ['Cliente', 'Total'], recibido_en: '2026-11-22 10:00:00', batch_uuid: 'string' })
  }))

interface Decision {
  name: string
  before?: (service: TestService) => Promise<unknown> | unknown
  path: string
  body?: unknown
  status: number
  message?: string
  stored: 'existing' | 'incoming'
  audit?: string
}

const decisions: Decision[] = [
  { name: 'unknown conflict → 404', path: 'conflictos/9/aceptar', status: 404, message: 'No existe el conflicto 9.', stored: 'existing' },
  { name: 'accept a decided conflict → 422', before: (service) => operator(service, 'POST', 'conflictos/1/descartar'), path: 'conflictos/1/aceptar', status: 422, message: 'El conflicto 1 ya fue decidido (descartado).', stored: 'existing' },
  { name: 'discard an accepted conflict → 422', before: (service) => operator(service, 'POST', 'conflictos/1/aceptar'), path: 'conflictos/1/descartar', status: 422, message: 'El conflicto 1 ya fue decidido (aceptado).', stored: 'incoming' },
  { name: 'accept on a closed manifest → 422', before: (service) => operator(service, 'POST', 'manifiestos/905112/cerrar'), path: 'conflictos/1/aceptar', status: 422, message: 'El manifiesto 905112 está cerrado: reábralo para decidir el conflicto 1.', stored: 'existing' },
  { name: 'discard on a closed manifest → 422', before: (service) => operator(service, 'POST', 'manifiestos/905112/cerrar'), path: 'conflictos/1/descartar', status: 422, message: 'El manifiesto 905112 está cerrado: reábralo para decidir el conflicto 1.', stored: 'existing' },
  { name: 'accept → the incoming version is stored, audited', path: 'conflictos/1/aceptar', body: { nota: 'Confirmado con el proveedor' }, status: 200, stored: 'incoming', audit: 'conflicto.aceptado' },
  { name: 'discard → the existing version stays, audited', path: 'conflictos/1/descartar', status: 200, stored: 'existing', audit: 'conflicto.descartado' },
]

for (const decision of decisions) {
  test(`operator conflicts: ${decision.name}`, () =>
    // A closed manifest is a setup here, not the subject: it closes unsettled.
    withService({ config: CLOSE_UNSETTLED }, async (service) => {
      await conflictOn(service)
      await decision.before?.(service)
      const auditBefore = all(service.db, service.db.query.selectFrom('audit_log').select('id')).length
      const { status, body } = await operator(service, 'POST', decision.path, decision.body)
      assert.equal(status, decision.status, JSON.stringify(body))
      if (decision.message) assert.deepEqual(body as unknown, { success: false, message: decision.message })
      const expected = decision.stored === 'existing' ? invoice('F-1') : invoice('F-1', '905112', { Cliente: 'NUEVO NOMBRE', Total: 2400 })
      assert.deepEqual(storedOriginal(service.db, 'F-1'), expected)
      const audit = all(service.db, service.db.query.selectFrom('audit_log').selectAll().orderBy('id')).slice(auditBefore)
      assert.deepEqual(audit.map((row) => [row.actor, row.action, row.subject_type, row.subject_id]), decision.audit ? [[OPERATOR, decision.audit, 'factura', 'F-1']] : [])
      if (decision.audit === 'conflicto.aceptado') {
        assert.deepEqual([body.estado, body.decidido_por, body.nota], ['accepted', OPERATOR, 'Confirmado con el proveedor'])
        assert.deepEqual(JSON.parse(audit[0]!.after!), expected)
        assert.deepEqual(JSON.parse(audit[0]!.before!), invoice('F-1'))
      }
    }))
}

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
