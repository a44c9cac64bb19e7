import assert from 'node:assert/strict'
import { test } from 'node:test'
import { all } from '../../src/db/database.ts'
import { columnValue, LINE_FIELDS } from '../../src/invoices/invoice-fields.ts'
import { prepareInvoiceInserts } from '../../src/invoices/invoices.store.ts'
import { exampleBatch, invoice, postBatch, storedOriginal } from '../support/batches.ts'
import { rawRequest } from '../support/raw-request.ts'
import { API_KEY, withService } from '../support/service.ts'

test('intake: the realistic example (dates shifted to today) is accepted and every invoice is stored exactly as received', () =>
  withService({}, async (service) => {
    const batch = exampleBatch()
    const { status, body } = await postBatch(service, batch)
    assert.equal(status, 200, JSON.stringify(body))
    assert.deepEqual(body.resumen, {
      recibidas: 2,
      insertadas: 2,
      actualizadas: 0,
      sin_cambios: 0,
      pendientes_revision: 0,
      rechazadas: 0,
    })
    for (const sent of batch) assert.deepEqual(storedOriginal(service.db, sent.Nfactura as string), sent)

    const header = service.db.sqlite
      .prepare(
        'SELECT nfactura, fecha_factura, almacen, vendedor_id, cliente, rtn, numero_ruta, dias_cred, estado_factura, isv15, total FROM invoices ORDER BY id',
      )
      .all()
    assert.deepEqual(header[0], {
      nfactura: '001-001-01-00912001',
      fecha_factura: '2026-11-22',
      almacen: 'OAC',
      vendedor_id: '20417',
      cliente: 'PULPERIA LA ESPERANZA',
      rtn: '08019001234567',
      numero_ruta: '118  ',
      dias_cred: 30,
      estado_factura: 1,
      isv15: 300.02,
      total: 2300.18,
    })
    const lines = all(
      service.db,
      service.db.query
        .selectFrom('invoice_lines')
        .select([
          'position',
          'numero_linea',
          'producto_id',
          'uni_venta',
          'cantidad_fracciones',
          'cantidad_caja',
          'factor_conversion',
          'total',
        ])
        .where('invoice_id', '=', 1)
        .orderBy('position'),
    )
    assert.deepEqual(lines, [
      {
        position: 0,
        numero_linea: 1,
        producto_id: '30110205',
        uni_venta: 'UN',
        cantidad_fracciones: 12,
        cantidad_caja: 0,
        factor_conversion: 24,
        total: 430.56,
      },
      {
        position: 1,
        numero_linea: 2,
        producto_id: '81800012',
        uni_venta: 'CJ',
        cantidad_fracciones: 0,
        cantidad_caja: 2,
        factor_conversion: 96,
        total: 1476.77,
      },
      {
        position: 2,
        numero_linea: 3,
        producto_id: '52480038',
        uni_venta: 'CJ',
        cantidad_fracciones: 10,
        cantidad_caja: 1,
        factor_conversion: 72,
        total: 392.85,
      },
    ])
    const manifest = await (await service.client('/api/v1/manifiestos/905112/estado')).json()
    assert.deepEqual((manifest as { resumen: unknown }).resumen, {
      total_facturas: 2,
      total_importe: 2489.15,
      fecha_ingreso: '2026-11-22 10:00:00',
    })
  }))

test('intake: the statements that write invoices and lines, prepared as the service starts, are the ones every batch uses', () =>
  withService({}, async (service) => {
    const insertStatements = () =>
      [...service.db.statements.keys()].filter((key) => key.startsWith('named:insert-')).sort()
    assert.deepEqual(insertStatements(), [])
    prepareInvoiceInserts(service.db)
    const prepared = insertStatements()
    assert.deepEqual(
      prepared,
      ['named:insert-invoice', ...Array.from({ length: 16 }, (_, i) => `named:insert-lines-${i + 1}`)].sort(),
    )
    const template = (exampleBatch()[0]!.LineasFactura as Array<Record<string, unknown>>)[0]!
    const batch = [1, 7, 16, 17, 40].map((count) =>
      invoice(`F-${count}`, '905112', {
        LineasFactura: Array.from({ length: count }, (_, index) => ({ ...template, NumeroLinea: index + 1 })),
      }),
    )
    const { status, body } = await postBatch(service, batch)
    assert.equal(status, 200, JSON.stringify(body))
    assert.deepEqual(insertStatements(), prepared)
    assert.equal(service.db.sqlite.prepare('SELECT count(*) FROM invoice_lines').pluck().get(), 1 + 7 + 16 + 17 + 40)
  }))

test('intake: every line of invoices of 1 to 33 lines is stored in its place with its columns (lines go in 16 per statement)', () =>
  withService({}, async (service) => {
    const counts = [1, 15, 16, 17, 32, 33]
    const template = (exampleBatch()[0]!.LineasFactura as Array<Record<string, unknown>>)[0]!
    const batch = counts.map((count) =>
      invoice(`F-${count}`, '905112', {
        LineasFactura: Array.from({ length: count }, (_, index) => ({
          ...template,
          NumeroLinea: index + 1,
          ProductoId: index % 3 === 0 ? 7000 + index : `P-${count}-${index}`,
          Total: index % 4 === 0 ? `${index}.25` : index + 0.5,
          CantidadCaja: index % 5 === 0 ? null : index,
          Peso: undefined,
        })),
      }),
    )
    const { status, body } = await postBatch(service, batch)
    assert.equal(status, 200, JSON.stringify(body))
    for (const sent of batch) {
      const stored = service.db.sqlite
        .prepare(
          `SELECT position, ${LINE_FIELDS.map((spec) => spec.column).join(', ')} FROM invoice_lines WHERE invoice_id = (SELECT id FROM invoices WHERE nfactura = ?) ORDER BY id`,
        )
        .raw()
        .all(sent.Nfactura)
      const lines = sent.LineasFactura as Array<Record<string, unknown>>
      assert.deepEqual(
        stored,
        lines.map((line, position) => [position, ...LINE_FIELDS.map((spec) => columnValue(spec, line[spec.name]))]),
      )
    }
  }))

test('intake: __proto__ and constructor keys are kept as data and pollute nothing', () =>
  withService({}, async (service) => {
    const text = JSON.stringify([invoice('F-1')]).replace(
      '"Nfactura"',
      '"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}},"Nfactura"',
    )
    const { status } = await postBatch(service, text)
    assert.equal(status, 200)
    const original = storedOriginal(service.db, 'F-1') as Record<string, unknown>
    assert.ok(Object.hasOwn(original, '__proto__'))
    assert.deepEqual(original['__proto__'], { polluted: true })
    assert.deepEqual(original.constructor, { prototype: { x: 1 } })
    assert.equal(({} as Record<string, unknown>).polluted, undefined)
    assert.equal(({} as Record<string, unknown>).x, undefined)
  }))

test('intake: a chunked body over server.maxBodyMB → 413 while it is read, nothing written', () =>
  withService({ config: { server: { maxBodyMB: 0.01 } } }, async (service) => {
    const big = JSON.stringify(Array.from({ length: 10 }, (_, i) => invoice(`F-${i}`)))
    assert.ok(big.length > 0.01 * 1024 * 1024)
    const response = await rawRequest(`${service.url}/api/v1/facturas/insertar`, {
      method: 'POST',
      headers: { ApiKey: API_KEY, 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
      body: big,
    })
    assert.equal(response.status, 413)
    assert.deepEqual(JSON.parse(response.body), {
      success: false,
      message: 'El cuerpo de la solicitud excede el máximo permitido de 0.01 MB.',
    })
    assert.equal(service.db.sqlite.prepare('SELECT count(*) FROM batches').pluck().get(), 0)
  }))
