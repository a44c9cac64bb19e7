import type { H3Event } from 'h3'
import { DomainError } from '../errors.ts'

export interface ReadBodyOptions {
  maxBytes: number
  /** The whole body must arrive within this time (a client that sends too slowly is refused, 408). */
  timeoutMs: number
  /** Sees every chunk as it arrives, so work on the body overlaps with receiving it. */
  inspect?: (chunk: Buffer) => void
}

/**
 * Reads the request body, refusing it (413) as soon as it grows past the limit — the
 * Content-Length check in the pipeline cannot see chunked bodies — and (408) when it has not
 * arrived in time. A client that disconnects mid-body is CLIENT_CLOSED: nothing to answer, no
 * fault of the service. The request stream is never destroyed (listhen's connection tracking
 * needs its socket until the answer is sent); the rest of a refused body is discarded and the
 * connection closed after the answer.
 */
export function readBody(event: H3Event, options: ReadBodyOptions): Promise<Buffer> {
  const request = event.node.req
  const { maxBytes } = options
  // With a Content-Length (the pipeline already refused one over the limit) the body is copied
  // into one buffer as it arrives: a 50 MB batch never exists twice (chunks, then their concat).
  const declared = Number(request.headers['content-length'])
  const whole = Number.isSafeInteger(declared) && declared > 0 && declared <= maxBytes ? Buffer.allocUnsafe(declared) : null
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let settled = false
    const settle = (error: DomainError | null, body?: Buffer) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      chunks.length = 0
      if (error) reject(error)
      else resolve(body!)
    }
    const timer = setTimeout(
      () =>
        settle(
          new DomainError(
            'REQUEST_TIMEOUT',
            `El cuerpo de la solicitud no terminó de llegar en ${Math.round(options.timeoutMs / 1000)} segundos; revise la conexión y reenvíe.`,
            {},
            { Connection: 'close' },
          ),
        ),
      options.timeoutMs,
    )
    request.on('data', (chunk: Buffer) => {
      if (settled) return
      if (size + chunk.length > maxBytes) {
        settle(
          new DomainError(
            'PAYLOAD_TOO_LARGE',
            `El cuerpo de la solicitud excede el máximo permitido de ${formatMB(maxBytes)}.`,
            {},
            { Connection: 'close' },
          ),
        )
        return
      }
      options.inspect?.(chunk)
      if (whole !== null && size + chunk.length <= whole.length) chunk.copy(whole, size)
      else chunks.push(chunk)
      size += chunk.length
    })
    request.once('end', () => {
      if (whole !== null && chunks.length === 0) settle(null, whole.subarray(0, size))
      else settle(null, Buffer.concat(whole === null ? chunks : [whole.subarray(0, Math.min(size, whole.length)), ...chunks], size))
    })
    request.once('close', () => {
      if (!request.complete) settle(new DomainError('CLIENT_CLOSED', 'El cliente cerró la conexión antes de terminar de enviar el cuerpo.'))
    })
  })
}

export function formatMB(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 100) / 100} MB`
}
