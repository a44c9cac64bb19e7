import type { CliOutput } from './io.ts'

/** What a long step has done so far, in its own unit (pages of a database, bytes of a file). */
export interface ProgressReport {
  done: number
  total: number
}

export interface Progress {
  /** The step has done `done` of `total`. Cheap: writes at most a few times a second. */
  update(report: ProgressReport): void
  /** The step ended: the line says how long it took (and `detail`, e.g. the copy's size). */
  finish(detail?: string): void
}

export interface ProgressOptions {
  /** Milliseconds since some fixed moment (performance.now by default; tests pass their own). */
  now?: () => number
}

/** On a terminal the line is rewritten this often at most. */
const TERMINAL_EVERY_MS = 250
/** Without a terminal (a service manager's log, a scheduled task's file), a line this often at most… */
const PLAIN_EVERY_MS = 10_000
/** …and one at every tenth of the way. */
const PLAIN_STEP = 0.1

/**
 * The progress of one long step of a command, for a person waiting in front of it. On a terminal
 * it is one line rewritten in place — `verificando la copia: 45 % (1.2 GB de 2.6 GB), quedan unos
 * 1 min 20 s` — and when the output is not a terminal, plain lines: at each tenth of the way, and
 * at least every ten seconds. The time left is estimated from the pace so far.
 * @param unit how `done` and `total` are shown: 'bytes' as sizes, 'paginas' as pages of the database.
 */
export function startProgress(
  output: CliOutput,
  label: string,
  unit: 'bytes' | 'paginas',
  options: ProgressOptions = {},
): Progress {
  const now = options.now ?? (() => performance.now())
  const started = now()
  const terminal = output.isTTY === true
  let lastWritten = -Infinity
  let lastShare = 0
  let lastLine = ''
  let open = false

  const describe = ({ done, total }: ProgressReport): string => {
    const share = total > 0 ? Math.min(1, done / total) : 1
    const elapsed = now() - started
    const left = share > 0.01 && share < 1 && elapsed > 1000 ? (elapsed / share) * (1 - share) : null
    const amount =
      unit === 'bytes'
        ? `${formatBytes(done)} de ${formatBytes(total)}`
        : `página ${formatCount(done)} de ${formatCount(total)}`
    return `${label}: ${Math.floor(Math.round(share * 10_000) / 100)} % (${amount})${left === null ? '' : `, quedan unos ${formatDuration(left)}`}`
  }

  return {
    update(report) {
      const at = now()
      const share = report.total > 0 ? report.done / report.total : 1
      if (terminal) {
        if (at - lastWritten < TERMINAL_EVERY_MS) return
        const line = describe(report)
        // The line is padded over what the previous one left on the screen.
        output.write(`\r${line.padEnd(lastLine.length)}`)
        lastLine = line
        open = true
      } else {
        if (at - lastWritten < PLAIN_EVERY_MS && tenthOf(share) === tenthOf(lastShare)) return
        output.write(`${describe(report)}\n`)
      }
      lastWritten = at
      lastShare = share
    },
    finish(detail) {
      const line = `${label}: terminado en ${formatDuration(now() - started)}${detail === undefined ? '' : `, ${detail}`}`
      output.write(terminal && open ? `\r${line.padEnd(lastLine.length)}\n` : `${line}\n`)
    },
  }
}

/** Which tenth of the way a share is in (0.3 is the third, not 2.999…). */
function tenthOf(share: number): number {
  return Math.floor(Math.round(share * 1000) / (PLAIN_STEP * 1000))
}

/** A progress that shows nothing (a step too short to watch, or a caller that only wants the work). */
export const NO_PROGRESS: Progress = { update() {}, finish() {} }

/** `2.6 GB`, `812 MB`, `4.0 KB`, `512 bytes`: powers of 1024, a period for decimals (as in Honduras). */
export function formatBytes(bytes: number): string {
  const units = ['KB', 'MB', 'GB', 'TB']
  if (bytes < 1024) return `${bytes} bytes`
  let value = bytes / 1024
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ${units[unit]}`
}

/** `1 h 02 min`, `3 min 05 s`, `12 s`, `0.4 s`. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, ms) / 1000
  if (seconds < 10) return `${seconds.toFixed(1)} s`
  const whole = Math.round(seconds)
  if (whole < 60) return `${whole} s`
  const minutes = Math.floor(whole / 60)
  if (minutes < 60) return `${minutes} min ${String(whole % 60).padStart(2, '0')} s`
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`
}

function formatCount(value: number): string {
  return value.toLocaleString('en-US')
}
