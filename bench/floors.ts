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

export interface FloorRuns {
  /** Median time of the request path (floor.mjs: its `total_ms`, setup and close excluded). */
  ms: number
  peakMB: number
  /** Median database size the floor left (bare floor only). */
  dbBytes?: number
  /** Median of the phases worth showing. */
  parseMs: number
  insertMs: number
}

/** Fails early, naming the folder, when the reference scripts are not beside the repository. */
export function requireSharedPerf(): void {
  for (const file of [BARE_FLOOR, GENERATOR]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: the bench expects ../shared/perf/ beside the repository (as in CI)`)
  }
}

interface BareFloorLine {
  total_ms: number
  parse_ms: number
  insert_ms: number
  peak_rss_kb: number
  db_bytes: number
}

export function bareFloor(file: string, runs: number): FloorRuns {
  // floor.mjs loads better-sqlite3 from the current folder: the project's root.
  const lines = repeat(runs, () => JSON.parse(runNode([BARE_FLOOR, file], 'bare floor')) as BareFloorLine)
  return {
    ms: median(lines.map((line) => line.total_ms)),
    peakMB: median(lines.map((line) => line.peak_rss_kb / 1024)),
    dbBytes: median(lines.map((line) => line.db_bytes)),
    parseMs: median(lines.map((line) => line.parse_ms)),
    insertMs: median(lines.map((line) => line.insert_ms)),
  }
}

interface OwnFloorLine {
  ms: number
  parseMs: number
  insertMs: number
  peakMB: number
}

export function ownFloor(file: string, work: string, runs: number): FloorRuns {
  const lines = repeat(runs, () => JSON.parse(runNode([OWN_FLOOR, file, mkdtempSync(join(work, 'floor-'))], 'own floor')) as OwnFloorLine)
  return {
    ms: median(lines.map((line) => line.ms)),
    peakMB: median(lines.map((line) => line.peakMB)),
    parseMs: median(lines.map((line) => line.parseMs)),
    insertMs: median(lines.map((line) => line.insertMs)),
  }
}

/** Writes a batch shaped like the supplier's: gen.mjs N FILE SEED DATE (~8 lines, ~330 per manifest). */
export function generateSupplierBatch(count: number, file: string, date: string): void {
  runNode([GENERATOR, String(count), file, '1', date], 'gen.mjs')
}

/**
 * Runs a node script from the project's root, through bench/small-parent.mjs: a floor's peak
 * memory is its own maxRSS, which on Linux starts at its parent's resident size at the fork.
 */
function runNode(args: string[], what: string): string {
  const out = spawnSync(process.execPath, [SMALL_PARENT, process.execPath, ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 20 })
  if (out.status !== 0) throw new Error(`${what} failed (${out.status}): ${out.stderr}`)
  return out.stdout
}

function repeat<T>(times: number, make: () => T): T[] {
  return Array.from({ length: times }, make)
}
