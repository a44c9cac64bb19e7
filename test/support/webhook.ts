import { createServer } from 'node:http'

export interface TestWebhook {
  url: string
  /** Every JSON body received, in order of arrival. */
  received: Array<Record<string, unknown>>
  /** Waits (up to 2 s) until `count` bodies arrived, then a moment more for any extra one. */
  settle: (count: number) => Promise<void>
  /** Stops listening and drops the connections the service keeps open to it. */
  close: () => Promise<void>
}

/** A webhook on loopback that keeps what it receives (alerts, notices). */
export async function startWebhook(path = '/'): Promise<TestWebhook> {
  const received: Array<Record<string, unknown>> = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      received.push(JSON.parse(body) as Record<string, unknown>)
      res.end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}${path}`,
    received,
    settle: async (count) => {
      for (let i = 0; i < 200 && received.length < count; i++) await new Promise((resolve) => setTimeout(resolve, 10))
      await new Promise((resolve) => setTimeout(resolve, 50))
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
