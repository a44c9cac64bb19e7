/**
 * Bodies of the worst shapes up to server.maxBodyMB (contract §9: any body answered within 10 s,
 * with bounded memory): floods of tiny values, and bodies padded to sit exactly at the density the
 * intake still parses. Each on a fresh service, so its peak memory is its own.
 */
import { memoryOf, postBatch, startService } from './service.ts'
import type { Bench } from './table.ts'

export async function benchHostileBodies(bench: Bench, megabytes: number): Promise<void> {
  const size = megabytes * 1024 * 1024 - 2
  const flood = (element: string) => Buffer.from(`[${`${element},`.repeat(Math.floor(size / (element.length + 1)) - 1)}${element}]`)
  const padded = (element: string, width: number) => flood(element.padEnd(width - 1, ' '))
  const shapes: Array<[string, () => Buffer]> = [
    ['empty objects', () => flood('{}')],
    ['zeros', () => flood('0')],
    ['fractions, one per 8 bytes (parsed)', () => padded('1.5', 8)],
    ['empty objects, one per 32 bytes (parsed)', () => padded('{}', 32)],
    ['nested arrays, 4 per 128 bytes (parsed)', () => padded('[[[[0]]]]', 128)],
    ['strings that are not invoices (parsed)', () => padded('"no soy una factura"', 24)],
  ]
  let slowest = 0
  let peak = 0
  for (const [, make] of shapes) {
    const body = make()
    const service = await startService(bench.work, { server: { maxBodyMB: megabytes } })
    try {
      const started = performance.now()
      const answer = await postBatch(service.url, body)
      slowest = Math.max(slowest, performance.now() - started)
      if (answer.status !== 422) throw new Error(`hostile body answered ${answer.status}: ${answer.text.slice(0, 200)}`)
      peak = Math.max(peak, memoryOf(service.child, 'VmHWM'))
    } finally {
      await service.stop()
    }
  }
  bench.rows.push(
    { measure: `hostile bodies (${shapes.length} shapes × ${megabytes} MB): slowest answer`, value: slowest, unit: 'ms', budget: 10_000 },
    { measure: 'hostile bodies: largest service peak memory', value: peak, unit: 'MB', budget: 1_500 },
  )
}
