import assert from 'node:assert/strict'
import { test } from 'node:test'
import { all } from '../../src/db/database.ts'
import { operator, OPERATOR } from '../support/operator.ts'
import { holds, nothingWritten, refusal, testScenarios } from '../support/scenarios.ts'
import { API_KEY, OPERATOR_KEY, withService, type TestService } from '../support/service.ts'

const DANADO = { codigo: 'DANADO', idProveedor: '7', descripcion: 'Producto dañado', activo: true }
const create = (service: TestService) =>
  operator(service, 'POST', 'conceptos', { codigo: 'DANADO', idProveedor: '7', descripcion: 'Producto dañado' })
const noOperatorKey = { OperatorKey: null }
/** The reasons stored, as the list shows them. */
const stored = (expected: unknown[]) =>
  holds('the reasons stored', async (service) => (await operator(service, 'GET', 'conceptos')).body, expected)
const refused = (expected: unknown[]) => [nothingWritten(), stored(expected)]

testScenarios(
  'reasons',
  [
    {
      name: 'neither a session nor an OperatorKey → 401',
      request: { path: 'conceptos', headers: noOperatorKey },
      status: 401,
      body: refusal('Inicie sesión en la consola, o (una integración) envíe la clave en el encabezado OperatorKey.'),
    },
    {
      name: "the client's ApiKey sent as OperatorKey → 401",
      request: { path: 'conceptos', headers: { OperatorKey: API_KEY } },
      status: 401,
      body: refusal('OperatorKey inválido.'),
    },
    {
      name: 'only an ApiKey header → 401',
      request: { path: 'conceptos', headers: { ...noOperatorKey, ApiKey: API_KEY } },
      status: 401,
      body: refusal('Inicie sesión en la consola, o (una integración) envíe la clave en el encabezado OperatorKey.'),
    },
    {
      name: 'a change without the Operador header → 422, nothing written',
      request: { method: 'POST', path: 'conceptos', body: DANADO, headers: { Operador: '' } },
      status: 422,
      body: refusal(
        'Falta el encabezado Operador: el nombre de la persona que hace el cambio (codificado con %XX si no es ASCII).',
      ),
      database: refused([]),
    },
    {
      name: 'a bad percent-encoding in Operador → 422',
      request: { method: 'POST', path: 'conceptos', body: DANADO, headers: { Operador: 'Ana%E0%A4%A' } },
      status: 422,
      body: refusal('El encabezado Operador tiene una codificación %XX inválida.'),
      database: refused([]),
    },
    {
      name: 'invalid JSON → 422',
      request: { method: 'POST', path: 'conceptos', body: '{"codigo":' },
      status: 422,
      body: refusal('El cuerpo de la solicitud debe ser JSON válido.'),
      database: refused([]),
    },
    {
      name: 'missing and wrong fields are named → 422',
      request: { method: 'POST', path: 'conceptos', body: { codigo: 'a b', activo: 'si', color: 'rojo' } },
      status: 422,
      body: refusal(
        'Cuerpo inválido: descripcion: es obligatorio; color: campo desconocido; codigo: debe ser un código de 1 a 40 letras, dígitos, _ . o -; activo: debe ser true o false.',
      ),
      database: refused([]),
    },
    {
      name: 'an empty change → 422',
      setup: create,
      request: { method: 'PUT', path: 'conceptos/DANADO', body: {} },
      status: 422,
      body: refusal('Cuerpo inválido: cuerpo: debe incluir al menos un campo.'),
      database: refused([DANADO]),
    },
    {
      name: 'a change that renames the code → 422, nothing written',
      setup: create,
      request: { method: 'PUT', path: 'conceptos/DANADO', body: { ...DANADO, codigo: 'ROTO' } },
      status: 422,
      body: refusal(
        'Los códigos de concepto no se pueden cambiar: la ruta es de DANADO y el cuerpo dice ROTO. Cree un concepto nuevo y desactive este.',
      ),
      database: refused([DANADO]),
    },
    {
      name: 'unknown reason → 404',
      request: { method: 'PUT', path: 'conceptos/NADA', body: { activo: false } },
      status: 404,
      body: refusal('No existe el concepto NADA.'),
      database: refused([]),
    },
    {
      name: 'an existing code → 422',
      setup: create,
      request: { method: 'POST', path: 'conceptos', body: DANADO },
      status: 422,
      body: refusal('Ya existe el concepto DANADO; use PUT /api/v1/operador/conceptos/DANADO para cambiarlo.'),
      database: refused([DANADO]),
    },
    {
      name: 'create → 201 with the reason',
      request: {
        method: 'POST',
        path: 'conceptos',
        body: { codigo: 'DANADO', idProveedor: '7', descripcion: 'Producto dañado' },
      },
      status: 201,
      body: DANADO,
      database: stored([DANADO]),
    },
    {
      name: 'create without supplier id, inactive',
      request: { method: 'POST', path: 'conceptos', body: { codigo: 'X1', descripcion: 'Otro', activo: false } },
      status: 201,
      body: { codigo: 'X1', idProveedor: null, descripcion: 'Otro', activo: false },
      database: stored([{ codigo: 'X1', idProveedor: null, descripcion: 'Otro', activo: false }]),
    },
    {
      name: 'the representation GET answers, sent back with a change → 200',
      setup: create,
      request: { method: 'PUT', path: 'conceptos/DANADO', body: { ...DANADO, activo: false } },
      status: 200,
      body: { ...DANADO, activo: false },
      database: stored([{ ...DANADO, activo: false }]),
    },
    {
      name: 'change → 200 with the new version',
      setup: create,
      request: {
        method: 'PUT',
        path: 'conceptos/DANADO',
        body: { descripcion: 'Dañado en ruta', activo: false, idProveedor: null },
      },
      status: 200,
      body: { codigo: 'DANADO', idProveedor: null, descripcion: 'Dañado en ruta', activo: false },
      database: stored([{ codigo: 'DANADO', idProveedor: null, descripcion: 'Dañado en ruta', activo: false }]),
    },
    {
      name: 'a read needs no Operador header',
      setup: create,
      request: { path: 'conceptos', headers: { Operador: '' } },
      status: 200,
      body: [DANADO],
      database: stored([DANADO]),
    },
  ],
  { as: 'operator' },
)

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
      rows.map((row) => ({
        at: row.at,
        actor: row.actor,
        action: row.action,
        subject: `${row.subject_type}:${row.subject_id}`,
        before: row.before && JSON.parse(row.before),
        after: JSON.parse(row.after!),
      })),
      [
        {
          at: '2026-11-22T16:00:00.000Z',
          actor: OPERATOR,
          action: 'concepto.creado',
          subject: 'concepto:DANADO',
          before: null,
          after: { codigo: 'DANADO', idProveedor: null, descripcion: 'Producto dañado', activo: true },
        },
        {
          at: '2026-11-22T16:01:00.000Z',
          actor: OPERATOR,
          action: 'concepto.modificado',
          subject: 'concepto:DANADO',
          before: { codigo: 'DANADO', idProveedor: null, descripcion: 'Producto dañado', activo: true },
          after: { codigo: 'DANADO', idProveedor: null, descripcion: 'Producto dañado', activo: false },
        },
      ],
    )
  }))
