/**
 * Bodies of the worst shapes up to server.maxBodyMB (contract §9: any body answered within 10 s,
 * with bounded memory, and other requests answered within 1 s meanwhile): floods of tiny values,
 * bodies padded to sit exactly at the density the intake still parses, one text as large as the
 * body, and bytes that stop being UTF-8 at the end. Each on a fresh service, so its peak memory is
 * its own; a ping loop runs beside each.
 */
import { invoice } from '../test/support/batches.ts'
import { PING_STALL_BUDGET_MS } from './batches.ts'
import { memoryOf, pingsWhile, postBatch, startService } from './service.ts'
import { format, type Bench } from './table.ts'

export async function benchHostileBodies(bench: Bench, megabytes: number): Promise<void> {
  const size = megabytes * 1024 * 1024 - 2
  const flood = (element: string) =>
    Buffer.from(`[${`${element},`.repeat(Math.floor(size / (element.length + 1)) - 1)}${element}]`)
  const padded = (element: string, width: number) => flood(element.padEnd(width - 1, ' '))
  const shapes: Array<[string, () => Buffer]> = [
    ['empty objects', () => flood('{}')],
    ['zeros', () => flood('0')],
    ['fractions, one per 8 bytes (parsed)', () => padded('1.5', 8)],
    ['empty objects, one per 32 bytes (parsed)', () => padded('{}', 32)],
    ['nested arrays, 4 per 128 bytes (parsed)', () => padded('[[[[0]]]]', 128)],
    ['strings that are not invoices (parsed)', () => padded('"no soy una factura"', 24)],
    ['one invoice whose Cliente fills the body (parsed)', () => oneLongText(size)],
    ['empty objects, the last byte not UTF-8', () => notUtf8AtTheEnd(flood('{}'))],
  ]
  let slowest = 0
  let peak = 0
  let stalled = { ms: 0, shape: '' }
  for (const [shape, make] of shapes) {
    const body = make()
    const service = await startService(bench.work, { server: { maxBodyMB: megabytes } })
    try {
      const started = performance.now()
      const { result: answer, stall } = await pingsWhile(service.url, () => postBatch(service.url, body))
      slowest = Math.max(slowest, performance.now() - started)
      if (answer.status !== 422)
        throw new Error(`hostile body (${shape}) answered ${answer.status}: ${answer.text.slice(0, 200)}`)
      if (stall.longestMs > stalled.ms) stalled = { ms: stall.longestMs, shape }
      peak = Math.max(peak, memoryOf(service.child, 'VmHWM'))
    } finally {
      await service.stop()
    }
  }
  bench.rows.push(
    {
      measure: `hostile bodies (${shapes.length} shapes × ${megabytes} MB): slowest answer`,
      value: slowest,
      unit: 'ms',
      budget: 10_000,
    },
    { measure: 'hostile bodies: largest service peak memory', value: peak, unit: 'MB', budget: 1_500 },
    {
      measure: 'hostile bodies: longest ping while one is handled',
      value: stalled.ms,
      unit: 'ms',
      budget: PING_STALL_BUDGET_MS,
      note: `${stalled.shape}, ${format(stalled.ms)} ms`,
    },
  )
}

/** The example invoice with a Cliente as long as the body allows (step 3 refuses it, naming it). */
function oneLongText(size: number): Buffer {
  const text = JSON.stringify([invoice('F-1', '905112', { Cliente: '' })])
  return Buffer.from(text.replace('"Cliente":""', `"Cliente":"${'A'.repeat(size - text.length)}"`))
}

/** The body with its last byte before the closing bracket made a lone UTF-8 continuation byte. */
function notUtf8AtTheEnd(body: Buffer): Buffer {
  body[body.length - 2] = 0x80
  return body
}
