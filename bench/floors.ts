/**
 * The two floors a batch is compared with, each in its own process on the same file:
 * - the BARE floor, `../shared/perf/floor.mjs` (beside the repository, as in CI): JSON.parse and
 *   bare prepared inserts into a minimal schema with no stored original, one transaction. The
 *   budgets of issue 15 are multiples of it.
 * - the project's OWN floor, `bench/floor.ts`: the same bytes into the project's schema (the
 *   invoices pointing at their bytes in the body, every index). Information only: what the schema costs.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { ROOT } from './service.ts'
import { median } from './table.ts'

export const BARE_FLOOR = resolve(ROOT, '../shared/perf/floor.mjs')
export const GENERATOR = resolve(ROOT, '../shared/perf/gen.mjs')
const SMALL_PARENT = join(ROOT, 'bench/small-parent.mjs')
/** bench/floor.ts bundled, so it runs on plain node like the service. */
export const OWN_FLOOR = join(ROOT, 'build/cache/bench/floor.mjs')

/** A floor's measures: of one run, or the median of several (`medianFloor`). */
export interface Floor {
  /** Time of the request path (floor.mjs: its `total_ms`, setup and close excluded). */
  ms: number
  peakMB: number
  /** Database size the floor left (bare floor only). */
  dbBytes?: number
  /** The phases worth showing. */
  parseMs: number
  insertMs: number
}

/** Fails early, naming the folder, when the reference scripts are not beside the repository. */
export function requireSharedPerf(): void {
  for (const file of [BARE_FLOOR, GENERATOR]) {
    if (!existsSync(file))
      throw new Error(`${file} is missing: the bench expects ../shared/perf/ beside the repository (as in CI)`)
  }
}

interface BareFloorLine {
  total_ms: number
  parse_ms: number
  insert_ms: number
  peak_rss_kb: number
  db_bytes: number
}

/** One run of the bare floor, in a process of its own. */
export function bareFloor(file: string): Floor {
  // floor.mjs loads better-sqlite3 from the current folder: the project's root.
  const line = JSON.parse(runNode([BARE_FLOOR, file], 'bare floor')) as BareFloorLine
  return {
    ms: line.total_ms,
    peakMB: line.peak_rss_kb / 1024,
    dbBytes: line.db_bytes,
    parseMs: line.parse_ms,
    insertMs: line.insert_ms,
  }
}

interface OwnFloorLine {
  ms: number
  parseMs: number
  insertMs: number
  peakMB: number
}

/** One run of the project's own floor, in a process of its own, on a fresh database. */
export function ownFloor(file: string, work: string): Floor {
  const line = JSON.parse(runNode([OWN_FLOOR, file, mkdtempSync(join(work, 'floor-'))], 'own floor')) as OwnFloorLine
  return { ms: line.ms, peakMB: line.peakMB, parseMs: line.parseMs, insertMs: line.insertMs }
}

/** Each measure's median over `runs`. */
export function medianFloor(runs: readonly Floor[]): Floor {
  const of = (measure: (run: Floor) => number) => median(runs.map(measure))
  const withSize = runs.every((run) => run.dbBytes !== undefined)
  return {
    ms: of((run) => run.ms),
    peakMB: of((run) => run.peakMB),
    dbBytes: withSize ? of((run) => run.dbBytes!) : undefined,
    parseMs: of((run) => run.parseMs),
    insertMs: of((run) => run.insertMs),
  }
}

/**
 * Writes a batch shaped like the supplier's: gen.mjs N FILE SEED DATE (~8 lines, ~330 per manifest).
 * Batches of different seeds share no invoice or manifest number.
 */
export function generateSupplierBatch(count: number, file: string, date: string, seed = 1): void {
  runNode([GENERATOR, String(count), file, String(seed), date], 'gen.mjs')
}

/**
 * Runs a node script from the project's root, through bench/small-parent.mjs: a floor's peak
 * memory is its own maxRSS, which on Linux starts at its parent's resident size at the fork.
 */
function runNode(args: string[], what: string): string {
  const out = spawnSync(process.execPath, [SMALL_PARENT, process.execPath, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  })
  if (out.status !== 0) throw new Error(`${what} failed (${out.status}): ${out.stderr}`)
  return out.stdout
}
