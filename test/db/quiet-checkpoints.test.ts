import assert from 'node:assert/strict'
import { once } from 'node:events'
import { mkdtempSync, statSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { closeDatabase, openDatabase, type Database } from '../../src/db/database.ts'
import {
  MAX_WAIT_MS,
  QUIET_MS,
  QuietCheckpoints,
  SAFETY_NET_PAGES,
  type Timers,
} from '../../src/db/quiet-checkpoints.ts'

/** Timers the test fires by hand, on a clock it moves: what is pending, and after how long it would run. */
function handTimers() {
  const pending = new Map<() => void, number>()
  const clock = { ms: 0 }
  const timers: Timers = {
    set: (run, ms) => {
      pending.set(run, ms)
      return run
    },
    clear: (timer) => void pending.delete(timer as () => void),
    now: () => clock.ms,
  }
  const fire = () => {
    const runs = [...pending.keys()]
    pending.clear()
    for (const run of runs) run()
  }
  return { timers, pending, fire, clock }
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

/**
 * A server wired as `serve` wires the real one: every request tracked. `/write` stores a
 * batch-sized transaction; `/hold` answers when the test releases it, `/write-and-hold` after
 * storing one; `/never` never answers (as a request whose client left mid-body); anything else at once.
 */
async function trackedServer(db: Database, checkpoints: QuietCheckpoints) {
  const held: Array<() => void> = []
  const requests: IncomingMessage[] = []
  const server: Server = createServer((request, response) => {
    checkpoints.track(request, response)
    requests.push(request)
    // A dropped connection aborts its requests: nothing to do here but let them close.
    request.on('error', () => {})
    if (request.url === '/write' || request.url === '/write-and-hold') writeBatchSized(db)
    if (request.url!.endsWith('hold')) held.push(() => response.end('ok'))
    else if (request.url !== '/never') response.end('ok')
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const close = () =>
    new Promise((resolve) => {
      // A test that failed midway may have left answers held: end them, drop the connections.
      for (const release of held) release()
      server.closeAllConnections()
      server.close(resolve)
    })
  return { server, url, held, requests, close }
}

/** A tracked server on a fresh database with hand-fired timers; everything closed afterwards. */
async function withTrackedService(
  run: (
    context: ReturnType<typeof handTimers> & {
      db: Database
      checkpoints: QuietCheckpoints
      service: Awaited<ReturnType<typeof trackedServer>>
    },
  ) => Promise<void>,
): Promise<void> {
  const db = scratchDatabase()
  const hand = handTimers()
  const checkpoints = new QuietCheckpoints(db, (error) => assert.fail(String(error)), hand.timers)
  const service = await trackedServer(db, checkpoints)
  try {
    await run({ ...hand, db, checkpoints, service })
  } finally {
    checkpoints.stop()
    await service.close()
    closeDatabase(db)
  }
}

test('WAL: by default the commit of a batch-sized transaction copies it into the database file (what the service avoids)', () => {
  const db = scratchDatabase()
  try {
    writeBatchSized(db)
    assert.ok(fileBytes(db) > TWELVE_MB, `the commit checkpointed: ${fileBytes(db)} bytes`)
  } finally {
    closeDatabase(db)
  }
})

test('WAL: the service copies it into the database file once it has been quiet a moment, never while a request is in flight', () =>
  withTrackedService(async ({ db, pending, fire, clock, service }) => {
    const request = async (path: string) => assert.equal(await (await fetch(`${service.url}${path}`)).text(), 'ok')
    assert.equal(db.sqlite.pragma('wal_autocheckpoint', { simple: true }), SAFETY_NET_PAGES)

    await request('/write')
    assert.ok(fileBytes(db) < TWELVE_MB, `the commit did not checkpoint: ${fileBytes(db)} bytes`)
    assert.equal(
      db.sqlite.prepare('SELECT count(*) FROM scratch').pluck().get(),
      3_000,
      'the rows are there, read from the WAL',
    )
    assert.deepEqual([...pending.values()], [QUIET_MS], 'the copy is due once the service has been quiet a moment')
    const first = [...pending.keys()][0]

    const holding = fetch(`${service.url}/hold`)
    while (service.held.length === 0) await new Promise((resolve) => setImmediate(resolve))
    assert.equal(pending.size, 0, 'a request arriving puts it off (a resend, the next batch)')
    service.held[0]!()
    await (await holding).text()
    await new Promise((resolve) => setImmediate(resolve))
    assert.deepEqual([...pending.values()], [QUIET_MS], 'due again once that request is over')
    assert.notEqual([...pending.keys()][0], first, 'a new quiet moment is waited for')

    clock.ms += MAX_WAIT_MS
    await request('/ping')
    assert.deepEqual(
      [...pending.values()],
      [0],
      'after waiting MAX_WAIT_MS, it runs as soon as no request is in flight',
    )
    fire()
    assert.ok(fileBytes(db) > TWELVE_MB, `then copied: ${fileBytes(db)} bytes`)

    await request('/ping')
    assert.deepEqual([...pending.values()], [QUIET_MS], 'the next copy waits for a quiet moment again')
  }))

test('WAL: a copy due while a request is in flight waits for it to end', () =>
  withTrackedService(async ({ db, pending, fire, checkpoints, service }) => {
    checkpoints.soon()
    // A timer already firing when the request arrived (clearing it came too late) runs during it.
    const run = [...pending.keys()][0]!
    const holding = fetch(`${service.url}/write-and-hold`)
    while (service.held.length === 0) await new Promise((resolve) => setImmediate(resolve))
    run()
    assert.ok(fileBytes(db) < TWELVE_MB, 'not copied while a request is in flight')
    service.held[0]!()
    await (await holding).text()
    await new Promise((resolve) => setImmediate(resolve))
    assert.equal(pending.size, 1)
    fire()
    assert.ok(fileBytes(db) > TWELVE_MB, `copied once it ended: ${fileBytes(db)} bytes`)
  }))

test('WAL: a connection that drops with answers still queued on it does not keep the copy off for good', () =>
  withTrackedService(async ({ db, pending, fire, service }) => {
    // Three requests in one write (pipelined): the second and third wait behind the held first;
    // the third is never answered, and a queued answer's own 'close' never comes once the connection drops.
    const socket = connect((service.server.address() as AddressInfo).port, '127.0.0.1')
    await once(socket, 'connect')
    socket.write(['/write-and-hold', '/a', '/never'].map((path) => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`).join(''))
    while (service.requests.length < 3) await new Promise((resolve) => setImmediate(resolve))
    const closed = service.requests.map((request) => new Promise((resolve) => request.once('close', resolve)))
    socket.destroy()
    await Promise.all(closed)
    // The held answer ends only after the connection is gone.
    service.held[0]!()
    await new Promise((resolve) => setImmediate(resolve))

    assert.equal(pending.size, 1, 'due once every request of the dropped connection is over')
    fire()
    assert.ok(fileBytes(db) > TWELVE_MB, `copied: ${fileBytes(db)} bytes`)
  }))

test('WAL: after the service stopped, nothing is scheduled and a late timer does nothing', () => {
  const db = scratchDatabase()
  const { timers, pending, fire } = handTimers()
  const checkpoints = new QuietCheckpoints(db, (error) => assert.fail(String(error)), timers)
  checkpoints.soon()
  const late = [...pending.keys()]
  checkpoints.stop()
  assert.equal(pending.size, 0)
  checkpoints.soon()
  assert.equal(pending.size, 0, 'stopped stays stopped')
  closeDatabase(db)
  for (const run of late) assert.doesNotThrow(run)
  assert.doesNotThrow(fire)
})
