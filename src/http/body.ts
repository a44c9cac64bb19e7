import type { H3Event } from 'h3'
import { DomainError } from '../errors.ts'

/**
 * Reads the request body, refusing it (413) as soon as it grows past the limit — the
 * Content-Length check in the pipeline cannot see chunked bodies.
 */
export async function readBody(event: H3Event, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of event.node.req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > maxBytes) {
      throw new DomainError(
        'PAYLOAD_TOO_LARGE',
        `El cuerpo de la solicitud excede el máximo permitido de ${formatMB(maxBytes)}.`,
        {},
        { Connection: 'close' },
      )
    }
    chunks.push(chunk)
  }
  return Buffer.concat(chunks, size)
}

export function formatMB(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 100) / 100} MB`
}
