import assert from 'node:assert/strict'
import { test } from 'node:test'
import { all } from '../../src/db/database.ts'
import { invoice, postBatch } from '../support/batches.ts'
import { OPERATOR, operator } from '../support/operator.ts'
import { withService, type TestService } from '../support/service.ts'

/** 905111 created the 21st (local), 905112 and 905113 the 22nd; 905113 closed. */
async function seed(service: TestService): Promise<void> {
  service.clock.set('2026-11-21T16:00:00Z')
  await postBatch(service, [invoice('F-1', '905111', { Total: 100.1 }, '2026-11-21')])
  service.clock.set('2026-11-22T16:00:00Z')
  await postBatch(service, [invoice('F-2', '905112', { Total: 0.2 }), invoice('F-3', '905112', { Total: 0.1 }), invoice('F-4', '905113')])
  service.db.sqlite.exec("UPDATE manifests SET estado = 'closed', closed_at = '2026-11-22T17:00:00.000Z' WHERE numero = '905113'")
}

const numbers = (body: unknown) => (body as Array<{ numero: string }>).map((manifest) => manifest.numero)

const listings: Array<{ query: string; numeros: string[] }> = [
  { query: '', numeros: ['905111', '905112', '905113'] },
  { query: '?estado=closed', numeros: ['905113'] },
  { query: '?estado=imported&desde=2026-11-22', numeros: ['905112'] },
  { query: '?hasta=2026-11-21', numeros: ['905111'] },
  { query: '?desde=2026-11-23', numeros: [] },
]

for (const listing of listings) {
  test(`operator manifests: list ${listing.query || '(all)'}`, () =>
    withService({}, async (service) => {
      await seed(service)
      const { status, body } = await operator(service, 'GET', `manifiestos${listing.query}`)
      assert.equal(status, 200)
      assert.deepEqual(numbers(body), listing.numeros)
    }))
}

const badFilters = [
  { query: 'estado=abierto', message: 'El parámetro estado tiene un valor no admitido (se recibió "abierto").' },
  { query: 'hasta=2026-13-01', message: 'El parámetro hasta debe ser una fecha real en formato YYYY-MM-DD (se recibió "2026-13-01").' },
  { query: 'desde=2026-02-30', message: 'El parámetro desde debe ser una fecha real en formato YYYY-MM-DD (se recibió "2026-02-30").' },
]

for (const filter of badFilters) {
  test(`operator manifests: a bad filter (${filter.query}) → 422 naming the parameter`, () =>
    withService({}, async (service) => {
      const { status, body } = await operator(service, 'GET', `manifiestos?${filter.query}`)
      assert.deepEqual({ status, body }, { status: 422, body: { success: false, message: filter.message } })
    }))
}

test('operator manifests: the list item and the detail with its invoices', () =>
  withService({}, async (service) => {
    await seed(service)
    const listed = (await operator(service, 'GET', 'manifiestos?desde=2026-11-22&hasta=2026-11-22&estado=imported')).body
    const liquidacion = {
      facturado: 0.3, devuelto: 0, a_depositar: 0.3, depositado: 0, ajustes: 0, diferencia: 0.3, devoluciones_pendientes: 0, liquidada: false, lista_para_cerrar: false, falta: 'Falta depositar L 0.30 del almacén OAC.',
      por_almacen: [{ almacen: 'OAC', facturado: 0.3, devuelto: 0, a_depositar: 0.3, depositado: 0, ajustes: 0, diferencia: 0.3, devoluciones_pendientes: 0, sobrepago_justificado: false, liquidada: false, falta: 'Falta depositar L 0.30 del almacén OAC.' }],
    }
    const view = { numero: '905112', estado: 'imported', fecha_ingreso: '2026-11-22 10:00:00', cerrado_en: null, total_facturas: 2, total_importe: 0.3, devoluciones: { cantidad: 0, total_aprobado: 0 }, plazo_devoluciones: null, dias_habiles_restantes: null, liquidacion }
    assert.deepEqual(listed, [view])
    const detail = await operator(service, 'GET', 'manifiestos/905112')
    assert.equal(detail.status, 200)
    assert.deepEqual(detail.body, {
      ...view,
      facturas: [
        { factura: 'F-2', almacen: 'OAC', clienteid: '40112233', cliente: 'PULPERIA LA ESPERANZA', fecha_factura: '2026-11-22', total: 0.2, devoluciones_aprobadas: 0, conflicto_pendiente: false, anulada: false, reemision: null },
        { factura: 'F-3', almacen: 'OAC', clienteid: '40112233', cliente: 'PULPERIA LA ESPERANZA', fecha_factura: '2026-11-22', total: 0.1, devoluciones_aprobadas: 0, conflicto_pendiente: false, anulada: false, reemision: null },
      ],
    })
  }))

interface Change {
  name: string
  path: string
  body?: unknown
  status: number
  message?: string
  estado?: string
  audit?: { action: string; detail: unknown }
  /** Before the change (and before the audit count): e.g. the deposit that settles 905112. */
  setup?: (service: TestService) => Promise<{ status: number }>
}

/** 905112 holds L 0.30 (OAC): a deposit of L 0.30 settles it, so it closes. */
const settle = (service: TestService) => operator(service, 'POST', 'manifiestos/905112/depositos', { monto: 0.3, fecha: '2026-11-22', banco: 'Ficohsa', referencia: '77001' })

const changes: Change[] = [
  { name: 'detail of an unknown manifest → 404', path: 'manifiestos/999/cerrar', status: 404, message: 'El manifiesto 999 no existe.' },
  { name: 'close a closed manifest → 422', path: 'manifiestos/905113/cerrar', status: 422, message: 'El manifiesto 905113 ya está cerrado.' },
  { name: 'reopen an open manifest → 422', path: 'manifiestos/905112/reabrir', body: { motivo: 'x' }, status: 422, message: 'El manifiesto 905112 no está cerrado: no hay nada que reabrir.' },
  { name: 'reopen without motivo → 422', path: 'manifiestos/905113/reabrir', status: 422, message: 'Cuerpo inválido: motivo: es obligatorio.' },
  { name: 'close → 200, audited', setup: settle, path: 'manifiestos/905112/cerrar', status: 200, estado: 'closed', audit: { action: 'manifiesto.cerrado', detail: null } },
  { name: 'close with a motivo → 200, motivo audited', setup: settle, path: 'manifiestos/905112/cerrar', body: { motivo: 'Ruta liquidada' }, status: 200, estado: 'closed', audit: { action: 'manifiesto.cerrado', detail: { motivo: 'Ruta liquidada' } } },
  { name: 'reopen with motivo → 200, audited', path: 'manifiestos/905113/reabrir', body: { motivo: 'Faltó una factura' }, status: 200, estado: 'imported', audit: { action: 'manifiesto.reabierto', detail: { motivo: 'Faltó una factura' } } },
]

for (const change of changes) {
  test(`operator manifests: ${change.name}`, () =>
    withService({}, async (service) => {
      await seed(service)
      assert.equal((await change.setup?.(service))?.status ?? 201, 201)
      const auditBefore = all(service.db, service.db.query.selectFrom('audit_log').selectAll()).length
      const { status, body } = await operator(service, 'POST', change.path, change.body)
      assert.equal(status, change.status, JSON.stringify(body))
      if (change.message) assert.deepEqual(body as unknown, { success: false, message: change.message })
      if (change.estado) assert.equal(body.estado, change.estado)
      const audit = all(service.db, service.db.query.selectFrom('audit_log').selectAll().orderBy('id')).slice(auditBefore)
      assert.deepEqual(
        audit.map((row) => ({ actor: row.actor, action: row.action, detail: row.detail && JSON.parse(row.detail), before: JSON.parse(row.before!).estado, after: JSON.parse(row.after!).estado })),
        change.audit ? [{ actor: OPERATOR, action: change.audit.action, detail: change.audit.detail, before: change.estado === 'closed' ? 'imported' : 'closed', after: change.estado }] : [],
      )
    }))
}

test('operator manifests: detail of an unknown manifest → 404', () =>
  withService({}, async (service) => {
    assert.deepEqual(await operator(service, 'GET', 'manifiestos/12345'), { status: 404, body: { success: false, message: 'El manifiesto 12345 no existe.' } })
  }))
