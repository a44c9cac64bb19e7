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
export interface Route<Params extends TSchema = TSchema, Query extends TSchema = TSchema, Body extends TSchema = TSchema> {
  method: Method
  /** h3 path, `:name` for parameters. */
  path: string
  access: Access
  summary: string
  description?: string
  tag: string
  params?: Params
  query?: Query
  /** Request headers the route reads itself (documented in OpenAPI; keys are not listed here). */
  headers?: TSchema
  /**
   * The JSON request body: read (within server.maxBodyMB), parsed and checked against `schema`
   * by the pipeline (422 naming the field), unless `raw` — then the route reads it itself and
   * the schema only documents it.
   */
  body?: { description: string; schema: Body; raw?: boolean }
  /** Answer for a path parameter that does not fit its schema: such a path names no resource. */
  paramsNotFound?: (raw: Record<string, string>) => string
  responses: Record<number, ResponseSpec>
  handle: (request: RouteRequest<Static<Params>, Static<Query>, Static<Body>>) => Reply | Promise<Reply>
}

export interface RouteRequest<Params, Query, Body = unknown> {
  event: H3Event
  params: Params
  query: Query
  /** The checked JSON body (undefined for routes without one, or with a raw body). */
  body: Body
  /** Operator routes: the person named by the `Operador` header (required on POST and PUT). */
  operator: string
  clientIp: string
  /** Fingerprint of the key that authenticated the request (empty for public routes). */
  keyFingerprint: string
}

export type Reply =
  | { status: number; body: unknown; headers?: Record<string, string> }
  /** A body already serialized (for formats JSON.stringify cannot write, like fixed decimals). */
  | { status: number; json: string; headers?: Record<string, string> }
  /** Bytes sent as they are (a batch's raw body). */
  | { status: number; bytes: Buffer; contentType: string; headers?: Record<string, string> }

/** Keeps a route's schema types attached to its handler. */
export function defineRoute<Params extends TSchema, Query extends TSchema, Body extends TSchema>(
  route: Route<Params, Query, Body>,
): Route {
  return route as unknown as Route
}
