import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import {
  chmodSync,
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { test, type TestContext } from 'node:test'
import type { CopyFile } from '../../src/backup/off-machine-copy.ts'
import { exampleBatch, invoice, postBatch } from '../support/batches.ts'
import { operator } from '../support/operator.ts'
import { withService, type TestService } from '../support/service.ts'
import { startWebhook, type TestWebhook } from '../support/webhook.ts'
import { invoicesInSnapshot } from '../support/snapshots.ts'

const GB = 1024 ** 3
const plentyOfDisk = () => 50 * GB
const HOUR = 3_600_000
const isRoot = process.getuid?.() === 0

/** A second folder of its own, outside the service's (a share mounted at /mnt/nas, say). */
function shareFolder(): string {
  return join(mkdtempSync(join(tmpdir(), 'manifiesto-nas-')), 'manifiesto')
}

/** Mounts a tmpfs at `folder` (root only); false, with the test skipped, when this machine cannot. */
function mountTmpfs(t: TestContext, folder: string, options: string): boolean {
  mkdirSync(folder, { recursive: true })
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'none', folder], { stdio: 'ignore' })
    return true
  } catch (error) {
    t.skip(`no se puede montar un tmpfs aquí: ${(error as Error).message.split('\n')[0]}`)
    return false
  }
}

function unmount(folder: string): void {
  try {
    execFileSync('umount', [folder], { stdio: 'ignore' })
  } catch {
    // Never mounted.
  }
}

async function status(service: TestService): Promise<Record<string, any>> {
  const { status: code, body } = await operator(service, 'GET', 'estado')
  assert.equal(code, 200)
  return body
}

/** What the second folder's failure looks like, for each way it can fail; none of them stops the local snapshot. */
interface Failing {
  name: string
  /** Makes the folder fail; false when this machine cannot (the test is then skipped). */
  prepare: (t: TestContext, folder: string, service: TestService) => Promise<boolean> | boolean
  error: RegExp
  /** Makes the folder work again. */
  repair: (folder: string) => void
  /** Whether the service must never have made the folder itself. */
  neverCreated?: boolean
}

const failing: Failing[] = [
  {
    name: 'missing (a share not mounted)',
    prepare: () => true,
    error: /^la carpeta .*manifiesto no existe: ¿el recurso compartido o el disco no está montado\?$/,
    repair: (folder) => mkdirSync(folder, { recursive: true }),
    neverCreated: true,
  },
  {
    name: 'unwritable (a read-only mount, or no permission)',
    prepare: (t, folder) => {
      if (!isRoot) {
        mkdirSync(folder)
        chmodSync(folder, 0o555)
        return true
      }
      return mountTmpfs(t, folder, 'ro,size=1m')
    },
    error: /^el servicio no puede escribir en .*manifiesto \((EROFS|EACCES)\)$/,
    repair: (folder) => {
      if (isRoot) unmount(folder)
      else chmodSync(folder, 0o755)
    },
  },
  {
    name: 'full (a disk with 64 KB left)',
    prepare: async (t, folder, service) => {
      // A database far larger than the space left there.
      await postBatch(
        service,
        Array.from({ length: 40 }, (_, i) => invoice(`F-${i}`, '905112')),
      )
      return mountTmpfs(t, folder, 'size=64k')
    },
    error: /^no queda espacio en .*manifiesto \(ENOSPC\)$/,
    repair: (folder) => unmount(folder),
  },
]

for (const scenario of failing) {
  test(`backup.copyTo ${scenario.name}: the local snapshot is made; the copy fails without leaving anything, is alerted once, shown in the status, and succeeds once the folder is back`, async (t) => {
    const folder = shareFolder()
    let hook: TestWebhook | undefined
    try {
      hook = await startWebhook()
      await withService(
        {
          readFreeDisk: plentyOfDisk,
          config: { backup: { everyHours: 24, keep: 3, copyTo: folder }, alerts: { webhookUrl: hook.url } },
        },
        async (service) => {
          if (!(await scenario.prepare(t, folder, service))) return
          await service.monitor.tick()
          const local = readdirSync(service.config.backup.dir)
          assert.deepEqual(
            local,
            ['manifiesto-2026-11-22T10-00-00.db'],
            'the local snapshot is made whatever the second folder does',
          )
          if (scenario.neverCreated)
            assert.equal(
              existsSync(folder),
              false,
              'a missing second folder is never made (it would fill the mount point on the server’s disk)',
            )
          else
            assert.deepEqual(
              readdirSync(folder).filter((name) => !name.startsWith('lost+found')),
              [],
              'no temporary file left there',
            )

          const failed = await status(service)
          assert.equal(failed.copias.ultima.resultado, 'ok')
          assert.deepEqual(
            {
              ...failed.copias.fuera_del_servidor,
              ultima: { ...failed.copias.fuera_del_servidor.ultima, error: 'mensaje' },
              disco_libre_bytes: 'medido',
            },
            {
              carpeta: folder,
              disco_libre_bytes: 'medido',
              ultima: {
                hora: '2026-11-22 10:00:00',
                archivo: join(folder, 'manifiesto-2026-11-22T10-00-00.db'),
                tamano_bytes: null,
                resultado: 'error',
                error: 'mensaje',
                duracion_segundos: 0,
              },
              mas_reciente: null,
              atrasada: false,
            },
          )
          assert.match(failed.copias.fuera_del_servidor.ultima.error, scenario.error)
          assert.deepEqual(failed.alertas.activas, ['copia_externa_fallida'])
          await hook!.settle(1)
          assert.equal(hook!.received.length, 1)
          assert.equal(hook!.received[0]!.kind, 'copia_externa_fallida')
          assert.match(
            String(hook!.received[0]!.message),
            /^La copia fuera del servidor falló: .*\. Revise backup\.copyTo \(.*\): que esté montada, que el servicio pueda escribir en ella y que tenga espacio\. La copia local de backup\.dir \(.*\) está bien; se reintenta cada 10 minutos\.$/,
          )

          // Ten minutes later, still failing: no second alert.
          service.clock.advance(10 * 60_000)
          await service.monitor.tick()
          await hook!.settle(2)
          assert.equal(hook!.received.length, 1, 'alerted once while it lasts')

          scenario.repair(folder)
          service.clock.advance(10 * 60_000)
          await service.monitor.tick()
          assert.deepEqual(
            readdirSync(folder).filter((name) => name.endsWith('.db') || name.endsWith('.tmp')),
            ['manifiesto-2026-11-22T10-00-00.db'],
            'the same snapshot, copied at the next round',
          )
          assert.equal(
            invoicesInSnapshot(join(folder, 'manifiesto-2026-11-22T10-00-00.db')),
            invoicesInSnapshot(join(service.config.backup.dir, 'manifiesto-2026-11-22T10-00-00.db')),
          )
          const fixed = await status(service)
          assert.deepEqual(
            [
              fixed.copias.fuera_del_servidor.ultima.resultado,
              fixed.copias.fuera_del_servidor.mas_reciente,
              fixed.alertas.activas,
            ],
            ['ok', '2026-11-22 10:00:00', []],
          )
        },
      )
    } finally {
      hook?.close()
      scenario.repair(folder)
      rmSync(join(folder, '..'), { recursive: true, force: true })
    }
  })
}

test('backup.copyTo: each snapshot is copied, checked and renamed there, and pruned to backup.keep like the local ones; everyHours 1 makes one an hour', async () => {
  const folder = shareFolder()
  mkdirSync(folder)
  try {
    await withService(
      { readFreeDisk: plentyOfDisk, config: { backup: { everyHours: 1, keep: 2, copyTo: folder } } },
      async (service) => {
        for (let hour = 0; hour < 3; hour++) {
          await postBatch(service, [invoice(`H-${hour}`, `90620${hour}`)])
          await service.monitor.tick()
          service.clock.advance(30 * 60_000)
          await service.monitor.tick()
          service.clock.advance(30 * 60_000)
        }
        const expected = ['manifiesto-2026-11-22T11-00-00.db', 'manifiesto-2026-11-22T12-00-00.db']
        assert.deepEqual(readdirSync(service.config.backup.dir).sort(), expected, 'one an hour, the newest two kept')
        assert.deepEqual(readdirSync(folder).sort(), expected, 'the same two off the machine, nothing else')
        assert.equal(invoicesInSnapshot(join(folder, expected[1]!)), 3)
        const body = await status(service)
        assert.deepEqual(
          {
            ...body.copias.fuera_del_servidor,
            disco_libre_bytes: typeof body.copias.fuera_del_servidor.disco_libre_bytes,
            ultima: {
              ...body.copias.fuera_del_servidor.ultima,
              duracion_segundos: typeof body.copias.fuera_del_servidor.ultima.duracion_segundos,
            },
          },
          {
            carpeta: folder,
            disco_libre_bytes: 'number',
            ultima: {
              hora: '2026-11-22 12:00:00',
              archivo: join(folder, expected[1]!),
              tamano_bytes: body.copias.ultima.tamano_bytes,
              resultado: 'ok',
              error: null,
              duracion_segundos: 'number',
            },
            mas_reciente: '2026-11-22 12:00:00',
            atrasada: false,
          },
        )
        assert.ok(
          service
            .logLines()
            .some((line) => line.msg === 'copia fuera del servidor creada' && line.file === join(folder, expected[1]!)),
        )
      },
    )
  } finally {
    rmSync(join(folder, '..'), { recursive: true, force: true })
  }
})

test('backup.copyTo: no copy there for more than twice the interval is alerted (copia_externa_atrasada), and clears when one arrives', async () => {
  const folder = shareFolder()
  const hook = await startWebhook()
  try {
    await withService(
      {
        readFreeDisk: plentyOfDisk,
        config: { backup: { everyHours: 6, copyTo: folder }, alerts: { webhookUrl: hook.url } },
      },
      async (service) => {
        await service.monitor.tick()
        assert.equal(
          (await status(service)).copias.fuera_del_servidor.atrasada,
          false,
          'not late yet: the service just started',
        )
        service.clock.advance(12 * HOUR + 60_000)
        await service.monitor.tick()
        const late = await status(service)
        assert.deepEqual(
          [late.copias.fuera_del_servidor.atrasada, late.alertas.activas.sort()],
          [true, ['copia_externa_atrasada', 'copia_externa_fallida']],
        )
        await hook.settle(2)
        assert.deepEqual(hook.received.map((alert) => alert.kind).sort(), [
          'copia_externa_atrasada',
          'copia_externa_fallida',
        ])
        assert.match(
          String(hook.received.find((alert) => alert.kind === 'copia_externa_atrasada')!.message),
          /^No hay una copia fuera del servidor de las últimas 12 horas en backup\.copyTo \(.*\): no hay ninguna\. Revise que la carpeta esté montada/,
        )
        mkdirSync(folder)
        service.clock.advance(10 * 60_000)
        await service.monitor.tick()
        const fresh = await status(service)
        assert.deepEqual([fresh.copias.fuera_del_servidor.atrasada, fresh.alertas.activas], [false, []])
      },
    )
  } finally {
    hook.close()
    rmSync(join(folder, '..'), { recursive: true, force: true })
  }
})

/** A copy that trickles 16 KB every `delayMs`: a share over a slow link. */
function slowCopy(delayMs: number): CopyFile {
  return async (from, to, signal) => {
    const trickle = new Transform({
      transform(chunk, _encoding, done) {
        setTimeout(() => done(null, chunk), delayMs)
      },
    })
    await pipeline(
      createReadStream(from, { highWaterMark: 16 * 1024 }),
      trickle,
      createWriteStream(to, { flags: 'wx' }),
      { signal },
    )
  }
}

test('backup.copyTo slow (a share over a slow link): batches and pings are answered within a second while the copy takes seconds', async () => {
  const folder = shareFolder()
  mkdirSync(folder)
  try {
    const config = { backup: { everyHours: 24, copyTo: folder }, rateLimits: { generalPerMinute: 100_000 } }
    await withService({ readFreeDisk: plentyOfDisk, copyFile: slowCopy(60), config }, async (service) => {
      await postBatch(
        service,
        Array.from({ length: 20 }, (_, i) => invoice(`S-${i}`, '905112')),
      )
      let done = false
      const started = performance.now()
      const round = service.monitor.tick().finally(() => (done = true))
      const waits: number[] = []
      let batch: { status: number; ms: number } | undefined
      while (!done) {
        const asked = performance.now()
        assert.equal((await service.fetch('/api/v1/ping')).status, 200)
        waits.push(performance.now() - asked)
        if (batch === undefined && performance.now() - started > 500) {
          const sent = performance.now()
          const answer = await postBatch(
            service,
            exampleBatch().map((entry) => ({
              ...entry,
              NumeroManifiesto: '905199',
              Nfactura: `${String(entry.Nfactura)}-L`,
            })),
          )
          batch = { status: answer.status, ms: performance.now() - sent }
        }
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      await round
      const took = performance.now() - started
      assert.ok(took > 1500, `the copy took ${Math.round(took)} ms: slow enough to mean something`)
      assert.ok(waits.length > 20, `${waits.length} pings while it ran`)
      assert.ok(Math.max(...waits) < 1000, `the longest ping waited ${Math.round(Math.max(...waits))} ms`)
      assert.ok(
        batch !== undefined && batch.status === 200 && batch.ms < 1000,
        `a batch sent meanwhile: ${JSON.stringify(batch)}`,
      )
      assert.equal((await status(service)).copias.fuera_del_servidor.ultima.resultado, 'ok')
      assert.deepEqual(readdirSync(folder), ['manifiesto-2026-11-22T10-00-00.db'])
    })
  } finally {
    rmSync(join(folder, '..'), { recursive: true, force: true })
  }
})

test('backup.copyTo slow: stopping the service stops the copy and leaves no temporary file there', async () => {
  const folder = shareFolder()
  mkdirSync(folder)
  try {
    await withService(
      { readFreeDisk: plentyOfDisk, copyFile: slowCopy(200), config: { backup: { everyHours: 24, copyTo: folder } } },
      async (service) => {
        const round = service.monitor.tick()
        for (let i = 0; i < 200 && !readdirSync(folder).some((name) => name.endsWith('.tmp')); i++)
          await new Promise((resolve) => setTimeout(resolve, 20))
        assert.ok(
          readdirSync(folder).some((name) => name.endsWith('.tmp')),
          'the copy is under way',
        )
        service.snapshots.stop()
        await round
        assert.deepEqual(readdirSync(folder), [])
        assert.equal(
          service.snapshots.offMachine?.lastAttempt()?.error,
          'se interrumpió: el servicio se detuvo durante la copia',
        )
      },
    )
  } finally {
    rmSync(join(folder, '..'), { recursive: true, force: true })
  }
})
