import type { H3Event } from 'h3'
import { DomainError } from '../errors.ts'

/**
 * Reads the request body, refusing it (413) as soon as it grows past the limit — the
 * Content-Length check in the pipeline cannot see chunked bodies. The request stream is never
 * destroyed (listhen's connection tracking needs its socket until the answer is sent); the rest
 * of an oversized body is discarded and the connection closed after the answer.
 */
export function readBody(event: H3Event, maxBytes: number): Promise<Buffer> {
  const request = event.node.req
  // With a Content-Length (the pipeline already refused one over the limit) the body is copied
  // into one buffer as it arrives: a 50 MB batch never exists twice (chunks, then their concat).
  const declared = Number(request.headers['content-length'])
  const whole = Number.isSafeInteger(declared) && declared > 0 && declared <= maxBytes ? Buffer.allocUnsafe(declared) : null
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let refused = false
    request.on('data', (chunk: Buffer) => {
      if (refused) return
      if (whole !== null && size + chunk.length <= whole.length) {
        chunk.copy(whole, size)
        size += chunk.length
        return
      }
      size += chunk.length
      if (size <= maxBytes) {
        chunks.push(chunk)
        return
      }
      refused = true
      chunks.length = 0
      reject(
        new DomainError(
          'PAYLOAD_TOO_LARGE',
          `El cuerpo de la solicitud excede el máximo permitido de ${formatMB(maxBytes)}.`,
          {},
          { Connection: 'close' },
        ),
      )
    })
    request.once('end', () => {
      if (refused) return
      if (whole !== null && chunks.length === 0) resolve(whole.subarray(0, size))
      else resolve(Buffer.concat(whole === null ? chunks : [whole.subarray(0, Math.min(size, whole.length)), ...chunks], size))
    })
    request.once('error', reject)
  })
}

export function formatMB(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 100) / 100} MB`
}
