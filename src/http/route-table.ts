import { Compile, type Validator } from 'typebox/compile'
import { DomainError } from '../errors.ts'
import type { Method, Route } from './route.ts'

export interface RouteMatch {
  route: Route
  params: Record<string, string>
  validators: RouteValidators
}

/** The route's input schemas, compiled once when the table is built. */
export interface RouteValidators {
  params?: Validator
  query?: Validator
  body?: Validator
}

interface CompiledRoute {
  route: Route
  segments: readonly string[]
  validators: RouteValidators
}

/**
 * Finds the route of a request. Routing comes first (contract §3a): an unknown path is 404 and a
 * known path with another method is 405 with `Allow`, before keys or limits of the route apply.
 */
export class RouteTable {
  private readonly compiled: readonly CompiledRoute[]

  constructor(routes: readonly Route[]) {
    this.compiled = routes.map((route) => ({
      route,
      segments: route.path.split('/'),
      validators: {
        ...(route.params ? { params: Compile(route.params) } : {}),
        ...(route.query ? { query: Compile(route.query) } : {}),
        ...(route.body && !route.body.raw ? { body: Compile(route.body.schema) } : {}),
      },
    }))
  }

  /** @throws DomainError NOT_FOUND or METHOD_NOT_ALLOWED */
  match(method: string, pathname: string): RouteMatch {
    const segments = decodeSegments(pathname)
    const allowed: Method[] = []
    if (segments !== null) {
      for (const candidate of this.compiled) {
        const params = matchSegments(candidate.segments, segments)
        if (params === null) continue
        if (candidate.route.method === method) return { route: candidate.route, params, validators: candidate.validators }
        allowed.push(candidate.route.method)
      }
    }
    if (allowed.length === 0) {
      throw new DomainError('NOT_FOUND', `No existe la ruta ${method} ${pathname}.`)
    }
    throw new DomainError(
      'METHOD_NOT_ALLOWED',
      `El método ${method} no está permitido en ${pathname}; use ${allowed.join(' o ')}.`,
      {},
      { Allow: allowed.join(', ') },
    )
  }
}

function decodeSegments(pathname: string): string[] | null {
  try {
    return pathname.split('/').map((segment) => decodeURIComponent(segment))
  } catch {
    return null // malformed percent-encoding names no route
  }
}

function matchSegments(pattern: readonly string[], actual: readonly string[]): Record<string, string> | null {
  if (pattern.length !== actual.length) return null
  const params: Record<string, string> = Object.create(null)
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i]!
    const segment = actual[i]!
    if (expected.startsWith(':')) {
      if (segment === '') return null
      params[expected.slice(1)] = segment
    } else if (expected !== segment) {
      return null
    }
  }
  return params
}
