import { spawn, type ChildProcess } from 'node:child_process'
import { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { runCli as runCommandLine, SERVING } from '../../src/cli.ts'
import type { CliIo } from '../../src/commands/io.ts'

const PROGRAM = fileURLToPath(new URL('../../src/manifiesto.ts', import.meta.url))
const TSX = import.meta.resolve('tsx')

export interface CliResult {
  code: number | null
  stdout: string
  stderr: string
}

export interface CliOptions {
  cwd: string
  env?: Record<string, string>
  /** Written to the command's standard input (which is otherwise empty). */
  input?: string
  /** The command's limit of open files (soft and hard, so Node cannot raise it), set by `ulimit -n` (spawned only). */
  maxOpenFiles?: number
  /** In-process: the output is a terminal (progress is then one line refreshed in place), or not. */
  terminal?: boolean
}

/** An io for runCli that keeps what is written, reads `input`, and never touches the test's process. */
export function bufferIo(options: CliOptions): CliIo & { out: () => string; err: () => string } {
  let out = ''
  let err = ''
  const stdin = Readable.from(options.input === undefined ? [] : [options.input]) as unknown as CliIo['stdin']
  return {
    stdout: { write: (text: string) => (out += text), isTTY: options.terminal === true },
    stderr: { write: (text: string) => (err += text), isTTY: options.terminal === true },
    stdin,
    cwd: options.cwd,
    env: options.env ?? {},
    out: () => out,
    err: () => err,
  }
}

/**
 * Runs `manifiesto <args>` in this process (runCli, not a child): the environment is `env` alone,
 * relative paths are taken from `cwd`. Should `serve` start, it is stopped at once and the
 * result's code is SERVING — a test of a failing start then fails, and nothing is left running.
 */
export async function runCli(args: string[], options: CliOptions): Promise<CliResult> {
  const io = bufferIo(options)
  const stops: Array<Promise<void>> = []
  const code = await runCommandLine(args, { ...io, serving: (service) => stops.push(service.stop()) })
  await Promise.all(stops)
  return { code: code === SERVING ? SERVING : code, stdout: io.out(), stderr: io.err() }
}

/**
 * Starts `manifiesto <args>` from source as a child process, in `cwd`, with only `env` added. Tests
 * start, wait for and stop children through test/support/processes.ts, never this alone.
 */
export function spawnCli(args: string[], options: CliOptions): ChildProcess {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, ...options.env }
  const command = [process.execPath, '--import', TSX, PROGRAM, ...args]
  // `exec` keeps the child's pid the service's own, so signals and /proc/<pid> reach it.
  const [file, ...rest] =
    options.maxOpenFiles === undefined
      ? command
      : ['sh', '-c', 'ulimit -n "$0" && exec "$@"', String(options.maxOpenFiles), ...command]
  const child = spawn(file!, rest, {
    cwd: options.cwd,
    env,
    stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  })
  if (options.input !== undefined) child.stdin?.end(options.input)
  return child
}

export { freePort } from '../../build/free-port.ts'
