import assert from 'node:assert/strict'
import { test } from 'node:test'
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks'
import { runInNewContext } from 'node:vm'
import { collectStartupGarbage } from '../../src/app/startup-heap.ts'

test('start-up heap: one full collection runs, and gc stays hidden from the code that runs after it', async () => {
  const collections: PerformanceEntry[] = []
  const observer = new PerformanceObserver((list) => collections.push(...list.getEntries()))
  observer.observe({ entryTypes: ['gc'] })
  collectStartupGarbage()
  // Entries are delivered after the turn that produced them.
  await new Promise((resolve) => setTimeout(resolve, 20))
  observer.disconnect()
  const major = collections.filter(
    (entry) =>
      (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR,
  )
  assert.equal(major.length, 1)
  assert.equal(runInNewContext('typeof globalThis.gc'), 'undefined')
  assert.equal(typeof (globalThis as { gc?: unknown }).gc, 'undefined')
})
