import assert from 'node:assert/strict'
import { mkdtempSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { closeDatabase, openDatabase, type Database } from '../../src/db/database.ts'
import { QUIET_MS, QuietCheckpoints, SAFETY_NET_PAGES, type Timers } from '../../src/db/quiet-checkpoints.ts'

/** Timers the test fires by hand: what is pending, and after how long it would run. */
function handTimers() {
  const pending = new Map<() => void, number>()
  const timers: Timers = {
    set: (run, ms) => {
      pending.set(run, ms)
      return run
    },
    clear: (timer) => void pending.delete(timer as () => void),
  }
  const fire = () => {
    const runs = [...pending.keys()]
    pending.clear()
    for (const run of runs) run()
  }
  return { timers, pending, fire }
}

function scratchDatabase(): Database {
  const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'manifiesto-wal-')), 'm.db'))
  db.sqlite.exec('CREATE TABLE scratch (data BLOB NOT NULL)')
  return db
}

/** One transaction of ~3,000 pages: as a 5,000-invoice batch writes. */
function writeBatchSized(db: Database): void {
  const insert = db.sqlite.prepare('INSERT INTO scratch (data) VALUES (?)')
  db.sqlite.transaction(() => {
    for (let i = 0; i < 3_000; i++) insert.run(Buffer.alloc(4_000, i % 251))
  })()
}

const fileBytes = (db: Database) => statSync(db.path).size
const TWELVE_MB = 12_000_000

test('WAL: by default the commit of a batch-sized transaction copies it into the database file (what the service avoids)', () => {
  const db = scratchDatabase()
  try {
    writeBatchSized(db)
    assert.ok(fileBytes(db) > TWELVE_MB, `the commit checkpointed: ${fileBytes(db)} bytes`)
  } finally {
    closeDatabase(db)
  }
})

test('WAL: the service copies it into the database file only once it has been quiet for a moment', () => {
  const db = scratchDatabase()
  const { timers, pending, fire } = handTimers()
  try {
    const checkpoints = new QuietCheckpoints(db, (error) => assert.fail(String(error)), timers)
    assert.equal(db.sqlite.pragma('wal_autocheckpoint', { simple: true }), SAFETY_NET_PAGES)

    checkpoints.begin()
    writeBatchSized(db)
    const before = fileBytes(db)
    assert.ok(before < TWELVE_MB, `the commit did not checkpoint: ${before} bytes`)
    assert.equal(db.sqlite.prepare('SELECT count(*) FROM scratch').pluck().get(), 3_000, 'the rows are there, read from the WAL')
    assert.equal(pending.size, 0, 'nothing is scheduled while a request is in flight')

    checkpoints.end()
    assert.deepEqual([...pending.values()], [QUIET_MS])
    checkpoints.begin()
    assert.equal(pending.size, 0, 'a request arriving in the quiet wait cancels it')
    checkpoints.begin()
    checkpoints.end()
    assert.equal(pending.size, 0, 'one request of two still in flight: not quiet yet')
    checkpoints.end()
    assert.equal(pending.size, 1)

    fire()
    assert.ok(fileBytes(db) > TWELVE_MB, `the quiet checkpoint copied the WAL: ${fileBytes(db)} bytes`)
  } finally {
    closeDatabase(db)
  }
})

test('WAL: a quiet checkpoint after the database closed (the service stopping) does nothing', () => {
  const db = scratchDatabase()
  const { timers, fire } = handTimers()
  const checkpoints = new QuietCheckpoints(db, (error) => assert.fail(String(error)), timers)
  checkpoints.whenQuiet()
  closeDatabase(db)
  assert.doesNotThrow(fire)
})
