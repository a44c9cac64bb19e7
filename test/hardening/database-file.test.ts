import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'
import Database from 'better-sqlite3'
import { databaseState, exampleBatch, postBatch } from '../support/batches.ts'
import { runCli } from '../support/cli.ts'
import { runToEnd } from '../support/processes.ts'
import { operator } from '../support/operator.ts'
import { API_KEY, withService } from '../support/service.ts'
import { startWebhook } from '../support/webhook.ts'

test('hardening: a database file deleted under the service refuses batches and operator changes (503), logged and alerted', async () => {
  const hook = await startWebhook()
  try {
    await withService({ config: { alerts: { webhookUrl: hook.url } } }, async (service) => {
      assert.equal((await postBatch(service, exampleBatch())).status, 200)
      const before = databaseState(service.db)
      unlinkSync(service.db.path)
      const batch = await postBatch(
        service,
        exampleBatch().map((invoice) => ({
          ...invoice,
          Nfactura: `${String(invoice.Nfactura)}-B`,
          NumeroManifiesto: '905113',
        })),
      )
      assert.equal(batch.status, 503)
      assert.match(
        batch.body.message,
        /^No se guardó nada: el archivo .*manifiesto\.db ya no existe \(ENOENT\): se borró o se movió con el servicio en marcha\. El servicio no acepta cambios hasta que el administrador restaure la base de datos y lo reinicie\.$/,
      )
      const reason = await operator(service, 'POST', 'conceptos', { codigo: 'DANADO', descripcion: 'Producto dañado' })
      assert.equal(reason.status, 503)
      assert.deepEqual(databaseState(service.db), before, 'nothing was written into the deleted file')
      assert.ok(service.logLines().some((line) => line.msg === 'base de datos inutilizable: escritura rechazada'))
      for (let i = 0; i < 100 && hook.received.length === 0; i++)
        await new Promise((resolve) => setTimeout(resolve, 10))
      assert.equal(hook.received[0]?.kind, 'DatabaseFileGone')
    })
  } finally {
    await hook.close()
  }
})

/** How the file goes away while a batch is still arriving. */
const goneDuringUpload: Array<{ name: string; remove: (path: string) => void; says: RegExp }> = [
  {
    name: 'deleted',
    remove: (path) => unlinkSync(path),
    says: /^No se guardó nada: el archivo .*manifiesto\.db ya no existe \(ENOENT\): se borró o se movió con el servicio en marcha\. /,
  },
  {
    name: 'replaced by another file',
    remove: (path) => {
      writeFileSync(`${path}.otra`, Buffer.alloc(8192))
      renameSync(`${path}.otra`, path)
    },
    says: /^No se guardó nada: el archivo .*manifiesto\.db fue reemplazado por otro con el servicio en marcha\. /,
  },
]

for (const scenario of goneDuringUpload) {
  test(`hardening: the database file ${scenario.name} between a batch's first and last byte → 503, nothing acknowledged`, async () => {
    await withService({}, async (service) => {
      const before = databaseState(service.db)
      const body = Buffer.from(JSON.stringify(exampleBatch()))
      const answer = await new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
        const sent = request(
          `${service.url}/api/v1/facturas/insertar`,
          {
            method: 'POST',
            headers: { ApiKey: API_KEY, 'Content-Type': 'application/json', 'Content-Length': String(body.length) },
          },
          (response) => {
            const pieces: Buffer[] = []
            response.on('data', (piece: Buffer) => pieces.push(piece))
            response.on('end', () =>
              resolve({
                status: response.statusCode!,
                body: JSON.parse(Buffer.concat(pieces).toString('utf8')) as Record<string, unknown>,
              }),
            )
          },
        )
        sent.on('error', reject)
        // The pipeline's check passes with the first bytes; the file goes before the last.
        sent.write(body.subarray(0, 100))
        setTimeout(() => {
          scenario.remove(service.db.path)
          sent.end(body.subarray(100))
        }, 200)
      })
      assert.equal(answer.status, 503, JSON.stringify(answer.body))
      assert.match(String(answer.body.message), scenario.says)
      const after = databaseState(service.db)
      assert.deepEqual({ ...after, batches: before.batches }, before, 'no invoice, manifest or line was written')
      assert.equal(
        Number(service.db.sqlite.prepare("SELECT count(*) FROM batches WHERE estado = 'processed'").pluck().get()),
        0,
      )
      assert.ok(service.logLines().some((line) => line.msg === 'base de datos inutilizable: escritura rechazada'))
    })
  })
}

function folder(): string {
  return mkdtempSync(join(tmpdir(), 'manifiesto-file-'))
}

const notOurs: Array<{ name: string; make: (path: string) => void; says: string }> = [
  {
    name: 'an empty (0-byte) file',
    make: (path) => writeFileSync(path, ''),
    says: 'error: no es una base de datos de manifiesto: está vacía (0 bytes o sin tablas)',
  },
  {
    name: 'a text file',
    make: (path) =>
      writeFileSync(
        path,
        'esto no es SQLite, pero tiene más de cien bytes para que SQLite lo lea como cabecera y lo rechace por completo.',
      ),
    says: 'error: no es una base de datos de manifiesto: no es un archivo SQLite',
  },
  {
    name: "another program's SQLite database",
    make: (path) => {
      const other = new Database(path)
      other.exec(
        'CREATE TABLE clientes (id INTEGER PRIMARY KEY, nombre TEXT); CREATE TABLE pedidos (id INTEGER PRIMARY KEY)',
      )
      other.close()
    },
    says: 'error: no es una base de datos de manifiesto: es una base de datos SQLite de otro programa (tablas: clientes, pedidos)',
  },
]

for (const scenario of notOurs) {
  test(`hardening: check on ${scenario.name} → exit 1, not a manifiesto database`, async () => {
    const dir = folder()
    scenario.make(join(dir, 'otra.db'))
    const result = await runCli(['check', 'otra.db'], { cwd: dir })
    assert.equal(result.code, 1, result.stdout + result.stderr)
    assert.equal(result.stdout.trim().split('\n').pop(), scenario.says)
  })
}

test("hardening: serve on another program's SQLite database refuses to write into it (exit 1, one line)", async () => {
  const dir = folder()
  notOurs[2]!.make(join(dir, 'otra.db'))
  const result = await runToEnd(['serve'], { cwd: dir, env: { MANIFIESTO_DB: 'otra.db', MANIFIESTO_PORT: '0' } })
  assert.equal(result.code, 1)
  assert.equal(
    result.stderr.trim(),
    `${join(dir, 'otra.db')} no es una base de datos de manifiesto: es una base de datos SQLite de otro programa (tablas: clientes, pedidos). Revise database.path; manifiesto no escribe en ella.`,
  )
  const other = new Database(join(dir, 'otra.db'), { readonly: true })
  assert.deepEqual(other.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all(), [
    'clientes',
    'pedidos',
  ])
  other.close()
})

/** Runs `make` as root-only setup; skips the test when this machine cannot (no root, no mount). */
function tryOrSkip(t: TestContext, what: string, make: () => void): boolean {
  try {
    make()
    return true
  } catch (error) {
    t.skip(`${what} no es posible aquí: ${(error as Error).message.split('\n')[0]}`)
    return false
  }
}

async function startFails(dir: string): Promise<string> {
  const result = await runToEnd(['serve'], { cwd: dir, env: { MANIFIESTO_PORT: '0', MANIFIESTO_HOST: '127.0.0.1' } })
  assert.equal(result.code, 1)
  assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace')
  assert.equal(result.stderr.trim().split('\n').length, 1, 'one line')
  return result.stderr.trim()
}

test('hardening: starting on a read-only file system → one Spanish line, exit 1', async (t) => {
  const dir = folder()
  const data = join(dir, 'data')
  mkdirSync(data)
  if (
    !tryOrSkip(t, 'montar un sistema de archivos de solo lectura', () =>
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'none', data], { stdio: 'ignore' }),
    )
  )
    return
  try {
    const line = await startFails(dir)
    assert.match(line, /^No se pudo iniciar manifiesto: .*data.*: el sistema de archivos es de solo lectura/)
  } finally {
    execFileSync('umount', [data])
  }
})

test('hardening: starting with the data folder made immutable (chattr +i) → one Spanish line, exit 1', async (t) => {
  const dir = folder()
  const data = join(dir, 'data')
  mkdirSync(data)
  const db = new Database(join(data, 'manifiesto.db'))
  db.pragma('journal_mode = WAL')
  db.close()
  if (!tryOrSkip(t, 'chattr +i', () => execFileSync('chattr', ['-R', '+i', data], { stdio: 'ignore' }))) return
  try {
    const line = await startFails(dir)
    assert.match(
      line,
      /^No se pudo iniciar manifiesto: no se puede escribir en .*data: la operación no está permitida \(¿archivo o carpeta inmutable, chattr \+i\?\)\. Revise la carpeta de la base de datos \(database\.path\)\.$/,
    )
  } finally {
    execFileSync('chattr', ['-R', '-i', data])
    chmodSync(data, 0o755)
    rmSync(dir, { recursive: true, force: true })
  }
})
