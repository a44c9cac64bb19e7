import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import Database from 'better-sqlite3'
import { generateBatch } from '../../bench/generator.ts'
import { freePort } from '../support/cli.ts'
import { finished, startServe, stop } from '../support/processes.ts'
import { API_KEY } from '../support/service.ts'

test(
  'cli: SIGTERM during a 10,000-invoice batch finishes the batch, answers it, then stops cleanly',
  { timeout: 180_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'manifiesto-graceful-'))
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
    let reader: Database.Database | undefined
    try {
      reader = new Database(dbPath, { readonly: true })
      const today = new Date(Date.now() - 6 * 3600_000).toISOString().slice(0, 10)
      const body = JSON.stringify(generateBatch(10_000, { fecha: today }))
      const answer = fetch(`http://127.0.0.1:${port}/api/v1/facturas/insertar`, {
        method: 'POST',
        headers: { ApiKey: API_KEY },
        body,
        signal: AbortSignal.timeout(120_000),
      })
      for (let i = 0; i < 60_000 && reader!.prepare('SELECT count(*) FROM batches').pluck().get() === 0; i++)
        await new Promise((resolve) => setTimeout(resolve, 1))
      served.child.kill('SIGTERM')
      const response = await answer
      assert.equal(response.status, 200, 'the batch in progress is finished and answered')
      assert.equal(((await response.json()) as { resumen: { insertadas: number } }).resumen.insertadas, 10_000)
      // Waits for the exit it caused; a service that would not stop is killed after 30 s (and fails here).
      const result = await finished(served, 30_000)
      assert.equal(result.code, 0, result.stderr)
      assert.equal(reader!.prepare('SELECT estado FROM batches').pluck().get(), 'processed')
      assert.match(result.stdout, /"msg":"detenido"/)
    } finally {
      reader?.close()
      await stop(served)
    }
  },
)
