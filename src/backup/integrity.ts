import type BetterSqlite3 from 'better-sqlite3'

/** How far a verification has got: its phase, and pages done of the phase's total. */
export interface IntegrityProgress {
  phase: 'paginas' | 'tablas'
  done: number
  total: number
}

export interface IntegrityResult {
  /** SQLite's own lines for each problem found; empty when the database is whole. */
  problems: string[]
  pages: number
  pageSize: number
}

/** At most this many problems are listed (SQLite's integrity check lists at most 100 too). */
const MAX_PROBLEMS = 100
/** Progress is reported every this many pages of the first phase. */
const REPORT_EVERY_PAGES = 4096

/**
 * SQLite's integrity check of a whole database, in steps whose progress can be shown (a
 * database of gigabytes takes minutes, and `PRAGMA integrity_check` says nothing until it ends):
 *
 * 1. Every page of every table and index is read once through `dbstat`, counted and weighed per
 *    table. A page no tree or free list accounts for, or one two trees claim, is a problem — the
 *    part of SQLite's check that needs the whole file at once.
 * 2. `PRAGMA integrity_check(TABLE)` for each table with its indexes, the schema's own table first
 *    (its check covers the free list), weighed by their pages from step 1.
 *
 * Together they check what `PRAGMA integrity_check` checks. When either finds anything (or
 * fails), SQLite's full check runs and decides, reporting the problems in its own words.
 * Without `onProgress`, only SQLite's full check runs (one pass, nothing to show).
 * Read-only: `db` may be opened with `readonly: true`.
 */
export function checkIntegrity(
  db: BetterSqlite3.Database,
  onProgress?: (progress: IntegrityProgress) => void,
): IntegrityResult {
  const pages = db.pragma('page_count', { simple: true }) as number
  const pageSize = db.pragma('page_size', { simple: true }) as number
  // The steps read every page twice (the walk, then each table's check): with nobody watching
  // (the service checking its own snapshots), SQLite's single pass is the faster. Pages of an
  // auto-vacuum database cannot be accounted for this way (ours never are): whole check too.
  if (onProgress !== undefined && (db.pragma('auto_vacuum', { simple: true }) as number) === 0) {
    try {
      if (checkInSteps(db, pages, pageSize, onProgress)) return { problems: [], pages, pageSize }
    } catch {
      // A damaged file can fail the page walk itself: SQLite's full check says how.
    }
  }
  // SQLite's own check decides (the steps exist to show progress): its lines are the problems.
  const rows = db.prepare(`PRAGMA integrity_check(${MAX_PROBLEMS})`).pluck().all() as string[]
  // A row may hold several lines, under a heading naming the schema ("*** in database main ***").
  const problems = rows
    .flatMap((row) => row.split('\n'))
    .filter((line) => line !== 'ok' && !/^\*\*\* in database \w+ \*\*\*$/.test(line))
  return { problems, pages, pageSize }
}

/** Steps 1 and 2; true when neither found anything. */
function checkInSteps(
  db: BetterSqlite3.Database,
  pages: number,
  pageSize: number,
  onProgress: (progress: IntegrityProgress) => void,
): boolean {
  const perTable = accountForPages(db, pages, pageSize, onProgress)
  if (perTable === null) return false
  const total = [...perTable.values()].reduce((sum, count) => sum + count, 0)
  let done = 0
  onProgress({ phase: 'tablas', done, total })
  // The schema's table first: its check is the one that walks the free list.
  const tables = [...perTable].sort(([a], [b]) => Number(b === 'sqlite_schema') - Number(a === 'sqlite_schema'))
  for (const [table, count] of tables) {
    const lines = db
      .prepare(`PRAGMA integrity_check(${quoteIdentifier(table)})`)
      .pluck()
      .all() as string[]
    if (lines.some((line) => line !== 'ok')) return false
    done += count
    onProgress({ phase: 'tablas', done, total })
  }
  return true
}

/**
 * Step 1: each page's owner from `dbstat`, in one walk; pages per table (its indexes counted with
 * it). Every page must be in exactly one tree or on the free list, except SQLite's lock-byte
 * page (the one at 1 GiB, never used) and, with auto-vacuum, the pointer-map pages.
 */
function accountForPages(
  db: BetterSqlite3.Database,
  pages: number,
  pageSize: number,
  onProgress: (progress: IntegrityProgress) => void,
): Map<string, number> | null {
  const tableOf = new Map(
    (
      db.prepare("SELECT name, tbl_name FROM sqlite_schema WHERE type IN ('table', 'index')").raw().all() as Array<
        [string, string]
      >
    ).map(([name, table]) => [name, table]),
  )
  tableOf.set('sqlite_schema', 'sqlite_schema')
  const perTable = new Map<string, number>([['sqlite_schema', 0]])
  const seen = new Uint8Array(Math.ceil((pages + 1) / 8))
  let walked = 0
  let misplaced = 0
  onProgress({ phase: 'paginas', done: 0, total: pages })
  for (const [name, pageno] of db.prepare('SELECT name, pageno FROM dbstat').raw().iterate() as IterableIterator<
    [string, number]
  >) {
    const table = tableOf.get(name) ?? name
    perTable.set(table, (perTable.get(table) ?? 0) + 1)
    const byte = pageno >> 3
    const bit = 1 << (pageno & 7)
    // Outside the file, or already claimed by a tree.
    if (pageno < 1 || pageno > pages || (seen[byte]! & bit) !== 0) misplaced++
    else seen[byte]! |= bit
    if (++walked % REPORT_EVERY_PAGES === 0)
      onProgress({ phase: 'paginas', done: Math.min(walked, pages), total: pages })
  }
  onProgress({ phase: 'paginas', done: pages, total: pages })
  const free = db.pragma('freelist_count', { simple: true }) as number
  const lockBytePage = Math.floor(0x40000000 / pageSize) + 1
  const unusable = pages >= lockBytePage ? 1 : 0
  return misplaced === 0 && walked + free + unusable === pages ? perTable : null
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`
}
