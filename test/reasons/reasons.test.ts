import assert from 'node:assert/strict'
import { test } from 'node:test'
import { all } from '../../src/db/database.ts'
import { operator, OPERATOR } from '../support/operator.ts'
import { API_KEY, OPERATOR_KEY, withService, type TestService } from '../support/service.ts'

interface Scenario {
  name: string
  setup?: (service: TestService) => Promise<unknown>
  method: string
  path: string
  body?: unknown
  headers?: Record<string, string>
  status: number
  answer: unknown
  /** Reasons stored afterwards. */
  stored?: Array<Record<string, unknown>>
}

const DANADO = { codigo: 'DANADO', idProveedor: '7', descripcion: 'Producto dañado', activo: true }
const create = (service: TestService) => operator(service, 'POST', 'conceptos', { codigo: 'DANADO', idProveedor: '7', descripcion: 'Producto dañado' })
const noOperatorKey = { OperatorKey: '' }

const scenarios: Scenario[] = [
  { name: 'neither a session nor an OperatorKey → 401', method: 'GET', path: 'conceptos', headers: noOperatorKey, status: 401, answer: { success: false, message: 'Inicie sesión en la consola, o (una integración) envíe la clave en el encabezado OperatorKey.' } },
  { name: "the client's ApiKey sent as OperatorKey → 401", method: 'GET', path: 'conceptos', headers: { OperatorKey: API_KEY }, status: 401, answer: { success: false, message: 'OperatorKey inválido.' } },
  { name: 'only an ApiKey header → 401', method: 'GET', path: 'conceptos', headers: { ...noOperatorKey, ApiKey: API_KEY }, status: 401, answer: { success: false, message: 'Inicie sesión en la consola, o (una integración) envíe la clave en el encabezado OperatorKey.' } },
  { name: 'a change without the Operador header → 422, nothing written', method: 'POST', path: 'conceptos', body: DANADO, headers: { Operador: '' }, status: 422, answer: { success: false, message: 'Falta el encabezado Operador: el nombre de la persona que hace el cambio (codificado con %XX si no es ASCII).' }, stored: [] },
  { name: 'a bad percent-encoding in Operador → 422', method: 'POST', path: 'conceptos', body: DANADO, headers: { Operador: 'Ana%E0%A4%A' }, status: 422, answer: { success: false, message: 'El encabezado Operador tiene una codificación %XX inválida.' }, stored: [] },
  { name: 'invalid JSON → 422', method: 'POST', path: 'conceptos', body: '{"codigo":', status: 422, answer: { success: false, message: 'El cuerpo de la solicitud debe ser JSON válido.' }, stored: [] },
  { name: 'missing and wrong fields are named → 422', method: 'POST', path: 'conceptos', body: { codigo: 'a b', activo: 'si', color: 'rojo' }, status: 422, answer: { success: false, message: 'Cuerpo inválido: descripcion: es obligatorio; color: campo desconocido; codigo: debe ser un código de 1 a 40 letras, dígitos, _ . o -; activo: debe ser true o false.' }, stored: [] },
  { name: 'unknown reason → 404', method: 'PUT', path: 'conceptos/NADA', body: { activo: false }, status: 404, answer: { success: false, message: 'No existe el concepto NADA.' }, stored: [] },
  { name: 'an empty change → 422', setup: create, method: 'PUT', path: 'conceptos/DANADO', body: {}, status: 422, answer: { success: false, message: 'Cuerpo inválido: cuerpo: debe incluir al menos un campo.' }, stored: [DANADO] },
  { name: 'an existing code → 422', setup: create, method: 'POST', path: 'conceptos', body: DANADO, status: 422, answer: { success: false, message: 'Ya existe el concepto DANADO; use PUT /api/v1/operador/conceptos/DANADO para cambiarlo.' }, stored: [DANADO] },
  { name: 'create → 201 with the reason', method: 'POST', path: 'conceptos', body: { codigo: 'DANADO', idProveedor: '7', descripcion: 'Producto dañado' }, status: 201, answer: DANADO, stored: [DANADO] },
  { name: 'create without supplier id, inactive', method: 'POST', path: 'conceptos', body: { codigo: 'X1', descripcion: 'Otro', activo: false }, status: 201, answer: { codigo: 'X1', idProveedor: null, descripcion: 'Otro', activo: false }, stored: [{ codigo: 'X1', idProveedor: null, descripcion: 'Otro', activo: false }] },
  { name: 'a change that renames the code → 422, nothing written', setup: create, method: 'PUT', path: 'conceptos/DANADO', body: { ...DANADO, codigo: 'ROTO' }, status: 422, answer: { success: false, message: 'Los códigos de concepto no se pueden cambiar: la ruta es de DANADO y el cuerpo dice ROTO. Cree un concepto nuevo y desactive este.' }, stored: [DANADO] },
  { name: 'the representation GET answers, sent back with a change → 200', setup: create, method: 'PUT', path: 'conceptos/DANADO', body: { ...DANADO, activo: false }, status: 200, answer: { ...DANADO, activo: false }, stored: [{ ...DANADO, activo: false }] },
  { name: 'change → 200 with the new version', setup: create, method: 'PUT', path: 'conceptos/DANADO', body: { descripcion: 'Dañado en ruta', activo: false, idProveedor: null }, status: 200, answer: { codigo: 'DANADO', idProveedor: null, descripcion: 'Dañado en ruta', activo: false }, stored: [{ codigo: 'DANADO', idProveedor: null, descripcion: 'Dañado en ruta', activo: false }] },
  { name: 'a read needs no Operador header', setup: create, method: 'GET', path: 'conceptos', headers: { Operador: '' }, status: 200, answer: [DANADO], stored: [DANADO] },
]

for (const scenario of scenarios) {
  test(`reasons: ${scenario.name}`, () =>
    withService({}, async (service) => {
      await scenario.setup?.(service)
      const { status, body } = await operator(service, scenario.method, scenario.path, scenario.body, scenario.headers)
      assert.equal(status, scenario.status, JSON.stringify(body))
      assert.deepEqual(body, scenario.answer)
      if (scenario.stored) assert.deepEqual((await operator(service, 'GET', 'conceptos')).body, scenario.stored)
    }))
}

test('reasons: the operator key never opens the client API', () =>
  withService({}, async (service) => {
    const response = await service.fetch('/api/v1/manifiestos/1/estado', { headers: { ApiKey: OPERATOR_KEY } })
    assert.equal(response.status, 401)
  }))

test('reasons: every change is audited with who, when, before and after', () =>
  withService({}, async (service) => {
    await operator(service, 'POST', 'conceptos', { codigo: 'DANADO', descripcion: 'Producto dañado' })
    service.clock.advance(60_000)
    await operator(service, 'PUT', 'conceptos/DANADO', { activo: false })
    const rows = all(service.db, service.db.query.selectFrom('audit_log').selectAll().orderBy('id'))
    assert.deepEqual(
      rows.map((row) => ({ at: row.at, actor: row.actor, action: row.action, subject: `${row.subject_type}:${row.subject_id}`, before: row.before && JSON.parse(row.before), after: JSON.parse(row.after!) })),
      [
        { at: '2026-11-22T16:00:00.000Z', actor: OPERATOR, action: 'concepto.creado', subject: 'concepto:DANADO', before: null, after: { codigo: 'DANADO', idProveedor: null, descripcion: 'Producto dañado', activo: true } },
        { at: '2026-11-22T16:01:00.000Z', actor: OPERATOR, action: 'concepto.modificado', subject: 'concepto:DANADO', before: { codigo: 'DANADO', idProveedor: null, descripcion: 'Producto dañado', activo: true }, after: { codigo: 'DANADO', idProveedor: null, descripcion: 'Producto dañado', activo: false } },
      ],
    )
  }))
