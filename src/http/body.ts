import type { H3Event } from 'h3'
import { createGunzip } from 'node:zlib'
import { DomainError } from '../core/errors.ts'

export interface ReadBodyOptions {
  maxBytes: number
  /** The whole body must arrive within this time (a client that sends too slowly is refused, 408). */
  timeoutMs: number
  /** Sees every chunk as it arrives, so work on the body overlaps with receiving it. */
  inspect?: (chunk: Buffer) => void
  /**
   * The body comes gzip-compressed (`Content-Encoding: gzip`, see `requireBodyEncoding`): it is
   * inflated as it arrives, and `maxBytes`, `inspect` and the answer all see the inflated bytes.
   */
  gzip?: boolean
  /**
   * Allocates the buffer the body is read into (default: shared memory, see `sharedBuffer`); the
   * batch intake reads into memory its scan works in (src/intake/body/body-scan.ts `bodyBuffer`).
   */
  allocate?: (size: number) => Buffer
}

/** Inflated bytes per chunk: fewer, larger chunks for `inspect` than zlib's 16 KB default. */
const INFLATE_CHUNK_BYTES = 64 * 1024

/**
 * Reads the request body, refusing it (413) as soon as it grows past the limit — the
 * Content-Length check in the pipeline cannot see chunked bodies — and (408) when it has not
 * arrived in time. A gzip body is inflated as it streams and the limit applies to the inflated
 * size, so a small compressed bomb stops being inflated the moment it passes the limit (413), and
 * never holds more than the limit; compressed data that cannot be inflated is a 422. A client that
 * disconnects mid-body is CLIENT_CLOSED: nothing to answer, no fault of the service. The request
 * stream is never destroyed (listhen's connection tracking needs its socket until the answer is
 * sent); the rest of a refused body is discarded and the connection closed after the answer.
 */
export function readBody(event: H3Event, options: ReadBodyOptions): Promise<Buffer> {
  const request = event.node.req
  const { maxBytes } = options
  // With a Content-Length (the pipeline already refused one over the limit) a plain body is copied
  // into one buffer as it arrives: a 50 MB batch never exists twice (chunks, then their concat).
  // A gzip body's Content-Length is its compressed size, which says nothing of the inflated one.
  const declared = announcedBodyBytes(event)
  const allocate = options.allocate ?? sharedBuffer
  const whole = !options.gzip && declared !== null && declared > 0 && declared <= maxBytes ? allocate(declared) : null
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let settled = false
    const inflater = options.gzip ? createGunzip({ chunkSize: INFLATE_CHUNK_BYTES }) : null
    const settle = (error: DomainError | null, body?: Buffer) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      chunks.length = 0
      if (inflater !== null) {
        // Inflating stops here (a bomb goes no further than the limit); the request may have been
        // paused for the inflater: the rest of it is now read and discarded.
        inflater.destroy()
        request.resume()
      }
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
    /** The body's bytes (inflated ones for gzip): the limit first, then `inspect`, then kept. */
    const take = (chunk: Buffer) => {
      if (settled) return
      if (size + chunk.length > maxBytes) {
        settle(tooLarge(maxBytes))
        return
      }
      options.inspect?.(chunk)
      if (whole !== null && size + chunk.length <= whole.length) chunk.copy(whole, size)
      else chunks.push(chunk)
      size += chunk.length
    }
    const finish = () => {
      if (whole !== null && chunks.length === 0) settle(null, whole.subarray(0, size))
      else
        settle(
          null,
          concatInto(
            allocate(size),
            whole === null ? chunks : [whole.subarray(0, Math.min(size, whole.length)), ...chunks],
          ),
        )
    }
    if (inflater === null) {
      request.on('data', take)
      request.once('end', finish)
    } else {
      let received = 0
      inflater.on('data', take)
      inflater.once('end', finish)
      inflater.on('error', (error: NodeJS.ErrnoException) => settle(unreadableGzip(error)))
      request.on('data', (chunk: Buffer) => {
        if (settled) return
        // The compressed bytes are bounded too: what follows a finished gzip stream inflates to nothing.
        received += chunk.length
        if (received > maxBytes) {
          settle(tooLarge(maxBytes))
          return
        }
        // Backpressure: compressed bytes do not pile up in front of a slower inflater.
        if (!inflater.write(chunk)) {
          request.pause()
          inflater.once('drain', () => {
            if (!settled) request.resume()
          })
        }
      })
      request.once('end', () => {
        if (!settled) inflater.end()
      })
    }
    request.once('close', () => {
      if (!request.complete)
        settle(new DomainError('CLIENT_CLOSED', 'El cliente cerró la conexión antes de terminar de enviar el cuerpo.'))
    })
  })
}

/** The body's size as its Content-Length announces it; null without one (a chunked body). */
export function announcedBodyBytes(event: H3Event): number | null {
  const declared = Number(event.node.req.headers['content-length'])
  return Number.isSafeInteger(declared) && declared >= 0 ? declared : null
}

/**
 * Bodies live in shared memory: the batch's body is compressed by a worker thread straight from
 * it (src/intake/body/body-compressor.ts), with no copy.
 */
function sharedBuffer(size: number): Buffer {
  return Buffer.from(new SharedArrayBuffer(size))
}

function concatInto(body: Buffer, parts: readonly Buffer[]): Buffer {
  let offset = 0
  for (const part of parts) offset += part.copy(body, offset)
  return body
}

export function formatMB(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 100) / 100} MB`
}

function tooLarge(maxBytes: number): DomainError {
  return new DomainError(
    'PAYLOAD_TOO_LARGE',
    `El cuerpo de la solicitud excede el máximo permitido de ${formatMB(maxBytes)}.`,
    {},
    { Connection: 'close' },
  )
}

/** A body that says it is gzip but cannot be inflated is unreadable: 422, like any body that is not a batch (interface-v1 §4.1 step 2). */
function unreadableGzip(error: NodeJS.ErrnoException): DomainError {
  const what =
    error.code === 'Z_BUF_ERROR'
      ? 'los datos comprimidos terminan antes de tiempo (el archivo .gz está incompleto o el envío se cortó)'
      : 'los datos no son gzip válido o están dañados'
  return new DomainError(
    'INVALID_INPUT',
    `El cuerpo de la solicitud no se pudo descomprimir: llegó con Content-Encoding: gzip, pero ${what}. ` +
      'Comprima el lote completo con gzip y reenvíelo, o envíelo sin comprimir y sin Content-Encoding.',
    {},
    { Connection: 'close' },
  )
}
