import assert from 'node:assert/strict'
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { tarGz, zip, type ArchiveEntry } from '../../build/archive.ts'

const MTIME = new Date('2026-11-22T16:00:00Z')
const ENTRIES: ArchiveEntry[] = [
  { path: 'manifiesto-9.9.9/manifiesto', data: Buffer.from('#!/bin/sh\necho hola\n'), executable: true },
  { path: 'manifiesto-9.9.9/config.example.json', data: Buffer.from('{"server":{}}\n'), executable: false },
  // 513 bytes: one byte past a tar block, so the padding is exercised.
  {
    path: 'manifiesto-9.9.9/docs/administracion.md',
    data: Buffer.from(`# Guía\n${'ñ'.repeat(253)}`),
    executable: false,
  },
]

/** Folders first, then the entries in order: programs 755, the rest 644. */
const LISTING = [
  'drwxr-xr-x manifiesto-9.9.9/',
  'drwxr-xr-x manifiesto-9.9.9/docs/',
  '-rwxr-xr-x manifiesto-9.9.9/manifiesto',
  '-rw-r--r-- manifiesto-9.9.9/config.example.json',
  '-rw-r--r-- manifiesto-9.9.9/docs/administracion.md',
]

/** `ls -l`-style listing lines of the system's tar or zipinfo: mode and name. */
function modesAndNames(listing: string): string[] {
  return listing
    .trim()
    .split('\n')
    .map((line) => line.split(/\s+/))
    .map((fields) => `${fields[0]} ${fields[fields.length - 1]}`)
}

function hasCommand(command: string): boolean {
  return (spawnSync(command, ['-h'], { stdio: 'ignore' }).error as NodeJS.ErrnoException | undefined)?.code !== 'ENOENT'
}

test('archive: the same entries and time give the same bytes (tar.gz and zip)', () => {
  assert.ok(tarGz(ENTRIES, MTIME).equals(tarGz(ENTRIES, MTIME)))
  assert.ok(zip(ENTRIES, MTIME).equals(zip(ENTRIES, MTIME)))
  assert.ok(
    !tarGz(ENTRIES, MTIME).equals(tarGz(ENTRIES, new Date(MTIME.getTime() + 2000))),
    'the time is in the archive',
  )
})

test("archive: the zip does not depend on the build machine's time zone", () => {
  const zone = process.env.TZ
  try {
    process.env.TZ = 'UTC'
    const inUtc = zip(ENTRIES, MTIME)
    process.env.TZ = 'America/Tegucigalpa'
    assert.ok(zip(ENTRIES, MTIME).equals(inUtc))
  } finally {
    if (zone === undefined) delete process.env.TZ
    else process.env.TZ = zone
  }
})

test('archive: GNU tar lists folders and programs as 755, the rest as 644, owned by root, and extracts the same bytes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'manifiesto-archive-'))
  const file = join(dir, 'a.tar.gz')
  writeFileSync(file, tarGz(ENTRIES, MTIME))
  const listing = execFileSync('tar', ['-tvzf', file, '--utc'], { encoding: 'utf8' })
  assert.deepEqual(modesAndNames(listing), LISTING)
  assert.match(listing.split('\n')[0]!, /root\/root .* 2026-11-22 16:00 /)
  execFileSync('tar', ['-xzf', file, '-C', dir])
  for (const entry of ENTRIES) assert.ok(readFileSync(join(dir, entry.path)).equals(entry.data), entry.path)
  assert.equal(statSync(join(dir, 'manifiesto-9.9.9/manifiesto')).mode & 0o777, 0o755)
})

test(
  'archive: zipinfo shows Unix modes 755/644 and unzip extracts the same bytes',
  { skip: hasCommand('unzip') ? false : 'unzip is not installed (apt-get install unzip)' },
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'manifiesto-archive-'))
    const file = join(dir, 'a.zip')
    writeFileSync(file, zip(ENTRIES, MTIME))
    execFileSync('unzip', ['-tq', file])
    // zipinfo's header and footer lines are not entries: keep the lines that start with a mode.
    const listing = execFileSync('unzip', ['-Z', '-s', file], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => /^[-d][-rwx]{9} /.test(line))
      .join('\n')
    assert.deepEqual(modesAndNames(listing), LISTING)
    // The zip's time is the UTC time (a zip stores no zone), whatever the build machine's zone.
    assert.match(listing.split('\n')[0]!, / 26-Nov-22 16:00 /)
    execFileSync('unzip', ['-q', file, '-d', dir])
    for (const entry of ENTRIES) assert.ok(readFileSync(join(dir, entry.path)).equals(entry.data), entry.path)
    assert.equal(statSync(join(dir, 'manifiesto-9.9.9/manifiesto')).mode & 0o777, 0o755)
  },
)
