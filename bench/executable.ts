/** Idle memory of the bundled service, and the built executable's start and idle memory. */
import { existsSync } from 'node:fs'
import { EXECUTABLE, memoryOf, sleep, startService } from './service.ts'
import { median, type Bench } from './table.ts'

/** Issue 15: executable start to first ping; contract §8: idle resident memory. */
/** Contract §8: start to first ping ≤ 500 ms. */
const START_BUDGET_MS = 500
const IDLE_BUDGET_MB = 120

export async function benchIdleAndStart(bench: Bench): Promise<void> {
  const built = existsSync(EXECUTABLE)
  const service = await startService(bench.work)
  try {
    await sleep(1000)
    // Budgeted here only when there is no executable to hold to it.
    bench.rows.push({
      measure: `service resident memory, idle (bundled, on node ${process.versions.node})`,
      value: memoryOf(service.child, 'VmRSS'),
      unit: 'MB',
      budget: built ? undefined : IDLE_BUDGET_MB,
    })
  } finally {
    await service.stop()
  }
  if (!built) {
    bench.rows.push({
      measure: 'executable: start to first ping',
      value: null,
      unit: 'ms',
      budget: START_BUDGET_MS,
      note: 'not built: npm run build',
    })
    return
  }
  const starts: number[] = []
  let idle = 0
  for (let run = 0; run < bench.runs; run++) {
    const started = performance.now()
    const executable = await startService(bench.work, { command: [EXECUTABLE, 'serve'] })
    starts.push(performance.now() - started)
    await sleep(1000)
    idle = memoryOf(executable.child, 'VmRSS')
    await executable.stop()
  }
  bench.rows.push(
    { measure: 'executable: start to first ping', value: median(starts), unit: 'ms', budget: START_BUDGET_MS },
    { measure: 'executable: resident memory, idle', value: idle, unit: 'MB', budget: IDLE_BUDGET_MB },
  )
}
