import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/**
 * One full garbage collection once the service has started, so that V8 sizes the heap for the
 * service that runs rather than for its start.
 *
 * Until its first full collection, V8 lowers the heap's growth limit after every young collection
 * towards the old generation's size plus ~8 MB. Start-up (modules, schemas, the console's files)
 * leaves ~21 MB there, so the first batch of ~1,000 invoices crossed the limit: V8 marked the whole
 * heap while the batch ran and compacted it before the answer (10–25 ms of a ~140 ms batch,
 * measured with `--trace-gc`). After one full collection the limit is computed from what is live,
 * with room to grow, as for the rest of the process's life. Node's `--initial-old-space-size`
 * does the same, but a flag reaches only the runs that are given it (the executable's `execArgv`
 * in build/build.ts, not `npm start` or the bench's bundle); this call covers them all.
 *
 * `gc` is only reachable through a context created while `--expose-gc` is set (as Jest's leak
 * detector does); the flag is unset again at once, so nothing else sees it. ~12 ms, before the
 * first request is answered.
 */
export function collectStartupGarbage(): void {
  setFlagsFromString('--expose-gc')
  let gc: unknown
  try {
    gc = runInNewContext('globalThis.gc')
  } finally {
    setFlagsFromString('--no-expose-gc')
  }
  if (typeof gc === 'function') gc()
}
