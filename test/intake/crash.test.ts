import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import Database from 'better-sqlite3'
import { freePort } from '../support/cli.ts'
import { startServe, stop } from '../support/processes.ts'
import { generateBatch } from '../../bench/generator.ts'
import { API_KEY } from '../support/service.ts'

const SIZE = 10_000
const PER_MANIFEST = 100

/** Honduras' date today, by the real clock the child process uses. */
function hondurasToday(): string {
  return new Date(Date.now() - 6 * 60 * 60 * 1000).toISOString().slice(0, 10)
}

function startChild(dir: string, port: number) {
  return startServe(['--config', 'config.json'], { cwd: dir, url: `http://127.0.0.1:${port}` })
}

test(
  'intake crash: SIGKILL while a 10,000-invoice batch is applied → intact database, batch failed, resend processed',
  { timeout: 180_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'manifiesto-crash-'))
    const port = await freePort()
    const dbPath = join(dir, 'manifiesto.db')
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ server: { host: '127.0.0.1', port }, auth: { apiKey: API_KEY }, database: { path: dbPath } }),
    )
    const body = JSON.stringify(generateBatch(SIZE, { fecha: hondurasToday(), perManifest: PER_MANIFEST }))
    const post = () =>
      fetch(`http://127.0.0.1:${port}/api/v1/facturas/insertar`, {
        method: 'POST',
        headers: { ApiKey: API_KEY, 'Content-Type': 'application/json' },
        body,
      })

    const first = await startChild(dir, port)
    try {
      const reader = new Database(dbPath, { readonly: true })
      const pending = post().catch((error: unknown) => error)
      let killedWhile = ''
      try {
        for (let i = 0; i < 60_000 && killedWhile === ''; i++) {
          const state = reader.prepare('SELECT estado FROM batches ORDER BY id DESC LIMIT 1').pluck().get() as
            string | undefined
          if (state !== undefined) {
            first.child.kill('SIGKILL')
            killedWhile = state
          } else {
            await new Promise((resolve) => setTimeout(resolve, 1))
          }
        }
      } finally {
        reader.close()
      }
      await stop(first, 0) // already killed, unless the batch never showed up
      assert.ok((await pending) instanceof Error, 'the client saw the connection drop')
      assert.equal(killedWhile, 'received', 'killed while step 8 was running')
    } finally {
      await stop(first)
    }

    const second = await startChild(dir, port)
    try {
      const db = new Database(dbPath, { readonly: true })
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok')
      assert.deepEqual(db.prepare('SELECT estado, failure FROM batches').all(), [
        { estado: 'failed', failure: 'interrumpido: el servicio se detuvo mientras se procesaba' },
      ])
      const counts = db
        .prepare(
          'SELECT m.numero, count(i.id) AS n FROM manifests m LEFT JOIN invoices i ON i.manifest_id = m.id GROUP BY m.id',
        )
        .all() as Array<{ n: number }>
      for (const manifest of counts) assert.equal(manifest.n, PER_MANIFEST, 'every manifest complete or absent')
      db.close()

      const resent = await post()
      assert.equal(resent.status, 200)
      const answer = (await resent.json()) as { resumen: { insertadas: number; recibidas: number } }
      assert.deepEqual([answer.resumen.recibidas, answer.resumen.insertadas], [SIZE, SIZE])
    } finally {
      await stop(second)
    }
  },
)
