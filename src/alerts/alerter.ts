import type { Logger } from 'pino'
import { nowMillis, toStoredInstant, type Clock } from '../core/clock.ts'
import { VERSION } from '../core/version.ts'

export interface Alerter {
  /** Reports a genuine internal failure; never throws, never waits. */
  notify(error: unknown, context: Record<string, unknown>): void
  /**
   * Tells the team about something that needs a person, not a failure (possible re-issues in a
   * batch); never throws, never waits.
   */
  notice(kind: string, message: string, context: Record<string, unknown>): void
  /**
   * A condition that lasts (a failing backup, a disk nearly full): alerted once when it begins,
   * not again until it has cleared (`active: false`) and begins anew. Logged either way, with or
   * without a webhook; never throws, never waits.
   */
  condition(kind: string, active: boolean, message: string, context?: Record<string, unknown>): void
  /** The conditions alerted that have not cleared yet. */
  activeConditions(): string[]
}

/** Errors repeat while a fault lasts: one per minute per kind says it all. */
const ERROR_EVERY_MS = 60_000
/** Notices are each worth reading (one per batch at most): many a kind per hour, not a flood. */
const NOTICES_PER_HOUR = 30
const HOUR_MS = 3_600_000

/**
 * Alerts to `alerts.webhookUrl`: a JSON POST sent in the background (never delaying the answer);
 * errors at most one per minute per kind, notices at most NOTICES_PER_HOUR per kind in any hour.
 * What is not sent is logged; a failed delivery is logged.
 */
export function createAlerter(options: { webhookUrl: string; log: Logger; clock: Clock }): Alerter {
  const lastError = new Map<string, number>()
  const recentNotices = new Map<string, number[]>()
  const raised = new Set<string>()

  const send = (level: 'error' | 'aviso', kind: string, message: string, context: Record<string, unknown>) => {
    const body = JSON.stringify({
      service: 'manifiesto',
      version: VERSION,
      level,
      kind,
      message,
      at: toStoredInstant(options.clock.now()),
      ...context,
    })
    fetch(options.webhookUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body,
      signal: AbortSignal.timeout(10_000),
    })
      .then((response) => {
        if (!response.ok)
          options.log.warn({ kind, status: response.status }, 'la alerta no fue aceptada por el webhook')
      })
      .catch((failure: unknown) => options.log.warn({ kind, err: failure }, 'no se pudo enviar la alerta'))
  }

  return {
    notify(error, context) {
      if (options.webhookUrl === '') return
      const kind = kindOf(error)
      const now = nowMillis(options.clock)
      const last = lastError.get(kind)
      if (last !== undefined && now - last < ERROR_EVERY_MS) {
        options.log.debug({ kind }, 'alerta omitida: ya se envió una de este tipo en el último minuto')
        return
      }
      lastError.set(kind, now)
      send('error', kind, error instanceof Error ? error.message : String(error), context)
    },
    notice(kind, message, context) {
      if (options.webhookUrl === '') return
      const now = nowMillis(options.clock)
      const recent = (recentNotices.get(kind) ?? []).filter((sent) => now - sent < HOUR_MS)
      if (recent.length >= NOTICES_PER_HOUR) {
        recentNotices.set(kind, recent)
        options.log.info({ kind }, `aviso omitido: ya se enviaron ${NOTICES_PER_HOUR} de este tipo en la última hora`)
        return
      }
      recentNotices.set(kind, [...recent, now])
      send('aviso', kind, message, context)
    },
    condition(kind, active, message, context = {}) {
      if (active === raised.has(kind)) return
      if (!active) {
        raised.delete(kind)
        options.log.info({ kind }, 'condición resuelta')
        return
      }
      raised.add(kind)
      options.log.error({ kind, ...context }, message)
      if (options.webhookUrl !== '') send('error', kind, message, context)
    },
    activeConditions() {
      return [...raised]
    },
  }
}

/** How an error is named in alerts and in the status endpoint (`TypeError`, `SqliteError:SQLITE_FULL`). */
export function kindOf(error: unknown): string {
  if (!(error instanceof Error)) return 'desconocido'
  const code = (error as { code?: unknown }).code
  return typeof code === 'string' ? `${error.name}:${code}` : error.name
}
