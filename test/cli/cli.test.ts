import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { closeDatabase, openDatabase } from '../../src/db/database.ts'
import { migrateDatabase } from '../../src/db/migrate.ts'
import { VERSION } from '../../src/version.ts'
import { collect, freePort, runCli, spawnCli, waitForPing } from '../support/cli.ts'

function folder(): string {
  return mkdtempSync(join(tmpdir(), 'manifiesto-cli-'))
}

test('cli: version prints the version and exits 0', async () => {
  const result = await runCli(['version'], { cwd: folder() })
  assert.equal(result.code, 0)
  assert.match(result.stdout, new RegExp(`^manifiesto ${VERSION.replace(/\./g, '\\.')} \\(node `))
})

const usageErrors = [['frobnicar'], ['serve', 'extra'], ['--no-existe']]
for (const args of usageErrors) {
  test(`cli: usage error ${JSON.stringify(args)} → exit 2 with the usage`, async () => {
    const result = await runCli(args, { cwd: folder() })
    assert.equal(result.code, 2)
    assert.match(result.stderr, /Uso:/)
  })
}

for (const command of ['serve', 'check']) {
  test(`cli: ${command} with a bad config file → exit 2, the message names the key`, async () => {
    const dir = folder()
    writeFileSync(join(dir, 'malo.json'), JSON.stringify({ server: { port: 'ochenta' }, extra: 1 }))
    const result = await runCli([command, '--config', 'malo.json'], { cwd: dir })
    assert.equal(result.code, 2)
    assert.match(result.stderr, /Configuración inválida: .*malo\.json: clave desconocida «extra»; «server\.port» debe ser un entero/)
  })
}

for (const command of ['serve', 'check']) {
  test(`cli: ${command} with clientContract "v2" and a returns window of 0 → exit 2, in Spanish`, async () => {
    const dir = folder()
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ clientContract: 'v2', returns: { windowBusinessDays: 0 } }))
    const result = await runCli([command], { cwd: dir })
    assert.equal(result.code, 2)
    assert.match(result.stderr, /«returns\.windowBusinessDays» no puede ser 0 con «clientContract» "v2"/)
  })
}

test('cli: check names the active client contract', async () => {
  const dir = folder()
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ clientContract: 'v2' }))
  const result = await runCli(['check'], { cwd: dir })
  assert.match(result.stdout, /^configuración: ok \(.*config\.json\)\ncontrato con el cliente: v2\nbase de datos: /)
})

test('cli: a bad MANIFIESTO_CONFIG file is exit 2 too', async () => {
  const dir = folder()
  writeFileSync(join(dir, 'c.json'), '{"rateLimits": {"insertPerMinute": 0}}')
  const result = await runCli(['check'], { cwd: dir, env: { MANIFIESTO_CONFIG: 'c.json' } })
  assert.equal(result.code, 2)
  assert.match(result.stderr, /«rateLimits\.insertPerMinute» tiene un valor imposible 0/)
})

test('cli: serve with no config at all serves ping, answers 503 on protected endpoints, stops cleanly on SIGTERM', async () => {
  const dir = folder()
  const port = await freePort()
  const child = spawnCli(['serve'], { cwd: dir, env: { MANIFIESTO_PORT: String(port), MANIFIESTO_HOST: '127.0.0.1' } })
  const finished = collect(child)
  try {
    const ping = await waitForPing(`http://127.0.0.1:${port}`)
    assert.equal(ping.status, 200)
    assert.equal(((await ping.json()) as { database: string }).database, 'ok')
    const status = await fetch(`http://127.0.0.1:${port}/api/v1/manifiestos/1/estado`, { headers: { ApiKey: 'cualquiera' } })
    assert.equal(status.status, 503)
    assert.ok(existsSync(join(dir, 'data', 'manifiesto.db')), 'database created in ./data on first start')
  } finally {
    child.kill('SIGTERM')
  }
  const result = await finished
  assert.equal(result.code, 0, result.stderr)
  const messages = result.stdout.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { msg: string }).msg)
  const snapshot = 'copia de seguridad automática creada'
  assert.equal(messages.filter((msg) => msg === snapshot).length, 1, 'a first automatic snapshot at start')
  assert.ok(existsSync(join(dir, 'backups')), 'snapshots go to ./backups by default')
  assert.deepEqual(messages.filter((msg) => msg !== 'request' && msg !== snapshot), [
    'manifiesto escuchando',
    'contrato con el cliente: v1',
    'no hay ningún administrador activo: créelo con «manifiesto usuario crear admin --rol admin» (pide la contraseña), y entre a la consola con él',
    'sin auth.apiKey configurada: los endpoints protegidos responden 503 (ver README, "Configuración")',
    'deteniendo: no se aceptan más solicitudes; se terminan las que están en curso',
    'detenido',
  ])

  const check = await runCli(['check'], { cwd: dir })
  assert.equal(check.code, 0, check.stdout + check.stderr)
  assert.match(check.stdout, /integridad: ok/)
})

test('cli: check without a database → exit 1, and it creates nothing', async () => {
  const dir = folder()
  const result = await runCli(['check'], { cwd: dir })
  assert.equal(result.code, 1)
  assert.match(result.stdout, /la base de datos no existe/)
  assert.equal(existsSync(join(dir, 'data')), false)
})

test('cli: a database written by a newer version → serve refuses (exit 1), check reports it (exit 1)', async () => {
  const dir = folder()
  const db = openDatabase(join(dir, 'data', 'manifiesto.db'))
  migrateDatabase(db)
  db.sqlite.pragma('user_version = 999')
  closeDatabase(db)
  const serve = await runCli(['serve'], { cwd: dir, env: { MANIFIESTO_PORT: String(await freePort()) } })
  assert.equal(serve.code, 1)
  assert.match(serve.stderr, /esquema versión 999, escrito por una versión más nueva de manifiesto/)
  const check = await runCli(['check'], { cwd: dir })
  assert.equal(check.code, 1)
  assert.match(check.stdout, /versión 999 .*escrita por una versión más nueva/)
})

test('cli: serve never falls back to another port when its port is taken', async () => {
  const blocker = createServer()
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
  const port = (blocker.address() as { port: number }).port
  try {
    const result = await runCli(['serve'], { cwd: folder(), env: { MANIFIESTO_PORT: String(port), MANIFIESTO_HOST: '127.0.0.1' } })
    assert.equal(result.code, 1)
    assert.match(result.stderr, /No se pudo iniciar manifiesto/)
  } finally {
    blocker.close()
  }
})
