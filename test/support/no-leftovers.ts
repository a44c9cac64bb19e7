import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { Server } from 'node:net'
import { after, afterEach, beforeEach } from 'node:test'

/**
 * Loaded into every test file's process (`npm test` runs node with `--import
 * ./test/support/no-leftovers.ts`): no child process and no server outlives the test that
 * started it, and no test file waits forever on one.
 *
 * - A test that ends with a child process it started still running, or a server it started still
 *   listening, fails naming it; the process (with its own children) is killed, the server closed.
 *   (Tests that overlap — subtests, concurrent tests — are checked together as the last one ends.)
 * - Once the file's last test has ended, its `after` hooks have 30 s to let the process end; a
 *   process still held open then (a child or a server started in `before`, a timer…) fails the
 *   file, saying what holds it, and is ended. So does a child still running as the process exits.
 * - When the runner stops a file that ran past `--test-timeout` (SIGTERM), every child is killed
 *   before the file's process exits, so nothing is left holding a port or a database.
 *
 * Children are read from Linux's /proc (elsewhere only servers are checked). esbuild's service,
 * which tsx starts once per process to compile TypeScript, is not a test's child and is left alone.
 */

interface Running {
  pid: number
  command: string
}

/** How long a test's child may take to exit after the test ends (one stopped without waiting). */
const GRACE_MS = 5_000
/** How long the file's `after` hooks have, once its last test ended, to let its process end. */
const AFTER_MS = 30_000

const orchestrator = process.execArgv.includes('--test') && process.env.NODE_TEST_CONTEXT === undefined
if (!orchestrator) {
  // Tests that overlap (a test and its subtests, a describe's concurrent tests) are checked as one,
  // when the last of them ends: one test never ends what another, still running, started.
  const running = new Set<unknown>()
  let before = { children: new Set<number>(), servers: new Set<Server>() }
  beforeEach((t) => {
    if (running.size === 0)
      before = { children: new Set(runningChildren().map((child) => child.pid)), servers: new Set(listeningServers()) }
    running.add(t)
  })
  afterEach(async (t) => {
    running.delete(t)
    if (running.size > 0) return
    // What a process already running before the test starts (the browser a file launched in `before`
    // starting a utility process when a page first uses storage) is that process's, not the test's.
    const children = () => runningChildren(before.children).filter((child) => !before.children.has(child.pid))
    const servers = () => listeningServers().filter((server) => !before.servers.has(server))
    for (const until = Date.now() + GRACE_MS; children().length + servers().length > 0 && Date.now() < until;)
      await sleep(50)
    const left = { children: children(), servers: servers() }
    if (left.children.length + left.servers.length === 0) return
    const what = describe(left.children, left.servers)
    kill(left.children)
    for (const server of left.servers) closeServer(server)
    throw new Error(`the test left ${what} (now ended): stop what a test starts in a finally, or in an after hook`)
  })
  let ended = false
  after(() => {
    setTimeout(() => {
      const children = runningChildren()
      const servers = listeningServers()
      kill(children)
      ended = true
      process.stderr.write(
        `the test file's process was still held open ${AFTER_MS / 1000} s after its last test: ${describe(children, servers)}; ` +
          `open handles: ${
            activeHandles()
              .map((handle) => (handle as object | null)?.constructor?.name ?? typeof handle)
              .join(', ') || 'none'
          }. Ended here.\n`,
      )
      process.exit(1)
    }, AFTER_MS).unref()
  })
  process.on('exit', () => {
    const left = ended ? [] : runningChildren()
    if (left.length === 0) return
    kill(left)
    process.stderr.write(`${describe(left, [])} still running as the test file ended (now killed)\n`)
    process.exitCode = 1
  })
  process.once('SIGTERM', () => {
    const left = runningChildren()
    kill(left)
    process.stderr.write(
      `stopped by the test runner (past --test-timeout?)${left.length === 0 ? '' : `; killed ${describe(left, [])}`}\n`,
    )
    process.exit(1)
  })
}

/** This process's descendants that are running (not zombies), parents before their children. */
function runningChildren(notInside: ReadonlySet<number> = new Set()): Running[] {
  if (!existsSync('/proc/self/task')) return []
  const found: Running[] = []
  const queue = childrenOf(process.pid)
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    const command = commandOf(pid)
    if (command === null || isEsbuildService(command)) continue
    found.push({ pid, command })
    if (!notInside.has(pid)) queue.push(...childrenOf(pid))
  }
  return found
}

/** A process's children, from each of its threads' `children` list (Linux 3.5+). */
function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((thread) =>
      readFileSync(`/proc/${pid}/task/${thread}/children`, 'utf8')
        .split(' ')
        .filter((entry) => entry.trim() !== '')
        .map(Number),
    )
  } catch {
    return []
  }
}

/** Its command line, or null when it is gone or a zombie (exited, not yet reaped). */
function commandOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return null
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim()
  } catch {
    return null
  }
}

function isEsbuildService(command: string): boolean {
  return /\besbuild\b/.test(command) && command.includes('--service')
}

function kill(processes: readonly Running[]): void {
  for (const { pid } of processes) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // Gone meanwhile.
    }
  }
}

/** The servers of this process (node:http, node:net, the webhooks…) listening now. */
function listeningServers(): Server[] {
  return activeHandles().filter((handle): handle is Server => handle instanceof Server && handle.listening)
}

/** What keeps the event loop alive (undocumented, but there since Node 0.x; [] if it goes). */
function activeHandles(): unknown[] {
  const node = process as unknown as { _getActiveHandles?: () => unknown[] }
  return node._getActiveHandles?.() ?? []
}

function closeServer(server: Server): void {
  ;(server as Server & { closeAllConnections?: () => void }).closeAllConnections?.()
  server.close()
}

function describe(children: readonly Running[], servers: readonly Server[]): string {
  const processes = children.map(
    ({ pid, command }) => `process ${pid} (${command.length > 160 ? `${command.slice(0, 160)}…` : command})`,
  )
  const listening = servers.map((server) => {
    const address = server.address()
    return `a server listening on ${typeof address === 'string' ? address : `${address?.address}:${address?.port}`}`
  })
  return [...processes, ...listening].join(', ') || 'nothing of its own'
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
