import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import Database from 'better-sqlite3'
import { EXAMPLE_BATCH } from '../support/batches.ts'
import { freePort } from '../support/cli.ts'
import { startServe, stop } from '../support/processes.ts'
import { API_KEY } from '../support/service.ts'

/** Honduras' date by the real clock the child process reads. */
const today = () => new Date(Date.now() - 6 * 3600_000).toISOString().slice(0, 10)

function batch(prefix: string, manifiesto: string) {
  return EXAMPLE_BATCH.map((invoice, i) => ({
    ...invoice,
    Nfactura: `${prefix}-${i + 1}`,
    NumeroManifiesto: manifiesto,
    FechaFactura: `${today()}T00:00:00.000Z`,
  }))
}

/**
 * Issue 10, defect 1: after a ping, an outside reader that opened and closed the database (the
 * sqlite3 tool, an administrator's viewer) deleted the live -wal: a batch acknowledged afterwards
 * was lost on kill -9. No descriptor of the database may be opened outside SQLite.
 */
test(
  'hardening: an outside sqlite3 reader after a ping never takes an acknowledged batch with it (kill -9)',
  { timeout: 180_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'manifiesto-reader-'))
    const port = await freePort()
    const dbPath = join(dir, 'm.db')
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({
        server: { host: '127.0.0.1', port },
        auth: { apiKey: API_KEY },
        database: { path: dbPath },
        backup: { everyHours: 0 },
      }),
    )
    const url = `http://127.0.0.1:${port}`
    const post = (body: unknown) =>
      fetch(`${url}/api/v1/facturas/insertar`, {
        method: 'POST',
        headers: { ApiKey: API_KEY },
        body: JSON.stringify(body),
      })

    const served = await startServe(['--config', 'config.json'], { cwd: dir, url })
    try {
      assert.equal((await post(batch('A', '910001'))).status, 200)
      assert.equal((await fetch(`${url}/api/v1/ping`)).status, 200)
      const counted = execFileSync('sqlite3', [dbPath, 'SELECT count(*) FROM invoices'], { encoding: 'utf8' }).trim()
      assert.equal(counted, '2')
      assert.ok(existsSync(`${dbPath}-wal`), 'the live write-ahead log is still there after the outside reader closed')
      assert.equal((await post(batch('B', '910002'))).status, 200)
      await stop(served, 0) // kill -9
    } finally {
      await stop(served)
    }

    const db = new Database(dbPath, { readonly: true })
    try {
      assert.deepEqual(db.prepare('SELECT nfactura FROM invoices ORDER BY id').pluck().all(), [
        'A-1',
        'A-2',
        'B-1',
        'B-2',
      ])
    } finally {
      db.close()
    }
  },
)
