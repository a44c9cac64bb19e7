import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { test } from 'node:test'
import { createAlerter } from '../../src/alerts/alerter.ts'
import { ManualClock } from '../../src/core/clock.ts'
import { createLogger } from '../../src/logging/logger.ts'
import { freePort } from '../support/cli.ts'
import { startWebhook } from '../support/webhook.ts'

function capturedLog(clock = new ManualClock('2026-11-22T16:00:00Z')) {
  const lines: Array<Record<string, unknown>> = []
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>)
      done()
    },
  })
  return { lines, log: createLogger({ level: 'debug', file: '', keepDays: 30 }, { clock, stdout: sink }) }
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10))
}

test('alerts: one per minute per kind of error, another kind still goes, and the window reopens', async () => {
  const webhook = await startWebhook()
  const received = webhook.received
  try {
    const clock = new ManualClock('2026-11-22T16:00:00Z')
    const { log } = capturedLog()
    const alerter = createAlerter({ webhookUrl: webhook.url, log, clock })
    alerter.notify(new TypeError('a'), { path: '/x' })
    alerter.notify(new TypeError('b'), { path: '/x' })
    alerter.notify(new RangeError('c'), { path: '/y' })
    clock.advance(60_000)
    alerter.notify(new TypeError('d'), {})
    await webhook.settle(3)
    assert.deepEqual(received.map((alert) => [alert.kind, alert.message]).sort(), [
      ['RangeError', 'c'],
      ['TypeError', 'a'],
      ['TypeError', 'd'],
    ])
    assert.equal(received.find((alert) => alert.message === 'a')?.path, '/x')
  } finally {
    await webhook.close()
  }
})

test('alerts: a delivery failure is logged, never thrown', async () => {
  const { lines, log } = capturedLog()
  const alerter = createAlerter({
    webhookUrl: `http://127.0.0.1:${await freePort()}/`,
    log,
    clock: new ManualClock('2026-11-22T16:00:00Z'),
  })
  assert.doesNotThrow(() => alerter.notify(new Error('disco lleno'), {}))
  await until(() => lines.some((line) => line.msg === 'no se pudo enviar la alerta'))
  assert.ok(lines.some((line) => line.msg === 'no se pudo enviar la alerta' && line.kind === 'Error'))
})

test('alerts: without a webhook nothing is sent', () => {
  const { lines, log } = capturedLog()
  createAlerter({ webhookUrl: '', log, clock: new ManualClock('2026-11-22T16:00:00Z') }).notify(new Error('x'), {})
  assert.deepEqual(lines, [])
})

test('alerts: notices — at most 30 of a kind in any hour (then logged, not sent), another kind still goes, the hour slides', async () => {
  const webhook = await startWebhook()
  const received = webhook.received
  try {
    const clock = new ManualClock('2026-11-22T16:00:00Z')
    const { lines, log } = capturedLog()
    const alerter = createAlerter({ webhookUrl: webhook.url, log, clock })
    for (let i = 1; i <= 31; i++) {
      alerter.notice('reemisiones', `lote ${i}`, { batch_uuid: String(i) })
      clock.advance(60_000)
    }
    alerter.notice('otro', 'otro aviso', {})
    alerter.notify(new TypeError('falla'), {})
    clock.set('2026-11-22T17:00:00.001Z') // an hour after the first notice: it left the window
    alerter.notice('reemisiones', 'lote 32', {})
    await webhook.settle(33)
    const messages = received
      .map((alert) => `${String(alert.level)} ${String(alert.kind)}: ${String(alert.message)}`)
      .sort()
    assert.equal(messages.length, 33) // 30 + otro + the error + lote 32
    assert.ok(!messages.includes('aviso reemisiones: lote 31'))
    assert.ok(messages.includes('aviso reemisiones: lote 32'))
    assert.ok(messages.includes('aviso otro: otro aviso'))
    assert.ok(messages.includes('error TypeError: falla'))
    assert.equal(received.find((alert) => alert.message === 'lote 1')?.batch_uuid, '1')
    assert.ok(
      lines.some(
        (line) =>
          line.msg === 'aviso omitido: ya se enviaron 30 de este tipo en la última hora' && line.kind === 'reemisiones',
      ),
    )
  } finally {
    await webhook.close()
  }
})

test('alerts: without a webhook no notice is sent either', () => {
  const { lines, log } = capturedLog()
  createAlerter({ webhookUrl: '', log, clock: new ManualClock('2026-11-22T16:00:00Z') }).notice('reemisiones', 'x', {})
  assert.deepEqual(lines, [])
})
