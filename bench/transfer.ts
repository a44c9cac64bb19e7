/**
 * The bare HTTP transfer of a batch: bench/bare-http.mjs (node:http, the body hashed and copied,
 * nothing else) on a fresh process, sent the batch by the client that sends it to the service.
 * Information beside the bare floor, which reads the batch from a file: how much of the service's
 * end-to-end time the transport alone takes on this machine.
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { postBatch, ROOT, settleClient } from './service.ts'

const BARE_HTTP = join(ROOT, 'bench/bare-http.mjs')

/** One run: ms from the request to the whole answer. */
export async function bareTransfer(body: Buffer): Promise<number> {
  const server = spawn(process.execPath, [BARE_HTTP], { stdio: ['ignore', 'pipe', 'inherit'] })
  try {
    const port = await new Promise<number>((resolve, reject) => {
      server.stdout.once('data', (line: Buffer) => resolve(Number(line.toString('utf8').trim())))
      server.once('exit', (code) => reject(new Error(`bench/bare-http.mjs exited (${code}) before listening`)))
    })
    settleClient()
    const started = performance.now()
    const answer = await postBatch(`http://127.0.0.1:${port}`, body)
    const ms = performance.now() - started
    if (answer.status !== 200 || (JSON.parse(answer.text) as { bytes: number }).bytes !== body.length)
      throw new Error(`bare HTTP transfer answered ${answer.status}: ${answer.text}`)
    return ms
  } finally {
    // Gone before the next measure starts, not dying beside it.
    const exited = new Promise((resolve) => server.once('exit', resolve))
    if (server.exitCode === null && server.signalCode === null) {
      server.kill()
      await exited
    }
  }
}
