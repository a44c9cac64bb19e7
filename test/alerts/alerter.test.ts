import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import { Writable } from 'node:stream'
import { test } from 'node:test'
import { createAlerter } from '../../src/alerts/alerter.ts'
import { ManualClock } from '../../src/clock.ts'
import { createLogger } from '../../src/logger.ts'
import { freePort } from '../support/cli.ts'

function capturedLog() {
  const lines: Array<Record<string, unknown>> = []
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>)
      done()
    },
  })
  return { lines, log: createLogger({ level: 'debug', file: '' }, sink) }
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10))
}

test('alerts: one per minute per kind of error, another kind still goes, and the window reopens', async () => {
  const received: Array<Record<string, unknown>> = []
  const webhook = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      received.push(JSON.parse(body) as Record<string, unknown>)
      res.end()
    })
  })
  await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve))
  try {
    const clock = new ManualClock('2026-11-22T16:00:00Z')
    const { log } = capturedLog()
    const alerter = createAlerter({ webhookUrl: `http://127.0.0.1:${(webhook.address() as { port: number }).port}/`, log, clock })
    alerter.notify(new TypeError('a'), { path: '/x' })
    alerter.notify(new TypeError('b'), { path: '/x' })
    alerter.notify(new RangeError('c'), { path: '/y' })
    clock.advance(60_000)
    alerter.notify(new TypeError('d'), {})
    await until(() => received.length >= 3)
    await new Promise((resolve) => setTimeout(resolve, 50))
    assert.deepEqual(received.map((alert) => [alert.kind, alert.message]).sort(), [['RangeError', 'c'], ['TypeError', 'a'], ['TypeError', 'd']])
    assert.equal(received.find((alert) => alert.message === 'a')?.path, '/x')
  } finally {
    webhook.close()
  }
})

test('alerts: a delivery failure is logged, never thrown', async () => {
  const { lines, log } = capturedLog()
  const alerter = createAlerter({ webhookUrl: `http://127.0.0.1:${await freePort()}/`, log, clock: new ManualClock('2026-11-22T16:00:00Z') })
  assert.doesNotThrow(() => alerter.notify(new Error('disco lleno'), {}))
  await until(() => lines.some((line) => line.msg === 'no se pudo enviar la alerta'))
  assert.ok(lines.some((line) => line.msg === 'no se pudo enviar la alerta' && line.kind === 'Error'))
})

test('alerts: without a webhook nothing is sent', () => {
  const { lines, log } = capturedLog()
  createAlerter({ webhookUrl: '', log, clock: new ManualClock('2026-11-22T16:00:00Z') }).notify(new Error('x'), {})
  assert.deepEqual(lines, [])
})
