import pino, { type DestinationStream, type Logger } from 'pino'
import { isoWithOffset, type Clock } from '../core/clock.ts'
import type { Config } from '../config/config.ts'
import { requestScope } from './request-scope.ts'
import { DailyLogFile } from './log-file.ts'

export interface LoggerOptions {
  clock: Clock
  stdout?: DestinationStream
}

/**
 * JSON lines to stdout and, when `log.file` is set, to that file too (one file per local day,
 * `log.keepDays` kept). Times come from the injected clock in the configured zone; a line written
 * while a request is handled carries its `request_id`. Keys are never passed to the logger (only
 * fingerprints); the redaction below is a second guard for headers.
 */
export function createLogger(settings: Config['log'], { clock, stdout = process.stdout }: LoggerOptions): Logger {
  const streams: pino.StreamEntry[] = [{ stream: stdout, level: settings.level }]
  if (settings.file !== '')
    streams.push({ stream: new DailyLogFile(settings.file, clock, settings.keepDays), level: settings.level })
  return pino(
    {
      level: settings.level,
      base: { service: 'manifiesto' },
      // ISO 8601 with the zone's offset, like every time a person reads (`2026-11-22T10:00:00.123-06:00`).
      timestamp: () => `,"time":"${isoWithOffset(clock)}"`,
      mixin: () => {
        const scope = requestScope.getStore()
        return scope === undefined ? {} : { request_id: scope.requestId }
      },
      formatters: { level: (label) => ({ level: label }) },
      redact: {
        paths: ['headers.apikey', 'headers.operatorkey', '*.headers.apikey', '*.headers.operatorkey'],
        censor: '[oculto]',
      },
    },
    pino.multistream(streams),
  )
}
