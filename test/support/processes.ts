import type { ChildProcess } from 'node:child_process'
import { spawnCli, type CliOptions } from './cli.ts'

/**
 * Child processes a test starts, held so that none outlives its test: every wait is bounded and,
 * when it fails, says what the child printed; `stop` ends a child whatever state it is in. A child
 * a test leaves running fails that test anyway (test/support/no-leftovers.ts, loaded by `npm test`).
 */

export interface Exit {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

export interface Watched {
  readonly child: ChildProcess
  /** What it has printed so far, both streams, for a failure's message. */
  printed(): string
  /** Settles once it has exited and its output is closed. */
  readonly exited: Promise<Exit>
}

/** Follows a child's output and exit from now on. */
export function watch(child: ChildProcess): Watched {
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<Exit>((resolve) => {
    // 'close' comes after 'exit' once the output is read; a child that never started gives 'error' alone.
    child.once('close', (code: number | null, signal: NodeJS.Signals | null) =>
      resolve({ code, signal, stdout, stderr }),
    )
    child.once('error', (error) => {
      stderr += `\n${error.message}`
      if (child.pid === undefined) resolve({ code: null, signal: null, stdout, stderr })
    })
  })
  return { child, exited, printed: () => describeOutput(stdout, stderr) }
}

/** `manifiesto serve …` from source, up and answering ping 200 (see `waitForPing`); stopped again if it does not get there. */
export async function startServe(args: string[], options: CliOptions & { url: string }): Promise<Watched> {
  const served = watch(spawnCli(['serve', ...args], options))
  try {
    const ping = await waitForPing(options.url, served)
    if (ping.status !== 200)
      throw new Error(`ping at ${options.url} answered ${ping.status}: ${await ping.text()}\n${served.printed()}`)
  } catch (error) {
    await stop(served)
    throw error
  }
  return served
}

/** `manifiesto …` from source, run to its end (see `finished`: killed, failing, if it runs past `withinMs`). */
export function runToEnd(args: string[], options: CliOptions, withinMs = 60_000): Promise<Exit> {
  return finished(watch(spawnCli(args, options)), withinMs)
}

/**
 * Polls `url`/api/v1/ping until it answers, for up to `withinMs` (60 s: a service starting from
 * source on a loaded two-core machine takes a few). Fails at once if the child exits first, and
 * either way with what the child printed.
 */
export async function waitForPing(url: string, watched: Watched, withinMs = 60_000): Promise<Response> {
  const until = Date.now() + withinMs
  let exit: Exit | undefined
  void watched.exited.then((result) => (exit = result))
  let lastError: unknown
  while (Date.now() < until) {
    if (exit !== undefined)
      throw new Error(
        `the child exited (${exit.code ?? exit.signal}) before answering ping at ${url}\n${watched.printed()}`,
      )
    try {
      return await fetch(`${url}/api/v1/ping`, { signal: AbortSignal.timeout(5_000) })
    } catch (error) {
      lastError = error
      await sleep(100)
    }
  }
  throw new Error(
    `no answer to ping at ${url} within ${withinMs / 1000} s (last: ${String(lastError)})\n${watched.printed()}`,
  )
}

/**
 * Waits for a child to end by itself, for up to `withinMs`; past that it is killed and the wait
 * fails with what it printed.
 */
export async function finished(watched: Watched, withinMs = 60_000): Promise<Exit> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), withinMs)))
  const outcome = await Promise.race([watched.exited, late])
  clearTimeout(timer)
  if (outcome !== 'late') return outcome
  await stop(watched, 0)
  throw new Error(`the child did not end within ${withinMs / 1000} s: killed\n${watched.printed()}`)
}

/**
 * Ends a child, whatever state it is in: SIGTERM (a graceful stop), then SIGKILL if it is still
 * running `graceMs` later; resolves once it has exited. A child that already exited is left alone.
 */
export async function stop(watched: Watched, graceMs = 10_000): Promise<Exit> {
  const { child } = watched
  if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
    child.kill(graceMs === 0 ? 'SIGKILL' : 'SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
    try {
      return await watched.exited
    } finally {
      clearTimeout(timer)
    }
  }
  return watched.exited
}

function describeOutput(stdout: string, stderr: string): string {
  const tail = (text: string) => (text.length > 4_000 ? `…${text.slice(-4_000)}` : text)
  return `--- stdout ---\n${tail(stdout) || '(nothing)'}\n--- stderr ---\n${tail(stderr) || '(nothing)'}`
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
