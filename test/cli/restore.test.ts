import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'
import Database from 'better-sqlite3'
import { closeDatabase, openDatabase } from '../../src/db/database.ts'
import { migrateDatabase } from '../../src/db/migrate.ts'
import { DERIVED_VALUES } from '../../src/app/derived-values.ts'
import { exampleBatch, invoice, postBatch } from '../support/batches.ts'
import { freePort, runCli, type CliResult } from '../support/cli.ts'
import { withService } from '../support/service.ts'

const isRoot = process.getuid?.() === 0

/** A server's folder: its config.json (database in data/, backups in backups/) and a backup with `invoices` invoices. */
function server(): { dir: string; database: string; copy: string; config: string } {
  const dir = mkdtempSync(join(tmpdir(), 'manifiesto-restore-'))
  const config = join(dir, 'config.json')
  writeFileSync(
    config,
    JSON.stringify({
      database: { path: 'data/manifiesto.db' },
      backup: { dir: 'backups' },
      server: { host: '127.0.0.1', port: 0 },
    }),
  )
  const copy = join(dir, 'backups', 'manifiesto-2026-11-21T10-00-00.db')
  makeDatabase(copy, ['C-1', 'C-2'])
  return { dir, database: join(dir, 'data', 'manifiesto.db'), copy, config }
}

/** A manifiesto database at `file` holding one batch with these invoices. */
function makeDatabase(file: string, invoices: string[], journal: 'delete' | 'wal' = 'delete'): void {
  mkdirSync(join(file, '..'), { recursive: true })
  const db = openDatabase(file)
  migrateDatabase(db, DERIVED_VALUES)
  db.sqlite.exec(
    "INSERT INTO batches (uuid, received_at, received_date, client_ip, key_fingerprint, estado, invoice_count) VALUES ('b-1', '2026-11-21T15:30:00.000Z', '2026-11-21', '10.8.0.1', 'x', 'processed', 0)",
  )
  db.sqlite.exec("INSERT INTO manifests (numero, created_at) VALUES ('905112', '2026-11-21T15:30:00.000Z')")
  const insert = db.sqlite.prepare(
    "INSERT INTO invoices (nfactura, manifest_id, batch_id, fecha_factura, almacen, vendedor_id, cliente_id, cliente, total, original, created_at) VALUES (?, 1, 1, '2026-11-21', 'OAC', 'V', 'C', 'Cliente', 10, '', '2026-11-21T15:30:00.000Z')",
  )
  for (const nfactura of invoices) insert.run(nfactura)
  db.sqlite.pragma(`journal_mode = ${journal}`)
  closeDatabase(db)
}

function invoicesOf(file: string): string[] {
  const db = new Database(file, { readonly: true })
  try {
    return db.prepare('SELECT nfactura FROM invoices ORDER BY id').pluck().all() as string[]
  } finally {
    db.close()
  }
}

/** What the command said on stderr, without its progress lines. */
function messageOf(stderr: string): string {
  return stderr
    .split('\n')
    .filter((line) => !/^(verificando|copiando)/.test(line))
    .join('\n')
}

function restore(dir: string, copy: string, ...more: string[]): Promise<CliResult> {
  return runCli(['restaurar', copy, '--config', 'config.json', ...more], { cwd: dir })
}

/** Refusals, each with nothing changed: the current database (when there is one) as it was. */
const refusals: Array<{
  name: string
  prepare: (
    s: ReturnType<typeof server>,
    t: TestContext,
  ) => Promise<{ copy: string; cleanup?: () => Promise<void> | void } | null>
  code: number
  says: RegExp
}> = [
  {
    name: 'a copy that does not exist → 1, naming where the copies are',
    prepare: async (s) => ({ copy: join(s.dir, 'backups', 'ayer.db') }),
    code: 1,
    says: /^No se restauró nada: .*ayer\.db no existe o no es un archivo\. la más reciente de .*backups es .*manifiesto-2026-11-21T10-00-00\.db\.\n$/,
  },
  {
    name: 'the database itself given as the copy → 1',
    prepare: async (s) => (makeDatabase(s.database, ['A-1']), { copy: s.database }),
    code: 1,
    says: /^No se restauró nada: .*data\/manifiesto\.db es la base de datos misma \(database\.path\), no una copia\.\n$/,
  },
  {
    name: 'the service running with this configuration → 1, saying how to stop it',
    prepare: async (s) => {
      const port = await freePort()
      const fake = createServer((_request, response) =>
        response.end(JSON.stringify({ success: true, status: 'ok', service: 'manifiesto' })),
      )
      await new Promise<void>((resolve) => fake.listen(port, '127.0.0.1', resolve))
      writeFileSync(
        s.config,
        JSON.stringify({ database: { path: 'data/manifiesto.db' }, server: { host: '127.0.0.1', port } }),
      )
      return { copy: s.copy, cleanup: () => new Promise<void>((resolve) => fake.close(() => resolve())) }
    },
    code: 1,
    says: /^No se restauró nada: el servicio está en marcha \(responde en http:\/\/127\.0\.0\.1:\d+\/\)\. Deténgalo primero: sudo systemctl stop manifiesto; luego vuelva a ejecutar este comando\.\n$/,
  },
  {
    name: 'the database open in another program (a service started elsewhere) → 1',
    prepare: async (s) => {
      makeDatabase(s.database, ['A-1'], 'wal')
      const holder = new Database(s.database)
      holder.prepare('SELECT count(*) FROM invoices').get()
      return { copy: s.copy, cleanup: () => void holder.close() }
    },
    code: 1,
    says: /^No se restauró nada: otro programa tiene abierta la base de datos .*manifiesto\.db: el servicio, o un check o backup en curso\. Deténgalo \(sudo systemctl stop manifiesto\) o espere a que termine/,
  },
  {
    name: 'a copy that is not a database → 1',
    prepare: async (s) => (
      writeFileSync(
        join(s.dir, 'notas.db'),
        'esto no es una base de datos SQLite, sino un texto cualquiera de más de cien bytes de largo.',
      ),
      { copy: join(s.dir, 'notas.db') }
    ),
    code: 1,
    says: /^No se restauró nada: .*notas\.db no se puede abrir como base de datos: el archivo no es una base de datos SQLite \(SQLITE_NOTADB\)\n$/,
  },
  {
    name: "another program's database → 1",
    prepare: async (s) => {
      const other = new Database(join(s.dir, 'otra.db'))
      other.exec('CREATE TABLE clientes (id INTEGER PRIMARY KEY)')
      other.close()
      return { copy: join(s.dir, 'otra.db') }
    },
    code: 1,
    says: /^No se restauró nada: .*otra\.db no es una copia de manifiesto: es una base de datos SQLite de otro programa \(tablas: clientes\)\n$/,
  },
  {
    name: 'a copy written by a newer version → 1',
    prepare: async (s) => {
      const db = new Database(s.copy)
      db.pragma('user_version = 999')
      db.close()
      return { copy: s.copy }
    },
    code: 1,
    says: /^No se restauró nada: .* es de una versión más nueva de manifiesto \(esquema 999; esta versión conoce hasta la \d+\): restáurela con el programa de esa versión o una posterior\.\n$/,
  },
  {
    name: 'a damaged copy → 1, naming another one to use',
    prepare: async (s) => {
      // Zeros over the invoices' table page: the file opens, its integrity check fails.
      const db = new Database(s.copy, { readonly: true })
      const root = db.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'invoices'").pluck().get() as number
      const pageSize = db.pragma('page_size', { simple: true }) as number
      db.close()
      const bytes = readFileSync(s.copy)
      bytes.fill(0x55, (root - 1) * pageSize + 8, root * pageSize - 200)
      writeFileSync(s.copy, bytes)
      return { copy: s.copy }
    },
    code: 1,
    says: /^No se restauró nada: la copia .* está dañada \(\d+ problemas: Tree \d+ page \d+ .*\)\. Elija otra: en .*backups no hay otras copias\.\n$/,
  },
  {
    name: 'a disk too small for the copy → 1, the current database back in its place',
    prepare: async (s, t) => {
      makeDatabase(s.database, ['A-1'])
      // The data folder on a disk that holds the current database (and a little more) but not the copy.
      const bigger = join(s.dir, 'backups', 'grande.db')
      makeDatabase(
        bigger,
        Array.from({ length: 3000 }, (_, i) => `G-${i}`),
      )
      const data = join(s.dir, 'data')
      const saved = readFileSync(s.database)
      rmSync(data, { recursive: true })
      mkdirSync(data)
      try {
        execFileSync(
          'mount',
          ['-t', 'tmpfs', '-o', `size=${Math.ceil((saved.length + 128 * 1024) / 4096) * 4}k`, 'none', data],
          { stdio: 'ignore' },
        )
      } catch (error) {
        t.skip(`no se puede montar un tmpfs aquí: ${(error as Error).message.split('\n')[0]}`)
        return null
      }
      writeFileSync(s.database, saved)
      return { copy: bigger, cleanup: () => void execFileSync('umount', [data]) }
    },
    code: 1,
    says: /^No se restauró nada: no se pudo escribir .*manifiesto\.db: .*\. La base de datos anterior volvió a su lugar\. Revise el espacio libre y los permisos de .*data\.\n$/,
  },
]

for (const row of refusals) {
  test(`restaurar: ${row.name}`, async (t) => {
    const s = server()
    const prepared = await row.prepare(s, t)
    if (prepared === null) return
    try {
      const before = existsSync(s.database) ? readdirSync(join(s.dir, 'data')).sort() : null
      const beforeInvoices = existsSync(s.database) && row.code !== 0 ? invoicesOf(s.database) : null
      const result = await restore(s.dir, prepared.copy)
      assert.equal(result.code, row.code, result.stdout + result.stderr)
      assert.match(messageOf(result.stderr), row.says)
      if (before !== null) {
        assert.deepEqual(
          readdirSync(join(s.dir, 'data')).sort(),
          before,
          'nothing added to or taken from the data folder',
        )
        assert.deepEqual(invoicesOf(s.database), beforeInvoices)
      } else {
        assert.equal(existsSync(join(s.dir, 'data')), false, 'no data folder made')
      }
    } finally {
      await prepared.cleanup?.()
      rmSync(s.dir, { recursive: true, force: true })
    }
  })
}

test('restaurar on a new server: makes the data folder (750), checks the copy, puts it in place, and says how to start and which batches to ask for again', async () => {
  const s = server()
  try {
    const result = await restore(s.dir, s.copy)
    assert.equal(result.code, 0, result.stdout + result.stderr)
    assert.deepEqual(invoicesOf(s.database), ['C-1', 'C-2'])
    assert.equal(statSync(join(s.dir, 'data')).mode & 0o777, 0o750)
    assert.equal(statSync(s.database).mode & 0o777, 0o640)
    assert.deepEqual(readdirSync(join(s.dir, 'data')), ['manifiesto.db'], 'no temporary file, nothing else')
    const lines = result.stdout.trim().split('\n')
    assert.match(lines[0]!, /^copia: .*manifiesto-2026-11-21T10-00-00\.db \(\d+(\.\d)? KB\), esquema versión \d+$/)
    assert.match(lines[1]!, /^integridad de la copia: ok \(\d+(\.\d)? KB, \d+ páginas, verificada en \d+\.\d s\)$/)
    assert.match(lines[2]!, /^carpeta creada: .*\/data \((de \S+, )?modo 750\)$/)
    assert.match(
      lines[3]!,
      /^restaurada: .*data\/manifiesto\.db ← .*manifiesto-2026-11-21T10-00-00\.db \(\d+(\.\d)? KB\) en \d+\.\d s$/,
    )
    assert.equal(
      lines[4],
      'la copia tiene los lotes recibidos hasta el 2026-11-21 09:30:00 (hora de Honduras): pida al proveedor que reenvíe los lotes de después (las facturas que ya estén responden sin_cambios)',
    )
    assert.equal(
      lines[5],
      `Ahora inicie el servicio: sudo systemctl start manifiesto; y compruébelo con: manifiesto check --config ${s.config}`,
    )
    assert.match(result.stderr, /verificando la copia: leyendo sus páginas: terminado en/)
    const check = await runCli(['check', '--config', 'config.json'], { cwd: s.dir })
    assert.equal(check.code, 0, check.stdout)
  } finally {
    rmSync(s.dir, { recursive: true, force: true })
  }
})

test('restaurar over a database: the current one (and its -wal) kept beside it under a dated name, the copy in its place', async () => {
  const s = server()
  try {
    makeDatabase(s.database, ['A-1', 'A-2', 'A-3'], 'wal')
    // A -wal left by a service that did not stop cleanly holds batches too: it moves with its database.
    const writer = new Database(s.database)
    writer.pragma('wal_autocheckpoint = 0')
    writer.exec("UPDATE invoices SET cliente = 'en el wal' WHERE nfactura = 'A-3'")
    execFileSync('cp', [s.database, `${s.database}-wal`, join(s.dir, '.')])
    writer.close()
    execFileSync('cp', [join(s.dir, 'manifiesto.db'), join(s.dir, 'manifiesto.db-wal'), join(s.dir, 'data')])
    const result = await restore(s.dir, s.copy)
    assert.equal(result.code, 0, result.stdout + result.stderr)
    const kept = readdirSync(join(s.dir, 'data')).filter((name) => name.startsWith('manifiesto-antes-de-restaurar-'))
    // The -wal moves with its database, or was folded into it when the restore checked nobody had it open.
    assert.ok(
      kept.some((name) => /^manifiesto-antes-de-restaurar-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.db$/.test(name)),
      kept.join(', '),
    )
    assert.ok(
      kept.every((name) => /\.db(-wal)?$/.test(name)),
      kept.join(', '),
    )
    const keptDb = join(
      s.dir,
      'data',
      kept.find((name) => name.endsWith('.db'))!,
    )
    assert.match(
      result.stdout,
      new RegExp(
        `la base de datos anterior quedó en: ${keptDb.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(bórrela cuando ya no la necesite\\)`,
      ),
    )
    assert.deepEqual(invoicesOf(s.database), ['C-1', 'C-2'])
    const old = new Database(keptDb, { readonly: true })
    assert.deepEqual(
      old.prepare("SELECT nfactura, cliente FROM invoices WHERE nfactura = 'A-3'").get(),
      { nfactura: 'A-3', cliente: 'en el wal' },
      'the kept database has its -wal',
    )
    old.close()
  } finally {
    rmSync(s.dir, { recursive: true, force: true })
  }
})

test(
  'restaurar run as root gives the restored file to the data folder’s owner',
  { skip: isRoot ? false : 'solo root puede dar archivos a otro usuario' },
  async () => {
    const s = server()
    try {
      mkdirSync(join(s.dir, 'data'))
      chownSync(join(s.dir, 'data'), 4321, 4321)
      const result = await restore(s.dir, s.copy)
      assert.equal(result.code, 0, result.stdout + result.stderr)
      const stats = statSync(s.database)
      assert.deepEqual([stats.uid, stats.gid, stats.mode & 0o777], [4321, 4321, 0o640])
    } finally {
      rmSync(s.dir, { recursive: true, force: true })
    }
  },
)

test(
  'restaurar --propietario with a user this machine does not have → 2, nothing changed',
  { skip: isRoot ? false : 'solo como root se da el archivo a un usuario' },
  async () => {
    const s = server()
    try {
      const result = await restore(s.dir, s.copy, '--propietario', 'no-existe-este-usuario')
      assert.equal(result.code, 2, result.stdout + result.stderr)
      assert.match(
        messageOf(result.stderr),
        /^El usuario «no-existe-este-usuario» no existe en este servidor: créelo como dice la guía \(useradd --system … no-existe-este-usuario\) o corrija --propietario\.\n$/,
      )
      assert.equal(existsSync(join(s.dir, 'data')), false)
    } finally {
      rmSync(s.dir, { recursive: true, force: true })
    }
  },
)

test('restaurar --help explains each step in Spanish, and the service restarts on the restored database', async () => {
  const help = await runCli(['restaurar', '--help'], { cwd: tmpdir() })
  assert.equal(help.code, 0)
  assert.match(
    help.stdout,
    /^manifiesto restaurar COPIA \[--config ARCHIVO\] \[--propietario USUARIO\]\n\nPone la copia de seguridad COPIA en lugar de la base de datos/,
  )
  for (const step of [
    'Revisa la copia',
    'Crea la carpeta de la base de datos si no existe',
    'Guarda la base de datos actual al lado',
    'Copia COPIA a la carpeta con un nombre temporal',
    'Dice cómo iniciar el servicio',
  ])
    assert.ok(help.stdout.includes(step), step)

  // End to end: a service's own snapshot restored into a new folder serves its invoices.
  const s = server()
  try {
    await withService({}, async (service) => {
      await postBatch(service, [...exampleBatch(), invoice('F-9', '905113')])
      await service.monitor.tick()
      const snapshot = readdirSync(service.config.backup.dir).find((name) => name.endsWith('.db'))!
      const result = await restore(s.dir, join(service.config.backup.dir, snapshot))
      assert.equal(result.code, 0, result.stderr)
    })
    assert.equal(invoicesOf(s.database).length, 3)
  } finally {
    rmSync(s.dir, { recursive: true, force: true })
  }
})
