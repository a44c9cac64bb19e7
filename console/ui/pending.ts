import { signal } from '@preact/signals'
import { api } from '../api/client.ts'
import type { PendingCounts } from '../api/types.ts'

/**
 * What waits for the person (Devoluciones (3), Conflictos (1) in the navigation): read when the
 * console starts, every minute, and after every action that may change it (`refreshPending`).
 */
export const pendingCounts = signal<PendingCounts | null>(null)

export const PENDING_EVERY_MS = 60_000

let asked = 0

/** Reads the counts again; an answer older than a newer question is dropped, a failure keeps the last counts. */
export async function refreshPending(): Promise<void> {
  const mine = ++asked
  try {
    const counts = await api.pending()
    if (mine === asked) pendingCounts.value = counts
  } catch {
    // The counts are a hint: the next minute asks again.
  }
}
