import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { DEFAULT_CONFIG } from '../../src/config/config.ts'

const UNIT = fileURLToPath(new URL('../../build/manifiesto.service', import.meta.url))
const EXECUTABLE = '/opt/manifiesto/manifiesto'
const MAX_EXPOSURE = 2.5

/** systemd's version (252 in Debian 12), or a reason to skip when systemd-analyze is not here. */
function systemdVersion(): number | string {
  const result = spawnSync('systemd-analyze', ['--version'], {
    encoding: 'utf8',
    timeout: 60_000,
    killSignal: 'SIGKILL',
  })
  if (result.error) return 'systemd-analyze is not installed (Debian: apt-get install systemd)'
  return Number(/^systemd (\d+)/.exec(result.stdout)?.[1] ?? 0)
}
const version = systemdVersion()
const skipVerify = typeof version === 'string' ? version : false
// `security --offline` (judging a unit file that is not installed) arrived in systemd 250.
const skipSecurity =
  typeof version === 'string'
    ? version
    : version < 250
      ? `systemd ${version} has no security --offline (needs 250)`
      : false

function analyze(...args: string[]): { code: number | null; output: string } {
  const result = spawnSync('systemd-analyze', args, { encoding: 'utf8', timeout: 60_000, killSignal: 'SIGKILL' })
  return { code: result.status, output: `${result.stdout}${result.stderr}`.trim() }
}

/** The unit's `Key=value` lines of one section, in order. */
function section(name: string): string[] {
  const lines = readFileSync(UNIT, 'utf8').split('\n')
  const start = lines.indexOf(`[${name}]`)
  assert.notEqual(start, -1, `[${name}] is in the unit`)
  const end = lines.findIndex((line, i) => i > start && line.startsWith('['))
  return lines.slice(start + 1, end === -1 ? undefined : end).filter((line) => /^[A-Za-z]+=/.test(line))
}

test('service unit: systemd owns the state, configuration and logs folders and filters system calls', () => {
  const service = section('Service')
  for (const line of [
    'StateDirectory=manifiesto',
    'ConfigurationDirectory=manifiesto',
    'LogsDirectory=manifiesto',
    'SystemCallFilter=@system-service',
  ]) {
    assert.ok(service.includes(line), line)
  }
})

test('service unit: a start that keeps failing fast is given up after a few tries ([Unit], where systemd reads it)', () => {
  const unit = section('Unit')
  assert.ok(unit.some((line) => /^StartLimitIntervalSec=\d+$/.test(line)))
  assert.ok(unit.some((line) => /^StartLimitBurst=[1-5]$/.test(line)))
})

test('service unit: its open-file limit holds server.maxConnections with room for the database, the logs and the backups', () => {
  const limit = Number(
    /^LimitNOFILE=(\d+)$/.exec(section('Service').find((line) => line.startsWith('LimitNOFILE=')) ?? '')?.[1],
  )
  // At rest the service holds ~30 descriptors besides its connections; a batch's worker and a backup add a few.
  assert.ok(limit >= DEFAULT_CONFIG.server.maxConnections + 256, `LimitNOFILE=${limit}`)
})

// verify exits 0 even for an unknown key or an unreadable value (it only warns), so the test
// requires it to say nothing at all, on a copy whose program exists (/bin/true: the real one is
// only on the server).
test('service unit: systemd-analyze verify has nothing to say about it', { skip: skipVerify }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'manifiesto-unit-'))
  const copy = join(dir, 'manifiesto.service')
  const text = readFileSync(UNIT, 'utf8')
  assert.match(text, new RegExp(`^ExecStart=${EXECUTABLE} `, 'm'))
  writeFileSync(copy, text.replace(`ExecStart=${EXECUTABLE} `, 'ExecStart=/bin/true '))
  assert.deepEqual(analyze('verify', copy), { code: 0, output: '' })
})

test(
  'service unit: on the unit itself, verify complains only that the executable is not installed here',
  { skip: skipVerify },
  () => {
    const { output } = analyze('verify', UNIT)
    for (const line of output.split('\n').filter((line) => line !== '')) {
      assert.match(line, new RegExp(`Command ${EXECUTABLE} is not executable`))
    }
  },
)

test(
  `service unit: systemd-analyze security --offline scores its exposure at ${MAX_EXPOSURE} or better`,
  { skip: skipSecurity },
  () => {
    const { output } = analyze('security', '--offline=true', '--no-pager', UNIT)
    const score = Number(/Overall exposure level for manifiesto\.service: (\d+(?:\.\d+)?)/.exec(output)?.[1])
    assert.ok(Number.isFinite(score), `no score in:\n${output}`)
    assert.ok(
      score <= MAX_EXPOSURE,
      `exposure ${score} > ${MAX_EXPOSURE}:\n${output
        .split('\n')
        .filter((line) => line.startsWith('✗'))
        .join('\n')}`,
    )
  },
)
