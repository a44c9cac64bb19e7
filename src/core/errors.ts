/**
 * The domain's errors. Services throw them with a stable code and a Spanish message; one place,
 * `http/error-response.ts`, turns a code into an HTTP status and the `{success:false, message}` body.
 */
export type ErrorCode =
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'INVALID_INPUT'
  | 'INVALID_TRANSITION'
  | 'UNAUTHORIZED'
  /** Authenticated, but the role lacks the right (never for things outside one's warehouses: those are NOT_FOUND). */
  | 'FORBIDDEN'
  | 'NOT_CONFIGURED'
  | 'RATE_LIMITED'
  | 'PAYLOAD_TOO_LARGE'
  /** A body in a Content-Encoding the route does not take (415). */
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'REQUEST_TIMEOUT'
  /** The client closed the connection or stopped sending: nothing can be answered, and it is no fault of ours. */
  | 'CLIENT_CLOSED'
  | 'UNAVAILABLE'
  | 'INTERNAL'

export class DomainError extends Error {
  override readonly name = 'DomainError'

  /**
   * @param details extra fields merged into the error body (`motivo`, `errores`, ...).
   * @param headers extra response headers (`Retry-After`, ...).
   */
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

export function notFound(message: string, details?: Record<string, unknown>): DomainError {
  return new DomainError('NOT_FOUND', message, details)
}

export function invalidInput(message: string, details?: Record<string, unknown>): DomainError {
  return new DomainError('INVALID_INPUT', message, details)
}

/**
 * A change refused because the database file was deleted, moved or replaced under the running
 * service (contract §9): written to the file SQLite still has open, it would be acknowledged and
 * lost. Thrown before a change is handled and again before each transaction commits (a batch
 * uploading for a minute may lose its file meanwhile); answered 503, logged and alerted.
 */
export class DatabaseFileGoneError extends Error {
  override readonly name = 'DatabaseFileGone'

  constructor(readonly problem: string) {
    super(`Base de datos inutilizable: ${problem}`)
  }

  /** What whoever sent the change is told. */
  get answer(): string {
    return `No se guardó nada: ${this.problem}. El servicio no acepta cambios hasta que el administrador restaure la base de datos y lo reinicie.`
  }
}
