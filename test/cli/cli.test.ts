import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { closeDatabase, openDatabase } from '../../src/db/database.ts'
import { migrateDatabase } from '../../src/db/migrate.ts'
import { VERSION } from '../../src/core/version.ts'
import { DERIVED_VALUES } from '../../src/app/derived-values.ts'
import { freePort, runCli } from '../support/cli.ts'
import { startServe, stop } from '../support/processes.ts'

function folder(): string {
  return mkdtempSync(join(tmpdir(), 'manifiesto-cli-'))
}

for (const args of [['version'], ['--version'], ['-v']]) {
  test(`cli: ${args.join(' ')} prints the version and exits 0`, async () => {
    const result = await runCli(args, { cwd: folder() })
    assert.equal(result.code, 0, result.stderr)
    assert.match(
      result.stdout,
      new RegExp(
        `^manifiesto ${VERSION.replace(/\./g, '\\.')} \\(node \\d+\\.\\d+\\.\\d+, sqlite \\d+\\.\\d+\\.\\d+\\)\n$`,
      ),
    )
    assert.equal(result.stderr, '')
  })
}

const usageErrors: Array<{ args: string[]; first: string }> = [
  {
    args: ['frobnicar'],
    first: 'Comando desconocido: «frobnicar». Los comandos son: serve, check, backup, restaurar, version, usuario.',
  },
  { args: ['serve', 'extra'], first: 'Sobra el argumento «extra»: manifiesto serve.' },
  { args: ['check', 'a.db', 'b.db'], first: 'Sobra el argumento «b.db»: manifiesto check [BASE].' },
  {
    args: ['backup'],
    first:
      'Falta el argumento ARCHIVO: manifiesto backup ARCHIVO (la ruta de la copia, por ejemplo /var/lib/manifiesto/backups/manual.db).',
  },
  {
    args: ['usuario'],
    first:
      'Falta el argumento crear|restablecer|desbloquear|listar: manifiesto usuario crear|restablecer|desbloquear|listar [NOMBRE].',
  },
  {
    args: ['--no-existe'],
    first: 'Opción desconocida: «--no-existe». Las opciones de cada comando están en la ayuda de abajo.',
  },
]
for (const { args, first } of usageErrors) {
  test(`cli: usage error ${JSON.stringify(args)} → exit 2, one line naming it, then the usage`, async () => {
    const result = await runCli(args, { cwd: folder() })
    assert.equal(result.code, 2)
    assert.equal(result.stderr.split('\n')[0], first)
    assert.match(result.stderr, /\n\nmanifiesto .*\n\nUso:/)
  })
}

for (const command of ['serve', 'check']) {
  test(`cli: ${command} with a bad config file → exit 2, the message names the key`, async () => {
    const dir = folder()
    writeFileSync(join(dir, 'malo.json'), JSON.stringify({ server: { port: 'ochenta' }, extra: 1 }))
    const result = await runCli([command, '--config', 'malo.json'], { cwd: dir })
    assert.equal(result.code, 2)
    assert.match(
      result.stderr,
      /Configuración inválida: .*malo\.json: clave desconocida «extra»; «server\.port» debe ser un entero/,
    )
  })
}

for (const command of ['serve', 'check']) {
  test(`cli: ${command} with clientContract "v2" and a returns window of 0 → exit 2, in Spanish`, async () => {
    const dir = folder()
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ clientContract: 'v2', returns: { windowBusinessDays: 0 } }),
    )
    const result = await runCli([command], { cwd: dir })
    assert.equal(result.code, 2)
    assert.match(result.stderr, /«returns\.windowBusinessDays» no puede ser 0 con «clientContract» "v2"/)
  })
}

test('cli: check with bad connection and proxy keys → exit 2, each key named in Spanish', async () => {
  const dir = folder()
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({
      server: { trustProxy: 'sí', maxConnectionsPerIp: 0, maxConnections: -5, headersTimeoutSeconds: 2 },
    }),
  )
  const result = await runCli(['check'], { cwd: dir })
  assert.equal(result.code, 2)
  for (const key of ['trustProxy', 'maxConnectionsPerIp', 'maxConnections', 'headersTimeoutSeconds'])
    assert.match(result.stderr, new RegExp(`«server\\.${key}»`))
  assert.match(result.stderr, /«server\.maxConnectionsPerIp» tiene un valor imposible 0 \(debe ser al menos 1\)/)
})

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

// The one test of the command line as a program of its own (every other one runs runCli in-process).
test(
  'cli, spawned: serve with no config at all serves ping, answers 503 on protected endpoints, stops cleanly on SIGTERM',
  { timeout: 180_000 },
  async () => {
    const dir = folder()
    const port = await freePort()
    const url = `http://127.0.0.1:${port}`
    const served = await startServe([], {
      cwd: dir,
      env: { MANIFIESTO_PORT: String(port), MANIFIESTO_HOST: '127.0.0.1' },
      url,
    })
    try {
      const ping = await fetch(`${url}/api/v1/ping`)
      assert.equal(ping.status, 200)
      assert.equal(((await ping.json()) as { database: string }).database, 'ok')
      const status = await fetch(`http://127.0.0.1:${port}/api/v1/manifiestos/1/estado`, {
        headers: { ApiKey: 'cualquiera' },
      })
      assert.equal(status.status, 503)
      assert.ok(existsSync(join(dir, 'data', 'manifiesto.db')), 'database created in ./data on first start')
      // The first automatic snapshot is written and checked at start (on a worker thread: it may take a moment).
      for (
        let i = 0;
        i < 600 &&
        !(
          existsSync(join(dir, 'backups')) &&
          readdirSync(join(dir, 'backups')).some((name) => /^manifiesto-.*\.db$/.test(name))
        );
        i++
      )
        await new Promise((resolve) => setTimeout(resolve, 100))
    } finally {
      await stop(served)
    }
    const result = await served.exited
    assert.equal(result.code, 0, result.stderr)
    const lines = result.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    for (const line of lines) assert.match(String(line.time), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}-06:00$/)
    const listening = lines.find((line) => line.msg === 'manifiesto escuchando')!
    assert.deepEqual(
      { ...listening, time: undefined, schema: undefined },
      {
        level: 'info',
        time: undefined,
        service: 'manifiesto',
        version: VERSION,
        url: `http://127.0.0.1:${port}/`,
        consola: `http://127.0.0.1:${port}/consola/`,
        config: 'valores por defecto',
        base_de_datos: join(dir, 'data', 'manifiesto.db'),
        copias: join(dir, 'backups'),
        registro: 'solo salida estándar',
        schema: undefined,
        claves_cliente: 0,
        claves_operadores: 0,
        administradores: 0,
        msg: 'manifiesto escuchando',
      },
    )
    const messages = lines.map((line) => String(line.msg))
    const snapshot = 'copia de seguridad automática creada'
    assert.equal(messages.filter((msg) => msg === snapshot).length, 1, 'a first automatic snapshot at start')
    assert.ok(existsSync(join(dir, 'backups')), 'snapshots go to ./backups by default')
    assert.deepEqual(
      messages.filter((msg) => msg !== 'request' && msg !== snapshot),
      [
        'manifiesto escuchando',
        'contrato con el cliente: v1',
        'no hay ningún administrador activo: créelo con «manifiesto usuario crear admin --rol admin» (pide la contraseña), y entre a la consola con él',
        'sin auth.apiKey configurada: los endpoints protegidos responden 503 (ver la guía de administración, "Referencia de la configuración")',
        'sin auth.operatorKey ni cuentas personales: nadie puede usar la API de operadores ni la consola todavía',
        'deteniendo: no se aceptan más solicitudes; se terminan las que están en curso',
        'detenido',
      ],
    )

    const check = await runCli(['check'], { cwd: dir })
    assert.equal(check.code, 0, check.stdout + check.stderr)
    assert.match(check.stdout, /integridad: ok/)
  },
)

test('cli: check on a fresh install validates the configuration and that the service can make its folders, says the database will be created, exits 0 and creates nothing', async () => {
  const dir = folder()
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ auth: { apiKey: 'clave-del-proveedor-1234' } }))
  const result = await runCli(['check', '--config', 'config.json'], { cwd: dir })
  assert.equal(result.code, 0, result.stderr)
  assert.equal(
    result.stdout,
    [
      `configuración: ok (${join(dir, 'config.json')})`,
      'contrato con el cliente: v1',
      `base de datos: ${join(dir, 'data', 'manifiesto.db')}`,
      `carpeta de database.path: ${join(dir, 'data')} (todavía no existe: el servicio la creará en ${dir})`,
      `carpeta de backup.dir: ${join(dir, 'backups')} (todavía no existe: el servicio la creará en ${dir})`,
      'la base de datos todavía no existe: el servicio la creará, con su carpeta, al iniciar por primera vez (manifiesto serve)',
      '',
    ].join('\n'),
  )
  assert.equal(existsSync(join(dir, 'data')), false)
})

test('cli: check of a file that does not exist (a backup named on the command line) → exit 1', async () => {
  const dir = folder()
  const result = await runCli(['check', 'copia.db'], { cwd: dir })
  assert.equal(result.code, 1)
  assert.match(result.stdout, /base de datos: .*copia\.db\nerror: el archivo no existe\n$/)
})

test('cli: a database written by a newer version → serve refuses (exit 1), check reports it (exit 1)', async () => {
  const dir = folder()
  const db = openDatabase(join(dir, 'data', 'manifiesto.db'))
  migrateDatabase(db, DERIVED_VALUES)
  db.sqlite.pragma('user_version = 999')
  closeDatabase(db)
  const serve = await runCli(['serve'], { cwd: dir, env: { MANIFIESTO_PORT: String(await freePort()) } })
  assert.equal(serve.code, 1)
  assert.match(serve.stderr, /esquema versión 999, escrito por una versión más nueva de manifiesto/)
  const check = await runCli(['check'], { cwd: dir })
  assert.equal(check.code, 1)
  assert.match(check.stdout, /versión 999 .*escrita por una versión más nueva/)
})

test('cli: a taken port is one Spanish line naming the port and the key, exit 1, no stack, and nothing else runs', async () => {
  const blocker = createServer()
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
  const port = (blocker.address() as { port: number }).port
  try {
    const dir = folder()
    const result = await runCli(['serve'], {
      cwd: dir,
      env: { MANIFIESTO_PORT: String(port), MANIFIESTO_HOST: '127.0.0.1' },
    })
    assert.equal(result.code, 1)
    assert.equal(
      result.stderr,
      `No se pudo iniciar manifiesto: el puerto ${port} ya está en uso por otro programa. Cierre ese programa o cambie server.port (o MANIFIESTO_PORT) en la configuración.\n`,
    )
    assert.equal(result.stdout, '', 'no snapshot or other background work before listening')
    assert.equal(existsSync(join(dir, 'backups')), false)
  } finally {
    blocker.close()
  }
})

test("cli: an address that is not this machine's is one Spanish line naming server.host, exit 1", async () => {
  // 192.0.2.1 is TEST-NET-1 (RFC 5737): never a local address; binding it fails at once, nothing is sent.
  const result = await runCli(['serve'], {
    cwd: folder(),
    env: { MANIFIESTO_PORT: String(await freePort()), MANIFIESTO_HOST: '192.0.2.1' },
  })
  assert.equal(result.code, 1)
  assert.equal(
    result.stderr,
    'No se pudo iniciar manifiesto: la dirección 192.0.2.1 no pertenece a este servidor (EADDRNOTAVAIL). Corrija server.host (o MANIFIESTO_HOST) en la configuración; 0.0.0.0 escucha en todas.\n',
  )
})

test('cli: an HTTPS certificate file that cannot be read is one Spanish line naming server.https.certFile, exit 1', async () => {
  const dir = folder()
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({
      server: { host: '127.0.0.1', port: await freePort(), https: { certFile: 'no-existe.pem', keyFile: 'clave.pem' } },
    }),
  )
  const result = await runCli(['serve'], { cwd: dir })
  assert.equal(result.code, 1)
  assert.equal(
    result.stderr,
    `No se pudo iniciar manifiesto: no se puede leer ${join(dir, 'no-existe.pem')}: la ruta no existe. Corrija server.https.certFile en la configuración (un archivo PEM que el usuario del servicio pueda leer).\n`,
  )
})
