import type { Clock } from '../core/clock.ts'

/** Where a command writes: the process's stdout or stderr, or a test's buffer. */
export interface CliOutput {
  write(text: string): unknown
  /** A terminal: progress is one line rewritten in place; otherwise plain lines. */
  isTTY?: boolean
  columns?: number
}

/** Where a command reads a password from: the process's stdin, or a test's text. */
export type CliInput = NodeJS.ReadableStream & {
  isTTY?: boolean
  setRawMode?: (mode: boolean) => unknown
}

/**
 * Everything a command touches of the process it runs in, passed in (src/manifiesto.ts gives the
 * real ones; tests give buffers, a folder and an environment of their own).
 */
export interface CliIo {
  stdout: CliOutput
  stderr: CliOutput
  stdin: CliInput
  /** The folder relative paths on the command line are taken from. */
  cwd: string
  /** The environment the configuration reads; undefined: the process's own (read by config.ts). */
  env?: NodeJS.ProcessEnv
  /** The clock of dated names and durations; undefined: the system clock in the configured zone. */
  clock?: Clock
  /**
   * Called once `serve` listens, with the handle that stops it. The program leaves stopping to
   * the signals (SIGTERM, Ctrl+C); a test that runs `serve` in its own process stops it here.
   */
  serving?: (service: { stop: () => Promise<void> }) => void
}

/** A line on stdout. */
export function say(io: Pick<CliIo, 'stdout'>, text: string): void {
  io.stdout.write(`${text}\n`)
}

/** A line on stderr. */
export function complain(io: Pick<CliIo, 'stderr'>, text: string): void {
  io.stderr.write(`${text}\n`)
}
