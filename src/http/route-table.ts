import { Compile, type Validator } from 'typebox/compile'
import { DomainError } from '../core/errors.ts'
import type { RateGroup } from './rate-limit.ts'
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
  headers?: Validator
  body?: Validator
}

/** Where a request leads: its route, or the routing refusal — and the rate group it counts in either way. */
export type Lookup = { match: RouteMatch; group: RateGroup } | { refusal: DomainError; group: RateGroup }

interface CompiledRoute {
  route: Route
  segments: readonly string[]
  validators: RouteValidators
}

/**
 * Finds the route of a request. Routing comes first (contract §3a): an unknown path is 404 and a
 * known path with another method is 405 with `Allow`, before keys or limits of the route apply —
 * but after the rate limit, so a lookup also tells which group the request counts in.
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
        ...(route.headers ? { headers: Compile(route.headers) } : {}),
        ...(route.body && !route.body.raw ? { body: Compile(route.body.schema) } : {}),
      },
    }))
  }

  lookup(method: string, pathname: string, safePath: string): Lookup {
    const segments = decodeSegments(pathname)
    const others: Route[] = []
    if (segments !== null) {
      for (const candidate of this.compiled) {
        const params = matchSegments(candidate.segments, segments)
        if (params === null) continue
        if (candidate.route.method === method)
          return {
            match: { route: candidate.route, params, validators: candidate.validators },
            group: candidate.route.rateGroup,
          }
        others.push(candidate.route)
      }
    }
    if (others.length === 0) {
      return { refusal: new DomainError('NOT_FOUND', `No existe la ruta ${method} ${safePath}.`), group: 'general' }
    }
    const allowed = others.map((route) => route.method as Method)
    return {
      refusal: new DomainError(
        'METHOD_NOT_ALLOWED',
        `El método ${method} no está permitido en ${safePath}; use ${allowed.join(' o ')}.`,
        {},
        { Allow: allowed.join(', ') },
      ),
      group: others[0]!.rateGroup,
    }
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
