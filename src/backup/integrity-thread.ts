import { Worker } from 'node:worker_threads'
import sea from 'node:sea'
import { nativeAddonFile } from '../db/native-addon.ts'
import type { IntegrityProgress, IntegrityResult } from './integrity.ts'
import type { IntegrityJob } from './integrity.worker.ts'

/** The worker's bundle inside the single executable (build/build.ts adds it). */
export const INTEGRITY_WORKER_ASSET = 'integrity-worker.cjs'
/** The worker's bundle beside the service's ESM bundle (build/bundle.ts writes it). */
export const INTEGRITY_WORKER_BUNDLE = 'integrity-worker.mjs'

/** SQLite could not even open the file to check it (not a database, gone, unreadable). */
export class IntegrityCheckFailed extends Error {
  override readonly name = 'IntegrityCheckFailed'

  constructor(
    message: string,
    readonly code: string | null,
  ) {
    super(message)
  }
}

/**
 * SQLite's integrity check of `file` (integrity.ts) on a worker thread: it reads gigabytes for
 * minutes, and the thread that calls this goes on answering requests (the service) or redrawing
 * the progress line (the command line) meanwhile. With `onProgress`, in steps that report it;
 * without, SQLite's one pass. Opens `file` read-only.
 * @throws IntegrityCheckFailed when the file cannot be opened as a database; `signal`'s reason when it aborts.
 */
export function checkIntegrityInThread(
  file: string,
  onProgress?: (progress: IntegrityProgress) => void,
  signal?: AbortSignal,
): Promise<IntegrityResult> {
  signal?.throwIfAborted()
  const job: IntegrityJob = { file, addonFile: nativeAddonFile(), progress: onProgress !== undefined }
  const worker = startWorker(job)
  return new Promise<IntegrityResult>((resolve, reject) => {
    let settled = false
    // Stopped (the service is closing): the worker is ended where it is; it only ever reads.
    signal?.addEventListener(
      'abort',
      () => {
        if (settled) return
        settled = true
        void worker.terminate()
        reject(signal.reason)
      },
      { once: true },
    )
    worker.on(
      'message',
      (
        message:
          | ({ kind: 'progress' } & IntegrityProgress)
          | { kind: 'done'; result: IntegrityResult }
          | { kind: 'failed'; message: string; code: string | null },
      ) => {
        if (settled) return
        if (message.kind === 'progress')
          onProgress?.({ phase: message.phase, done: message.done, total: message.total })
        else {
          settled = true
          if (message.kind === 'done') resolve(message.result)
          else reject(new IntegrityCheckFailed(message.message, message.code))
        }
      },
    )
    worker.on('error', (error) => {
      settled = true
      reject(error)
    })
    worker.on('exit', (code) => {
      if (!settled) reject(new Error(`la verificación de integridad terminó sin resultado (código ${code})`))
    })
  })
}

/**
 * The executable runs the worker's bundle from its assets; the service's ESM bundle (the bench),
 * the bundle of it written beside; source (tsx), its TypeScript file, through tsx registered in
 * the worker (a worker does not inherit the loader `--import tsx` gave the main thread).
 */
function startWorker(job: IntegrityJob): Worker {
  if (sea.isSea()) return new Worker(sea.getAsset(INTEGRITY_WORKER_ASSET, 'utf8'), { eval: true, workerData: job })
  const here = import.meta.url
  if (!here.endsWith('.ts')) return new Worker(new URL(`./${INTEGRITY_WORKER_BUNDLE}`, here), { workerData: job })
  const source = JSON.stringify(new URL('./integrity.worker.ts', here).href)
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'))
  return new Worker(`import(${tsx}).then(({ register }) => { register(); return import(${source}) })`, {
    eval: true,
    workerData: job,
  })
}
