import { spawn, type ChildProcess } from 'node:child_process'
import { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { runCli as runCommandLine, SERVING } from '../../src/cli.ts'
import type { CliIo } from '../../src/commands/io.ts'

const PROGRAM = fileURLToPath(new URL('../../src/manifiesto.ts', import.meta.url))
const TSX = import.meta.resolve('tsx')

/** How long a spawned service may take to answer its first ping (a loaded two-core machine is slow). */
export const START_WAIT_MS = 60_000
/** How long a stopped child may take to exit before it is killed. */
const STOP_WAIT_MS = 30_000

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
  /** Spawned: a terminal's width makes no difference, but its presence does (progress is one line). */
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

/** Starts `manifiesto <args>` from source as a child process, in `cwd`, with only `env` added. */
export function spawnCli(args: string[], options: CliOptions): ChildProcess {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, ...options.env }
  const command = [process.execPath, '--import', TSX, PROGRAM, ...args]
  // `exec` keeps the child's pid the service's own, so signals and /proc/<pid> reach it.
  const [file, ...rest] = options.maxOpenFiles === undefined ? command : ['sh', '-c', 'ulimit -n "$0" && exec "$@"', String(options.maxOpenFiles), ...command]
  const child = spawn(file!, rest, { cwd: options.cwd, env, stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] })
  if (options.input !== undefined) child.stdin?.end(options.input)
  return child
}

/** A command started as a child process: what it printed so far, its end, and how to stop it. */
export interface RunningCli {
  child: ChildProcess
  /** Everything it wrote so far, stdout then stderr. */
  output(): string
  finished: Promise<CliResult>
  /**
   * Sends `signal` (SIGTERM) and waits for the end; killed when it does not end within 30 s.
   * Safe to call more than once, and after it ended.
   */
  stop(signal?: NodeJS.Signals): Promise<CliResult>
}

/** Starts `manifiesto <args>` as a child process; call `stop()` in a `finally`, whatever happens. */
export function startCli(args: string[], options: CliOptions): RunningCli {
  const child = spawnCli(args, options)
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const finished = new Promise<CliResult>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })))
  return {
    child,
    output: () => [stdout, stderr].filter(Boolean).join('\n--- stderr ---\n'),
    finished,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill(signal)
        const killer = setTimeout(() => child.kill('SIGKILL'), STOP_WAIT_MS)
        try {
          return await finished
        } finally {
          clearTimeout(killer)
        }
      }
      return finished
    },
  }
}

/** Runs a command as a child process to its end. */
export function collect(child: ChildProcess): Promise<CliResult> {
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })))
}

export { freePort } from '../../build/free-port.ts'

/**
 * Polls until ping answers; gives up after `START_WAIT_MS` (60 s), or as soon as the child ends,
 * with an error that shows what it printed.
 */
export async function waitForPing(url: string, service?: RunningCli): Promise<Response> {
  const deadline = Date.now() + START_WAIT_MS
  let lastError: unknown
  while (Date.now() < deadline) {
    try {
      return await fetch(`${url}/api/v1/ping`)
    } catch (error) {
      lastError = error
    }
    if (service !== undefined && (service.child.exitCode !== null || service.child.signalCode !== null)) {
      const result = await service.finished
      throw new Error(`the service ended (exit code ${result.code}) before answering ping; it printed:\n${service.output()}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`no ping answer at ${url} within ${START_WAIT_MS / 1000} s (${String(lastError)})${service === undefined ? '' : `; the service printed:\n${service.output()}`}`)
}
