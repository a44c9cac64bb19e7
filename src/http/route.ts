import type { H3Event } from 'h3'
import type { Static, TSchema } from 'typebox'
import type { Access } from './auth.ts'

export type Method = 'GET' | 'POST' | 'PUT'

export interface ResponseSpec {
  description: string
  schema?: TSchema
}

/**
 * Everything the service knows about one endpoint: where it is, who may call it, the TypeBox
 * schemas that validate its input and describe its answers (the OpenAPI document is generated
 * from these), and its handler. Every route of the service is listed in `app.ts`.
 */
export interface Route<Params extends TSchema = TSchema, Query extends TSchema = TSchema> {
  method: Method
  /** h3 path, `:name` for parameters. */
  path: string
  access: Access
  summary: string
  description?: string
  tag: string
  params?: Params
  query?: Query
  /** Request body, for the OpenAPI document (the route reads and checks its own body). */
  body?: { description: string; schema: TSchema }
  /** Answer for a path parameter that does not fit its schema: such a path names no resource. */
  paramsNotFound?: (raw: Record<string, string>) => string
  responses: Record<number, ResponseSpec>
  handle: (request: RouteRequest<Static<Params>, Static<Query>>) => Reply | Promise<Reply>
}

export interface RouteRequest<Params, Query> {
  event: H3Event
  params: Params
  query: Query
  clientIp: string
  /** Fingerprint of the key that authenticated the request (empty for public routes). */
  keyFingerprint: string
}

export type Reply =
  | { status: number; body: unknown; headers?: Record<string, string> }
  /** A body already serialized (for formats JSON.stringify cannot write, like fixed decimals). */
  | { status: number; json: string; headers?: Record<string, string> }

/** Keeps a route's schema types attached to its handler. */
export function defineRoute<Params extends TSchema, Query extends TSchema>(
  route: Route<Params, Query>,
): Route {
  return route as unknown as Route
}
