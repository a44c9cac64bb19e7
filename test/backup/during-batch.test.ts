import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import Database from 'better-sqlite3'
import { generateBatch } from '../../bench/generator.ts'
import { backupDatabase } from '../../src/backup/backup.service.ts'
import { closeDatabase, openDatabase } from '../../src/db/database.ts'
import { freePort } from '../support/cli.ts'
import { startServe, stop } from '../support/processes.ts'
import { API_KEY } from '../support/service.ts'

const SIZE = 10_000
const PER_MANIFEST = 100

test(
  'backup: snapshots taken while a 10,000-invoice batch is written are consistent',
  { timeout: 180_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'manifiesto-backup-batch-'))
    const port = await freePort()
    const dbPath = join(dir, 'manifiesto.db')
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({
        server: { host: '127.0.0.1', port },
        auth: { apiKey: API_KEY },
        database: { path: dbPath },
        backup: { everyHours: 0 },
      }),
    )
    const served = await startServe(['--config', 'config.json'], { cwd: dir, url: `http://127.0.0.1:${port}` })
    try {
      const today = new Date(Date.now() - 6 * 3600_000).toISOString().slice(0, 10)
      const body = JSON.stringify(generateBatch(SIZE, { fecha: today, perManifest: PER_MANIFEST }))
      const source = openDatabase(dbPath, { mustExist: true })
      let done = false
      const posted = fetch(`http://127.0.0.1:${port}/api/v1/facturas/insertar`, {
        method: 'POST',
        headers: { ApiKey: API_KEY },
        body,
      }).finally(() => (done = true))
      const snapshots: Array<{ file: string; batchState: string | undefined }> = []
      for (let i = 0; !done || snapshots.length < 2; i++) {
        const file = join(dir, `snapshot-${i}.db`)
        await backupDatabase({ db: source }, file, { verify: async () => [] })
        const copy = new Database(file, { readonly: true })
        snapshots.push({
          file,
          batchState: copy.prepare('SELECT estado FROM batches').pluck().get() as string | undefined,
        })
        copy.close()
        if (done && snapshots.length >= 2) break
      }
      closeDatabase(source)
      assert.equal((await posted).status, 200)
      assert.ok(
        snapshots.some((snapshot) => snapshot.batchState === 'received'),
        'at least one snapshot was taken while the batch was being applied',
      )
      assert.equal(snapshots[snapshots.length - 1]!.batchState, 'processed')
      for (const snapshot of snapshots) {
        const copy = new Database(snapshot.file, { readonly: true })
        assert.equal(copy.pragma('integrity_check', { simple: true }), 'ok')
        const counts = copy
          .prepare(
            'SELECT count(i.id) AS n FROM manifests m LEFT JOIN invoices i ON i.manifest_id = m.id GROUP BY m.id',
          )
          .pluck()
          .all() as number[]
        for (const count of counts) assert.equal(count, PER_MANIFEST, 'every manifest complete or absent')
        assert.equal(counts.length, snapshot.batchState === 'processed' ? SIZE / PER_MANIFEST : 0)
        copy.close()
      }
    } finally {
      await stop(served)
    }
  },
)
