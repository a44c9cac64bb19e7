import { checkIntegrityInThread } from '../backup/integrity-thread.ts'
import type { IntegrityProgress } from '../backup/integrity.ts'
import type { CliIo } from './io.ts'
import { formatBytes, formatDuration, startProgress, type Progress } from './progress.ts'

/**
 * SQLite's integrity check of `file` on a worker thread, its two phases shown on stderr as they
 * go (pages read, then tables checked). Read-only.
 * @returns the problems found, and a summary for the last line: size, pages and time taken.
 * @throws IntegrityCheckFailed when the file cannot be opened as a database.
 */
export async function verifyWithProgress(
  file: string,
  io: Pick<CliIo, 'stderr'>,
  label: string,
  now: () => number = () => performance.now(),
): Promise<{ problems: string[]; summary: string }> {
  const started = now()
  const labels: Record<IntegrityProgress['phase'], string> = {
    paginas: `${label}: leyendo sus páginas`,
    tablas: `${label}: revisando cada tabla y sus índices`,
  }
  let current: { phase: IntegrityProgress['phase']; progress: Progress } | null = null
  const result = await checkIntegrityInThread(file, (report) => {
    if (current?.phase !== report.phase) {
      current?.progress.finish()
      current = { phase: report.phase, progress: startProgress(io.stderr, labels[report.phase], 'paginas', { now }) }
    }
    current.progress.update(report)
  })
  ;(current as { progress: Progress } | null)?.progress.finish()
  const bytes = result.pages * result.pageSize
  return {
    problems: result.problems,
    summary: `${formatBytes(bytes)}, ${result.pages.toLocaleString('en-US')} páginas, verificada en ${formatDuration(now() - started)}`,
  }
}
