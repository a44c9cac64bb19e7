import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import Database from 'better-sqlite3'
import { pino } from 'pino'
import { backupDatabase, Snapshotter } from '../../src/backup/backup.service.ts'
import { closeDatabase, openDatabase } from '../../src/db/database.ts'
import { migrateDatabase } from '../../src/db/migrate.ts'
import { invoice, postBatch } from '../support/batches.ts'
import { runCli } from '../support/cli.ts'
import { withService } from '../support/service.ts'
import { DERIVED_VALUES } from '../../src/app/derived-values.ts'
import { invoicesInSnapshot } from '../support/snapshots.ts'

test('backup: a consistent single-file snapshot, no temporary file left', () =>
  withService({}, async (service) => {
    await postBatch(service, [invoice('F-1'), invoice('F-2')])
    const file = join(service.dir, 'copias', 'manual.db')
    const result = await backupDatabase(service, file)
    assert.equal(result.file, file)
    assert.equal(invoicesInSnapshot(file), 2)
    assert.deepEqual(readdirSync(join(service.dir, 'copias')), ['manual.db'], 'no -wal, -shm or temporary beside it')
    const copy = new Database(file, { readonly: true })
    assert.equal(copy.pragma('journal_mode', { simple: true }), 'delete')
    copy.close()
  }))

test('backup: automatic snapshots when due, named by local time, keeping the newest backup.keep', () =>
  withService({ config: { backup: { everyHours: 24, keep: 2 } } }, async (service) => {
    const snapshots = new Snapshotter(service.db, service.clock, service.config.backup, pino({ enabled: false }))
    const first = await snapshots.runIfDue()
    assert.equal(first?.file, join(service.config.backup.dir, 'manifiesto-2026-11-22T10-00-00.db'))
    service.clock.advance(23 * 3_600_000)
    assert.equal(await snapshots.runIfDue(), null, 'not due before 24 hours')
    for (let day = 0; day < 3; day++) {
      service.clock.advance(25 * 3_600_000)
      await postBatch(service, [invoice(`G-${day}`, `9060${day}`, {}, service.clock.now().toString().slice(0, 10))])
      assert.ok(await snapshots.runIfDue())
    }
    // 10:00 on the 22nd, then +23 h (not due), then +25 h three times: the 24th, 25th and 26th.
    assert.deepEqual(readdirSync(service.config.backup.dir).sort(), [
      'manifiesto-2026-11-25T11-00-00.db',
      'manifiesto-2026-11-26T12-00-00.db',
    ])
    assert.equal(invoicesInSnapshot(join(service.config.backup.dir, 'manifiesto-2026-11-26T12-00-00.db')), 3)
  }))

test('backup: everyHours 0 turns automatic snapshots off', () =>
  withService({ config: { backup: { everyHours: 0 } } }, async (service) => {
    assert.equal(
      await new Snapshotter(service.db, service.clock, service.config.backup, pino({ enabled: false })).runIfDue(),
      null,
    )
    assert.equal(existsSync(service.config.backup.dir), false)
  }))

test('backup: the backup command writes a snapshot that check verifies; check refuses a damaged file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'manifiesto-backup-'))
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({ database: { path: 'datos/m.db' }, backup: { everyHours: 0 } }),
  )
  const missing = await runCli(['backup', 'copia.db'], { cwd: dir })
  assert.equal(missing.code, 1, 'no database yet')
  const live = openDatabase(join(dir, 'datos', 'm.db'))
  migrateDatabase(live, DERIVED_VALUES)
  closeDatabase(live)
  const made = await runCli(['backup', 'copias/hoy.db'], { cwd: dir })
  assert.equal(made.code, 0, made.stderr)
  assert.match(made.stdout, /copia de seguridad creada: .*copias\/hoy\.db/)
  const checked = await runCli(['check', 'copias/hoy.db'], { cwd: dir })
  assert.equal(checked.code, 0, checked.stdout)
  assert.match(checked.stdout, /base de datos: .*copias\/hoy\.db\n.*\nintegridad: ok/)
  writeFileSync(join(dir, 'roto.db'), Buffer.alloc(8192, 7))
  const damaged = await runCli(['check', 'roto.db'], { cwd: dir })
  assert.equal(damaged.code, 1)
  assert.equal((await runCli(['backup'], { cwd: dir })).code, 2, 'backup needs a file name')
})
