import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import pino, { type DestinationStream, type Logger } from 'pino'
import type { Config } from './config.ts'

/**
 * JSON lines to stdout and, when `log.file` is set, to that file too. Keys are never passed to
 * the logger (only fingerprints); the redaction below is a second guard for headers.
 */
export function createLogger(settings: Config['log'], stdout: DestinationStream = process.stdout): Logger {
  const streams: pino.StreamEntry[] = [{ stream: stdout, level: settings.level }]
  if (settings.file !== '') {
    mkdirSync(dirname(settings.file), { recursive: true })
    streams.push({ stream: pino.destination({ dest: settings.file, sync: false }), level: settings.level })
  }
  return pino(
    {
      level: settings.level,
      base: { service: 'manifiesto' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: ['headers.apikey', 'headers.operatorkey', '*.headers.apikey', '*.headers.operatorkey'], censor: '[oculto]' },
    },
    pino.multistream(streams),
  )
}
