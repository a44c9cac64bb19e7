import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import Database from 'better-sqlite3'
import { checkIntegrity, type IntegrityProgress } from '../../src/backup/integrity.ts'
import { formatBytes, formatDuration, startProgress } from '../../src/commands/progress.ts'
import { closeDatabase, openDatabase } from '../../src/db/database.ts'
import { migrateDatabase } from '../../src/db/migrate.ts'
import { DERIVED_VALUES } from '../../src/app/derived-values.ts'
import { runCli } from '../support/cli.ts'

/** A terminal or a log file that keeps what is written, and a clock moved by hand. */
function output(terminal: boolean) {
  let text = ''
  let now = 0
  return {
    stream: { write: (chunk: string) => (text += chunk), isTTY: terminal },
    text: () => text,
    advance: (ms: number) => (now += ms),
    now: () => now,
  }
}

test('progress on a terminal: one line rewritten in place (\\r), at most four times a second, with the percent and the time left; the end says how long it took', () => {
  const out = output(true)
  const progress = startProgress(out.stream, 'copiando', 'bytes', { now: out.now })
  progress.update({ done: 0, total: 4 * 1024 ** 3 })
  out.advance(100)
  progress.update({ done: 100 * 1024 ** 2, total: 4 * 1024 ** 3 })
  out.advance(2_000)
  progress.update({ done: 1024 ** 3, total: 4 * 1024 ** 3 })
  out.advance(2_000)
  progress.finish('4.0 GB')
  assert.equal(
    out.text(),
    '\rcopiando: 0 % (0 bytes de 4.0 GB)' +
      '\rcopiando: 25 % (1.0 GB de 4.0 GB), quedan unos 6.3 s'.padEnd(0) +
      '\rcopiando: terminado en 4.1 s, 4.0 GB'.padEnd(
        'copiando: 25 % (1.0 GB de 4.0 GB), quedan unos 6.3 s'.length + 1,
      ) +
      '\n',
  )
})

test('progress without a terminal (a service manager, a scheduled task): plain lines at each tenth and at least every 10 s, never \\r', () => {
  const out = output(false)
  const progress = startProgress(out.stream, 'verificando', 'paginas', { now: out.now })
  for (let done = 0; done <= 1000; done += 25) {
    progress.update({ done, total: 1000 })
    out.advance(100)
  }
  progress.finish()
  const lines = out.text().trim().split('\n')
  assert.ok(!out.text().includes('\r'))
  assert.deepEqual(
    lines.map((line) => /: (\d+) %/.exec(line)?.[1] ?? line),
    ['0', '10', '20', '30', '40', '50', '60', '70', '80', '90', '100', 'verificando: terminado en 4.1 s'],
  )
  assert.match(lines[5]!, /^verificando: 50 % \(página 500 de 1,000\), quedan unos 2\.0 s$/)

  const slow = output(false)
  const crawling = startProgress(slow.stream, 'leyendo', 'paginas', { now: slow.now })
  for (let done = 0; done < 50; done++) {
    crawling.update({ done, total: 1000 })
    slow.advance(1_000)
  }
  assert.equal(slow.text().trim().split('\n').length, 5, 'under a tenth in 50 s: a line every 10 s')
})

test('progress: sizes and times as an administrator reads them', () => {
  assert.deepEqual(
    [formatBytes(512), formatBytes(4096), formatBytes(812 * 1024 ** 2), formatBytes(2.6 * 1024 ** 3)],
    ['512 bytes', '4.0 KB', '812 MB', '2.6 GB'],
  )
  assert.deepEqual(
    [formatDuration(400), formatDuration(12_400), formatDuration(185_000), formatDuration(3_725_000)],
    ['0.4 s', '12 s', '3 min 05 s', '1 h 02 min'],
  )
})

/** A database with `rows` invoices' worth of data, some of it freed again. */
function database(dir: string, rows: number): string {
  const file = join(dir, 'data', 'manifiesto.db')
  const db = openDatabase(file)
  migrateDatabase(db, DERIVED_VALUES)
  db.sqlite.exec('CREATE TABLE relleno (id INTEGER PRIMARY KEY, texto TEXT)')
  const insert = db.sqlite.prepare('INSERT INTO relleno (texto) VALUES (?)')
  db.sqlite.transaction(() => {
    for (let i = 0; i < rows; i++) insert.run(`${i} `.repeat(i % 7 === 0 ? 3000 : 40))
  })()
  db.sqlite.exec('DELETE FROM relleno WHERE id % 3 = 0')
  db.sqlite.pragma('wal_checkpoint(TRUNCATE)')
  closeDatabase(db)
  return file
}

test('integrity in steps: every page accounted for (tables, indexes, overflow, free pages), progress by pages, and the same verdict as SQLite', () => {
  const file = database(mkdtempSync(join(tmpdir(), 'manifiesto-integrity-')), 3000)
  const db = new Database(file, { readonly: true })
  try {
    assert.ok((db.pragma('freelist_count', { simple: true }) as number) > 0, 'the database has free pages')
    const seen: IntegrityProgress[] = []
    const result = checkIntegrity(db, (progress) => seen.push(progress))
    assert.deepEqual(result.problems, [])
    assert.equal(result.pages, db.pragma('page_count', { simple: true }))
    const pages = seen.filter((progress) => progress.phase === 'paginas')
    const tables = seen.filter((progress) => progress.phase === 'tablas')
    assert.deepEqual(
      [pages[0], pages.at(-1)],
      [
        { phase: 'paginas', done: 0, total: result.pages },
        { phase: 'paginas', done: result.pages, total: result.pages },
      ],
    )
    assert.ok(tables.length > 10 && tables.at(-1)!.done === tables.at(-1)!.total, 'one step per table')
    assert.ok(tables.every((progress, i) => i === 0 || progress.done >= tables[i - 1]!.done))
  } finally {
    db.close()
  }
})

test('integrity in steps: a damaged page is reported in SQLite’s own words, as SQLite’s single pass reports it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'manifiesto-integrity-'))
  const file = database(dir, 500)
  const reader = new Database(file, { readonly: true })
  const root = reader
    .prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'sqlite_autoindex_invoices_1'")
    .pluck()
    .get() as number
  const pageSize = reader.pragma('page_size', { simple: true }) as number
  reader.close()
  // An index page pointing at a child that is another tree's page: two trees claim it.
  const bytes = readFileSync(file)
  bytes.writeUInt32BE(2, (root - 1) * pageSize + 8)
  bytes[(root - 1) * pageSize] = 0x02
  writeFileSync(file, bytes)
  const db = new Database(file, { readonly: true })
  try {
    const { problems } = checkIntegrity(db, () => {})
    assert.ok(problems.length > 0)
    assert.ok(
      problems.every((line) => !line.includes('***')),
      problems.join('\n'),
    )
    assert.deepEqual(checkIntegrity(db).problems, problems, 'the steps and SQLite’s single pass say the same')
  } finally {
    db.close()
  }
})

test('check and backup show their progress on stderr (plain lines here, not a terminal), and end saying how long and how big', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'manifiesto-progress-'))
  database(dir, 2000)
  const check = await runCli(['check'], { cwd: dir })
  assert.equal(check.code, 0, check.stdout + check.stderr)
  assert.match(check.stderr, /^verificando la base de datos: leyendo sus páginas: 0 % \(página 0 de [\d,]+\)\n/)
  assert.match(
    check.stderr,
    /\nverificando la base de datos: revisando cada tabla y sus índices: 100 % \(página [\d,]+ de [\d,]+\)\n/,
  )
  assert.doesNotMatch(check.stderr, /\r/)
  assert.match(check.stdout, /\nintegridad: ok \(\d+\.\d MB, [\d,]+ páginas, verificada en \d+\.\d s\)\n$/)

  const backup = await runCli(['backup', 'copias/manual.db'], { cwd: dir, terminal: true })
  assert.equal(backup.code, 0, backup.stdout + backup.stderr)
  assert.match(backup.stderr, /^\rcopiando .*manifiesto\.db: \d+ % \(página [\d,]+ de [\d,]+\)/)
  assert.match(backup.stderr, /\rcopiando .*manifiesto\.db: terminado en \d+\.\d s *\n/)
  assert.match(
    backup.stdout,
    /^copia de seguridad creada: .*copias\/manual\.db \(\d+\.\d MB\) en \d+\.\d s; integridad: ok \(\d+\.\d MB, [\d,]+ páginas, verificada en \d+\.\d s\)\. Restáurela, si algún día hace falta, con: manifiesto restaurar .*copias\/manual\.db\n$/,
  )
})
