import assert from 'node:assert/strict'
import { renameSync, statSync } from 'node:fs'
import { test } from 'node:test'
import { VERSION } from '../../src/core/version.ts'
import { createAccount } from '../support/accounts.ts'
import { exampleBatch, postBatch } from '../support/batches.ts'
import { insertBatchRow } from '../support/fixtures.ts'
import { operator, registerReturn, seedReturns } from '../support/operator.ts'
import { containing, refusal, testScenarios } from '../support/scenarios.ts'
import { withService } from '../support/service.ts'

const GB = 1024 ** 3
const plentyOfDisk = () => 50 * GB

/** Who asks for the status, and what they get: unauthenticated → refused → allowed. */
const ANSWERED = containing({ servicio: containing({ version: VERSION }) })

testScenarios(
  'status',
  [
    {
      name: 'no key, no session → 401',
      request: { path: 'estado' },
      status: 401,
      body: refusal('Inicie sesión en la consola, o (una integración) envíe la clave en el encabezado OperatorKey.'),
    },
    {
      name: "the client's ApiKey → 401",
      request: { path: 'estado', as: 'client' },
      status: 401,
      body: refusal('Inicie sesión en la consola, o (una integración) envíe la clave en el encabezado OperatorKey.'),
    },
    {
      name: 'an operador → 403 naming who may',
      setup: (service) => createAccount(service, 'ana', 'operador'),
      request: { path: 'estado', as: { usuario: 'ana' } },
      status: 403,
      body: refusal(
        'Su rol (operador) no permite consultar el estado del servicio; pídaselo a un supervisor o el administrador.',
      ),
    },
    {
      name: 'a supervisor → 200',
      setup: (service) => createAccount(service, 'sofia', 'supervisor', ['OAC']),
      request: { path: 'estado', as: { usuario: 'sofia' } },
      status: 200,
      body: ANSWERED,
    },
    {
      name: 'an admin → 200',
      setup: (service) => createAccount(service, 'admin', 'admin'),
      request: { path: 'estado', as: { usuario: 'admin' } },
      status: 200,
      body: ANSWERED,
    },
    { name: 'the OperatorKey → 200', request: { path: 'estado', as: 'operator' }, status: 200, body: ANSWERED },
  ],
  { service: { readFreeDisk: plentyOfDisk } },
)

test('status: a fresh service — nothing received, nothing pending, no backup yet, the next one due now', () =>
  withService({ readFreeDisk: plentyOfDisk }, async (service) => {
    service.clock.advance(90_000)
    const { status, body } = await operator(service, 'GET', 'estado')
    assert.equal(status, 200)
    assert.deepEqual(body, {
      servicio: {
        version: VERSION,
        iniciado_en: '2026-11-22 10:00:00',
        activo_segundos: 90,
        hora_servidor: '2026-11-22T10:01:30.000-06:00',
        contrato_cliente: 'v1',
      },
      base_de_datos: {
        ruta: service.config.database.path,
        tamano_bytes: statSync(service.config.database.path).size,
        wal_bytes: statSync(`${service.config.database.path}-wal`).size,
        disco_libre_bytes: 50 * GB,
        disco_bajo: false,
      },
      lotes: { ultimo: null, hoy: 0, fallidos_hoy: 0 },
      pendientes: { conflictos: 0, devoluciones: 0, reemisiones: 0 },
      copias: {
        automaticas: true,
        carpeta: service.config.backup.dir,
        disco_libre_bytes: 50 * GB,
        disco_bajo: false,
        ultima: null,
        proxima: '2026-11-22 10:01:30',
        fuera_del_servidor: null,
      },
      alertas: { webhook: false, min_disco_libre_mb: 1024, activas: [] },
      errores_internos: { ultimas_24_horas: 0, recientes: [] },
    })
  }))

test("status: the last batch, today's batches and failed ones, what waits for a decision, the last backup and the next", () =>
  withService({ readFreeDisk: (folder) => (folder.endsWith('backups') ? 20 * GB : 30 * GB) }, async (service) => {
    // Yesterday's batch is not today's; a failed batch of today counts in both.
    const yesterday = insertBatchRow(service.db, 'lote-de-ayer')
    service.db.sqlite
      .prepare("UPDATE batches SET received_at = '2026-11-21T16:00:00.000Z', received_date = '2026-11-21' WHERE id = ?")
      .run(yesterday)
    const failed = insertBatchRow(service.db, 'lote-fallido')
    service.db.sqlite
      .prepare("UPDATE batches SET estado = 'failed', received_at = '2026-11-22T15:00:00.000Z' WHERE id = ?")
      .run(failed)
    await seedReturns(service)
    assert.equal((await registerReturn(service, [{ numeroLinea: 2, cajas: 1 }])).status, 201)
    service.clock.advance(60_000)
    const changed = exampleBatch().map((entry, i) => (i === 0 ? { ...entry, Cliente: 'OTRO NOMBRE' } : entry))
    const held = await postBatch(service, changed)
    assert.equal(held.body.resumen.pendientes_revision, 1)
    await service.monitor.tick()
    service.clock.advance(60_000)

    const { status, body } = await operator(service, 'GET', 'estado')
    assert.equal(status, 200)
    const snapshot = `${service.config.backup.dir}/manifiesto-2026-11-22T10-01-00.db`
    assert.deepEqual(
      {
        lotes: body.lotes,
        pendientes: body.pendientes,
        copias: body.copias,
        disco: body.base_de_datos.disco_libre_bytes,
      },
      {
        lotes: {
          ultimo: { batch_uuid: held.body.batch_uuid, recibido_en: '2026-11-22 10:01:00', estado: 'processed' },
          hoy: 3,
          fallidos_hoy: 1,
        },
        pendientes: { conflictos: 1, devoluciones: 1, reemisiones: 0 },
        copias: {
          automaticas: true,
          carpeta: service.config.backup.dir,
          disco_libre_bytes: 20 * GB,
          disco_bajo: false,
          ultima: {
            hora: '2026-11-22 10:01:00',
            archivo: snapshot,
            tamano_bytes: statSync(snapshot).size,
            resultado: 'ok',
            error: null,
            duracion_segundos: 0,
          },
          proxima: '2026-11-23 10:01:00',
          fuera_del_servidor: null,
        },
        disco: 30 * GB,
      },
    )
  }))

test('status: after a restart the last backup is the newest file in the folder', () =>
  withService({ readFreeDisk: plentyOfDisk, config: { backup: { everyHours: 6 } } }, async (service) => {
    await service.monitor.tick()
    const first = `${service.config.backup.dir}/manifiesto-2026-11-22T10-00-00.db`
    // A new process knows no attempt: what the folder holds is what it reports.
    await withService(
      { readFreeDisk: plentyOfDisk, config: { backup: { dir: service.config.backup.dir, everyHours: 6 } } },
      async (restarted) => {
        restarted.clock.advance(3_600_000)
        const { body } = await operator(restarted, 'GET', 'estado')
        assert.deepEqual(body.copias.ultima, {
          hora: '2026-11-22 10:00:00',
          archivo: first,
          tamano_bytes: statSync(first).size,
          resultado: 'ok',
          error: null,
          duracion_segundos: null,
        })
        assert.equal(body.copias.proxima, '2026-11-22 16:00:00')
      },
    )
  }))

test('status: automatic backups off → automaticas false, no next one', () =>
  withService({ readFreeDisk: plentyOfDisk, config: { backup: { everyHours: 0 } } }, async (service) => {
    await service.monitor.tick()
    const { body } = await operator(service, 'GET', 'estado')
    assert.deepEqual([body.copias.automaticas, body.copias.ultima, body.copias.proxima], [false, null, null])
  }))

test('status: an internal error is counted and listed with its request id for 24 hours', () =>
  withService({ readFreeDisk: plentyOfDisk }, async (service) => {
    // The database file replaced under the service: a change is refused (503), logged and counted.
    renameSync(service.config.database.path, `${service.config.database.path}.movido`)
    const refused = await service.fetch('/api/v1/operador/conceptos', {
      method: 'POST',
      headers: { OperatorKey: 'clave-operador-de-prueba-91c2', Operador: 'Ana', 'Content-Type': 'application/json' },
      body: JSON.stringify({ codigo: 'X', descripcion: 'x' }),
    })
    assert.equal(refused.status, 503)
    const requestId = refused.headers.get('x-request-id')
    renameSync(`${service.config.database.path}.movido`, service.config.database.path)
    service.clock.advance(23 * 3_600_000)
    const { body } = await operator(service, 'GET', 'estado')
    assert.equal(body.errores_internos.ultimas_24_horas, 1)
    assert.deepEqual(body.errores_internos.recientes, [
      {
        hora: '2026-11-22 10:00:00',
        tipo: 'DatabaseFileGone',
        mensaje: body.errores_internos.recientes[0].mensaje,
        metodo: 'POST',
        ruta: '/api/v1/operador/conceptos',
        request_id: requestId,
      },
    ])
    assert.match(body.errores_internos.recientes[0].mensaje, /^Base de datos inutilizable: el archivo .* ya no existe/)
    service.clock.advance(3_600_000 + 60_000)
    const later = await operator(service, 'GET', 'estado')
    assert.deepEqual(later.body.errores_internos, { ultimas_24_horas: 0, recientes: [] })
  }))
