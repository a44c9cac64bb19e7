import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { test } from 'node:test'
import { ManualClock } from '../../src/core/clock.ts'
import { loadConfig } from '../../src/config/config.ts'
import { createLogger } from '../../src/logging/logger.ts'

function folder(): string {
  return mkdtempSync(join(tmpdir(), 'manifiesto-log-'))
}

const quiet = () => new Writable({ write: (_chunk, _encoding, done) => done() })

function linesOf(file: string): Array<Record<string, unknown>> {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}

test('log file: one file per Honduras day — at the first line of a new day the old one takes its date and a new one begins', () => {
  const dir = folder()
  const file = join(dir, 'manifiesto.log')
  const clock = new ManualClock('2026-11-22T16:00:00Z') // 10:00 in Honduras
  const log = createLogger({ level: 'info', file, keepDays: 30 }, { clock, stdout: quiet() })
  log.info('uno')
  clock.set('2026-11-23T05:59:59.999Z') // 23:59:59.999 of the 22nd in Honduras: still the same day
  log.info('dos')
  clock.set('2026-11-23T06:00:00Z') // midnight in Honduras
  log.info('tres')
  assert.deepEqual(readdirSync(dir).sort(), ['manifiesto-2026-11-22.log', 'manifiesto.log'])
  assert.deepEqual(
    linesOf(join(dir, 'manifiesto-2026-11-22.log')).map((line) => [line.msg, line.time]),
    [
      ['uno', '2026-11-22T10:00:00.000-06:00'],
      ['dos', '2026-11-22T23:59:59.999-06:00'],
    ],
  )
  assert.deepEqual(
    linesOf(file).map((line) => [line.msg, line.time]),
    [['tres', '2026-11-23T00:00:00.000-06:00']],
  )
})

test('log file: files older than log.keepDays days are deleted, the others and unrelated files stay', () => {
  const dir = folder()
  const file = join(dir, 'manifiesto.log')
  for (const day of ['2026-10-20', '2026-10-21', '2026-10-22', '2026-11-01'])
    writeFileSync(join(dir, `manifiesto-${day}.log`), '{}\n')
  writeFileSync(join(dir, 'otro-2026-01-01.log'), 'de otro programa\n')
  const clock = new ManualClock('2026-11-22T16:00:00Z')
  const log = createLogger({ level: 'info', file, keepDays: 30 }, { clock, stdout: quiet() })
  log.info('hoy')
  // 30 days kept before today (22 November): 23 October on; 22 October and earlier go.
  assert.deepEqual(readdirSync(dir).sort(), ['manifiesto-2026-11-01.log', 'manifiesto.log', 'otro-2026-01-01.log'])
  clock.set('2026-12-02T16:00:00Z')
  log.info('diez días después')
  assert.deepEqual(readdirSync(dir).sort(), ['manifiesto-2026-11-22.log', 'manifiesto.log', 'otro-2026-01-01.log'])
})

test('log file: at start, a file last written on an earlier day is first renamed after that day', () => {
  const dir = folder()
  const file = join(dir, 'manifiesto.log')
  writeFileSync(file, '{"msg":"de ayer"}\n')
  const yesterday = new Date('2026-11-21T20:00:00Z') // 14:00 on the 21st in Honduras
  utimesSync(file, yesterday, yesterday)
  const log = createLogger(
    { level: 'info', file, keepDays: 30 },
    { clock: new ManualClock('2026-11-22T16:00:00Z'), stdout: quiet() },
  )
  log.info('de hoy')
  assert.deepEqual(readFileSync(join(dir, 'manifiesto-2026-11-21.log'), 'utf8'), '{"msg":"de ayer"}\n')
  assert.deepEqual(
    linesOf(file).map((line) => line.msg),
    ['de hoy'],
  )
})

test('log file: a file of today is appended to at start', () => {
  const dir = folder()
  const file = join(dir, 'manifiesto.log')
  const clock = new ManualClock('2026-11-22T16:00:00Z')
  createLogger({ level: 'info', file, keepDays: 30 }, { clock, stdout: quiet() }).info('antes')
  utimesSync(file, new Date('2026-11-22T15:00:00Z'), new Date('2026-11-22T15:00:00Z'))
  createLogger({ level: 'info', file, keepDays: 30 }, { clock, stdout: quiet() }).info('después')
  assert.deepEqual(readdirSync(dir), ['manifiesto.log'])
  assert.deepEqual(
    linesOf(file).map((line) => line.msg),
    ['antes', 'después'],
  )
})

test('log file: the configuration refuses a log.file that is the database or its -wal', () => {
  const dir = folder()
  for (const suffix of ['', '-wal']) {
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ database: { path: 'data/m.db' }, log: { file: `data/m.db${suffix}` } }),
    )
    assert.throws(() => loadConfig({ cwd: dir, env: {} }), {
      name: 'ConfigError',
      message: `${join(dir, 'config.json')}: «log.file» no puede ser la base de datos ni sus archivos -wal/-shm (${join(dir, 'data', `m.db${suffix}`)})`,
    })
  }
  assert.equal(existsSync(join(dir, 'data')), false)
})
