/** The bench's one table: rows of measures, their budgets and verdicts. */
import { cpus, loadavg } from 'node:os'

export interface Row {
  measure: string
  /** null: not measured (the row says why in `note`). */
  value: number | null
  unit: string
  /** An absolute budget in `unit`. */
  budget?: number
  /** The value the row is a multiple of, in the same unit (by default the bare floor's): the row shows its ratio to it. */
  floor?: number
  /** What `floor` is, in the budget's words (default "bare floor"). */
  basis?: string
  /** Budget as a multiple of `floor`. */
  ratioBudget?: number
  /** Anything a reader needs beside the number (cold time, sizes, why n/a). */
  note?: string
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

export function format(value: number): string {
  return value >= 100 ? value.toFixed(0) : value.toFixed(1)
}

/** Node, cores, load and date: the numbers below are only comparable with these. */
export function headerLine(mode: string): string {
  const load = loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')
  return `manifiesto bench — ${mode} — node ${process.versions.node}, ${cpus().length} CPUs (load ${load}), ${new Date().toISOString()}`
}

/** Prints the table; returns how many budgets were missed. */
export function printTable(header: string, rows: Row[]): number {
  let missed = 0
  const lines = rows.map((row) => {
    const limit = row.ratioBudget !== undefined && row.floor !== undefined ? row.ratioBudget * row.floor : row.budget
    const verdict = row.value === null ? 'n/a' : limit === undefined ? '' : row.value <= limit ? 'pass' : 'MISS'
    if (verdict === 'MISS') missed++
    const basis = row.basis ?? 'bare floor'
    const budget =
      row.ratioBudget !== undefined
        ? `≤ ${row.ratioBudget}× ${basis}${limit === undefined ? '' : ` (${format(limit)} ${row.unit})`}`
        : row.budget !== undefined
          ? `≤ ${row.budget} ${row.unit}`
          : ''
    const ratio =
      row.floor !== undefined && row.value !== null
        ? `${(row.value / row.floor).toFixed(2)}×${row.basis === undefined ? '' : ` ${row.basis}`}`
        : ''
    return [
      row.measure,
      row.value === null ? '—' : `${format(row.value)} ${row.unit}`,
      budget,
      ratio,
      verdict,
      row.note ?? '',
    ]
  })
  const titles = ['measure', 'median', 'budget', 'ratio (to the bare floor unless named)', 'result', 'note']
  const widths = titles.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i]!.length)))
  const print = (cells: string[]) => console.log(`| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`)
  console.log(`\n${header}\n`)
  print(titles)
  print(widths.map((width) => '-'.repeat(width)))
  for (const line of lines) print(line)
  console.log(missed === 0 ? '\nEvery budget met.' : `\n${missed} budget(s) missed.`)
  return missed
}

/** What every group of the bench gets: the run's settings and the table it adds rows to. */
export interface Bench {
  /** `--smoke`: the smallest sizes, one run, no budget enforced. */
  smoke: boolean
  runs: number
  /** A temporary folder, removed after the run. */
  work: string
  /** Today in Honduras (UTC-6), YYYY-MM-DD: the invoices' date. */
  today: string
  rows: Row[]
}
