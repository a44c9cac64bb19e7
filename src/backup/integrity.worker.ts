/**
 * The worker thread of integrity-thread.ts: opens one database file only to read it, runs
 * checkIntegrity on it and posts its progress and its result. Its own entry (the single
 * executable embeds it bundled, build/build.ts): it imports nothing of the service but the check.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { openToRead } from '../db/open-to-read.ts'
import { checkIntegrity } from './integrity.ts'

export interface IntegrityJob {
  file: string
  /** Someone watches (the command line): the check in steps, each reported. */
  progress: boolean
  /** The executable's SQLite addon, already written out (undefined from source). */
  addonFile: string | undefined
}

const { file, addonFile, progress } = workerData as IntegrityJob
try {
  let nativeBinding: object | undefined
  if (addonFile !== undefined) {
    const module = { exports: {} as object }
    process.dlopen(module, addonFile)
    nativeBinding = module.exports
  }
  const db = openToRead(file, nativeBinding)
  try {
    const result = checkIntegrity(
      db,
      progress ? (report) => parentPort!.postMessage({ kind: 'progress', ...report }) : undefined,
    )
    parentPort!.postMessage({ kind: 'done', result })
  } finally {
    db.close()
  }
} catch (error) {
  parentPort!.postMessage({
    kind: 'failed',
    message: error instanceof Error ? error.message : String(error),
    code: (error as { code?: unknown }).code ?? null,
  })
}
