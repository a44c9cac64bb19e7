import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url))
const TSX = import.meta.resolve('tsx')

export interface CliResult {
  code: number | null
  stdout: string
  stderr: string
}

export interface CliOptions {
  cwd: string
  env?: Record<string, string>
  /** Written to the command's standard input (which is otherwise closed). */
  input?: string
  /** The command's limit of open files (soft and hard, so Node cannot raise it), set by `ulimit -n`. */
  maxOpenFiles?: number
}

/** Starts `manifiesto <args>` from source as a child process, in `cwd`, with only `env` added. */
export function spawnCli(args: string[], options: CliOptions): ChildProcess {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, ...options.env }
  const command = [process.execPath, '--import', TSX, CLI, ...args]
  // `exec` keeps the child's pid the service's own, so signals and /proc/<pid> reach it.
  const [file, ...rest] = options.maxOpenFiles === undefined ? command : ['sh', '-c', 'ulimit -n "$0" && exec "$@"', String(options.maxOpenFiles), ...command]
  const child = spawn(file!, rest, { cwd: options.cwd, env, stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] })
  if (options.input !== undefined) child.stdin?.end(options.input)
  return child
}

/** Runs a command to its end. */
export function runCli(args: string[], options: CliOptions): Promise<CliResult> {
  const child = spawnCli(args, options)
  return collect(child)
}

export function collect(child: ChildProcess): Promise<CliResult> {
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })))
}

export { freePort } from '../../build/free-port.ts'

/** Polls until ping answers (or gives up after ~10 s). */
export async function waitForPing(url: string): Promise<Response> {
  let lastError: unknown
  for (let i = 0; i < 200; i++) {
    try {
      return await fetch(`${url}/api/v1/ping`)
    } catch (error) {
      lastError = error
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  throw lastError
}
