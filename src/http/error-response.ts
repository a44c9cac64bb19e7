import { DatabaseFileGoneError, DomainError, type ErrorCode } from '../core/errors.ts'

const STATUS_BY_CODE: Record<ErrorCode, number> = {
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  INVALID_INPUT: 422,
  INVALID_TRANSITION: 422,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_CONFIGURED: 503,
  RATE_LIMITED: 429,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  REQUEST_TIMEOUT: 408,
  CLIENT_CLOSED: 400,
  UNAVAILABLE: 503,
  INTERNAL: 500,
}

export interface ErrorResponse {
  status: number
  body: Record<string, unknown>
  headers: Record<string, string>
  /** True for failures that are bugs or outages: logged with their stack and alerted. */
  internal: boolean
}

export const INTERNAL_ERROR_MESSAGE =
  'Error interno del servidor. El equipo técnico fue notificado; puede reenviar la solicitud más tarde.'

/** The single mapping from an error to the HTTP answer; unknown errors never echo their message. */
export function toErrorResponse(error: unknown): ErrorResponse {
  if (error instanceof DomainError) {
    return {
      status: STATUS_BY_CODE[error.code],
      body: { success: false, message: error.message, ...error.details },
      headers: error.headers,
      internal: error.code === 'INTERNAL',
    }
  }
  if (error instanceof DatabaseFileGoneError)
    return { status: 503, body: { success: false, message: error.answer }, headers: {}, internal: false }
  return { status: 500, body: { success: false, message: INTERNAL_ERROR_MESSAGE }, headers: {}, internal: true }
}
