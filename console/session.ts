import { computed, signal } from '@preact/signals'
import { api, whenSessionLost } from './api/client.ts'
import type { Role, SessionView } from './api/types.ts'
import { hondurasDate } from './format.ts'

/** Who is logged in: undefined while the console asks the service, null when nobody is. */
export const currentUser = signal<SessionView | null | undefined>(undefined)
/** Set when a session ended under the person (expired, logged out elsewhere): the login screen says so. */
export const sessionEnded = signal(false)

export const role = computed<Role | null>(() => currentUser.value?.rol ?? null)
export const isSupervisor = computed(() => role.value === 'supervisor' || role.value === 'admin')
export const isAdmin = computed(() => role.value === 'admin')
/** Finance (issue 40): the money, never the returns' decisions. */
export const isFinance = computed(() => role.value === 'finanzas')
/** What each role may do with the money, as the service's rights say (src/actor.ts). */
export const canSeeDeposits = computed(
  () => role.value === 'supervisor' || role.value === 'finanzas' || role.value === 'admin',
)
export const canRegisterDeposits = canSeeDeposits
export const canCancelDeposits = computed(() => role.value === 'finanzas' || role.value === 'admin')
export const canAdjust = canCancelDeposits
export const canReadAudit = canSeeDeposits
export const canRegisterReturns = computed(() => role.value !== null && role.value !== 'finanzas')

export async function loadSession(): Promise<void> {
  try {
    currentUser.value = await api.session.current()
  } catch {
    currentUser.value = null
  }
}

whenSessionLost(() => {
  if (currentUser.value) sessionEnded.value = true
  currentUser.value = null
})

/**
 * Today in Honduras: the browser's clock until the service says (the dashboard carries the
 * service's date), so a PC whose clock is off does not offer the wrong day.
 */
export const serverToday = signal(hondurasDate(new Date()))
