import assert from 'node:assert/strict'
import { rmSync, writeFileSync } from 'node:fs'
import { test } from 'node:test'
import { operator } from '../support/operator.ts'
import { withService } from '../support/service.ts'
import { startWebhook } from '../support/webhook.ts'

const MB = 1024 * 1024

test('alerts: free disk under alerts.minFreeDiskMB at the database folder is alerted once, clears, and is alerted again when it falls anew', async () => {
  const webhook = await startWebhook()
  let databaseFree = 800 * MB
  try {
    await withService(
      {
        config: { alerts: { webhookUrl: webhook.url, minFreeDiskMB: 1024 }, backup: { everyHours: 0 } },
        readFreeDisk: (folder) => (folder.endsWith('backups') ? 5000 * MB : databaseFree),
      },
      async (service) => {
        await service.monitor.tick()
        await service.monitor.tick()
        await webhook.settle(1)
        const folder = service.dir
        assert.deepEqual(
          webhook.received.map(({ at: _at, ...alert }) => alert),
          [
            {
              service: 'manifiesto',
              version: webhook.received[0]!.version,
              level: 'error',
              kind: 'disco_base_de_datos',
              message: `Queda poco disco en la carpeta de la base de datos (${folder}): 800 MB libres, menos que alerts.minFreeDiskMB (1024 MB). Libere espacio o amplíe el disco: sin espacio, el servicio no puede guardar lotes ni devoluciones.`,
              carpeta: folder,
              libre_mb: 800,
              minimo_mb: 1024,
            },
          ],
        )
        const low = await operator(service, 'GET', 'estado')
        assert.deepEqual(
          [low.body.base_de_datos.disco_bajo, low.body.copias.disco_bajo, low.body.alertas.activas],
          [true, false, ['disco_base_de_datos']],
        )

        databaseFree = 2048 * MB
        await service.monitor.tick()
        const cleared = await operator(service, 'GET', 'estado')
        assert.deepEqual([cleared.body.base_de_datos.disco_bajo, cleared.body.alertas.activas], [false, []])
        assert.ok(
          service.logLines().some((line) => line.msg === 'condición resuelta' && line.kind === 'disco_base_de_datos'),
        )

        databaseFree = 100 * MB
        await service.monitor.tick()
        await webhook.settle(2)
        assert.deepEqual(
          webhook.received.map((alert) => [alert.kind, alert.libre_mb]),
          [
            ['disco_base_de_datos', 800],
            ['disco_base_de_datos', 100],
          ],
        )
      },
    )
  } finally {
    await webhook.close()
  }
})

test('alerts: free disk under the minimum at the backups folder is its own condition', async () => {
  const webhook = await startWebhook()
  try {
    await withService(
      {
        config: { alerts: { webhookUrl: webhook.url, minFreeDiskMB: 2000 }, backup: { everyHours: 0 } },
        readFreeDisk: (folder) => (folder.endsWith('backups') ? 1999 * MB : 2000 * MB),
      },
      async (service) => {
        await service.monitor.tick()
        await webhook.settle(1)
        assert.deepEqual(
          webhook.received.map((alert) => [alert.kind, alert.carpeta, alert.libre_mb]),
          [['disco_copias', service.config.backup.dir, 1999]],
        )
        assert.match(
          String(webhook.received[0]!.message),
          /^Queda poco disco en la carpeta de las copias de seguridad \(.*backups\): 1999 MB libres, menos que alerts\.minFreeDiskMB \(2000 MB\)\./,
        )
      },
    )
  } finally {
    await webhook.close()
  }
})

test('alerts: a disk that cannot be read changes nothing (no alert, null in the status)', () =>
  withService({ config: { backup: { everyHours: 0 } }, readFreeDisk: () => null }, async (service) => {
    await service.monitor.tick()
    const { body } = await operator(service, 'GET', 'estado')
    assert.deepEqual(
      [body.base_de_datos.disco_libre_bytes, body.base_de_datos.disco_bajo, body.alertas.activas],
      [null, false, []],
    )
  }))

test('alerts: a failed automatic backup is alerted once until a backup succeeds; the status shows the failure, then the success', async () => {
  const webhook = await startWebhook()
  try {
    await withService(
      { config: { alerts: { webhookUrl: webhook.url } }, readFreeDisk: () => 50_000 * MB },
      async (service) => {
        // A file where the backups folder should be: the snapshot cannot be written.
        writeFileSync(service.config.backup.dir, 'no es una carpeta')
        await service.monitor.tick()
        service.clock.advance(10 * 60_000)
        await service.monitor.tick()
        await webhook.settle(1)
        assert.equal(webhook.received.length, 1)
        const [alert] = webhook.received
        assert.deepEqual(
          [alert!.level, alert!.kind, alert!.carpeta],
          ['error', 'copia_fallida', service.config.backup.dir],
        )
        assert.match(
          String(alert!.message),
          /^La copia de seguridad automática falló: .*(EEXIST|ENOTDIR).*\. Revise la carpeta backup\.dir \(.*\): que exista, que el servicio pueda escribir en ella y que tenga espacio\. Se reintenta cada 10 minutos\.$/,
        )
        const failing = await operator(service, 'GET', 'estado')
        assert.deepEqual(
          { ...failing.body.copias.ultima, error: typeof failing.body.copias.ultima.error },
          {
            hora: '2026-11-22 10:10:00',
            archivo: `${service.config.backup.dir}/manifiesto-2026-11-22T10-10-00.db`,
            tamano_bytes: null,
            resultado: 'error',
            error: 'string',
            duracion_segundos: 0,
          },
        )
        assert.deepEqual(failing.body.alertas.activas, ['copia_fallida'])
        assert.equal(failing.body.errores_internos.ultimas_24_horas, 2)

        rmSync(service.config.backup.dir)
        service.clock.advance(10 * 60_000)
        await service.monitor.tick()
        const fixed = await operator(service, 'GET', 'estado')
        assert.deepEqual(
          [fixed.body.copias.ultima.resultado, fixed.body.copias.ultima.error, fixed.body.alertas.activas],
          ['ok', null, []],
        )
        await webhook.settle(2)
        assert.equal(webhook.received.length, 1, 'no alert when it clears')
      },
    )
  } finally {
    await webhook.close()
  }
})
