import { AsyncLocalStorage } from 'node:async_hooks'
import { randomBytes } from 'node:crypto'

export interface RequestScope {
  requestId: string
}

/**
 * The request a piece of code is running for, so every log line written while a request is
 * handled carries its id (the logger's mixin reads it), however deep the code that logs. Node
 * keys AsyncLocalStorage by asynchronous context, not by module: one per process serves every
 * app and every request, and holds no state of its own.
 */
export const requestScope = new AsyncLocalStorage<RequestScope>()

/** An id a proxy in front may already have given the request (X-Request-Id), if it is sane. */
const GIVEN_ID = /^[A-Za-z0-9._:-]{1,64}$/

/** The request's id: the one it arrived with when sane, else 16 random hex digits. */
export function requestIdOf(given: string | string[] | undefined): string {
  const value = Array.isArray(given) ? given[0] : given
  return value !== undefined && GIVEN_ID.test(value) ? value : randomBytes(8).toString('hex')
}
