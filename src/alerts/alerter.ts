import type { Logger } from 'pino'
import { nowMillis, toStoredInstant, type Clock } from '../clock.ts'
import { VERSION } from '../version.ts'

export interface Alerter {
  /** Reports a genuine internal failure; never throws, never waits. */
  notify(error: unknown, context: Record<string, unknown>): void
}

const THROTTLE_MS = 60_000

/**
 * Alerts to `alerts.webhookUrl`: a JSON POST sent in the background (never delaying the answer),
 * at most one per minute per kind of error; a failed delivery is logged.
 */
export function createAlerter(options: { webhookUrl: string; log: Logger; clock: Clock }): Alerter {
  const lastSent = new Map<string, number>()
  return {
    notify(error, context) {
      if (options.webhookUrl === '') return
      const kind = kindOf(error)
      const now = nowMillis(options.clock)
      const last = lastSent.get(kind)
      if (last !== undefined && now - last < THROTTLE_MS) {
        options.log.debug({ kind }, 'alerta omitida: ya se envió una de este tipo en el último minuto')
        return
      }
      lastSent.set(kind, now)
      const body = JSON.stringify({
        service: 'manifiesto',
        version: VERSION,
        kind,
        message: error instanceof Error ? error.message : String(error),
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
          if (!response.ok) options.log.warn({ kind, status: response.status }, 'la alerta no fue aceptada por el webhook')
        })
        .catch((failure: unknown) => options.log.warn({ kind, err: failure }, 'no se pudo enviar la alerta'))
    },
  }
}

function kindOf(error: unknown): string {
  if (!(error instanceof Error)) return 'desconocido'
  const code = (error as { code?: unknown }).code
  return typeof code === 'string' ? `${error.name}:${code}` : error.name
}
