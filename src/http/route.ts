import type { StaticDecode, TSchema } from 'typebox'
import type { Actor, Right } from '../access/actor.ts'
import type { RateGroup } from './rate-limit.ts'

/**
 * Who may call a route: anyone (`public`); the client system with its ApiKey (`client`); the
 * warehouse — a person with a session cookie or an integration with the OperatorKey
 * (`operator`); only a person with a session (`person`: their own session and password).
 */
export type Access = 'public' | 'client' | 'operator' | 'person'

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

/** Named examples of a body, shown by the API reference (`/api/v1/docs`); each must fit its schema (a test holds them). */
export type Examples = Record<string, { summary: string; value: unknown }>

export interface ResponseSpec {
  description: string
  schema?: TSchema
  examples?: Examples
  /** Response headers a client reads (paging signals, a download's file name), for the OpenAPI document. */
  headers?: Record<string, string>
  /** A non-JSON answer's media types (a download), for the OpenAPI document. */
  mediaTypes?: readonly string[]
}

/**
 * Everything the service knows about one endpoint: where it is, who may call it, how many calls
 * a minute it allows, the TypeBox schemas that validate and decode its input and describe its
 * answers (the OpenAPI document is generated from these, and the tests check every answer against
 * them), and its handler. Every route of the service is listed in `app.ts`.
 */
export interface Route<
  Params extends TSchema = TSchema,
  Query extends TSchema = TSchema,
  Headers extends TSchema = TSchema,
  Body extends TSchema = TSchema,
  Who extends Access = Access,
> {
  method: Method
  /** h3 path, `:name` for parameters. */
  path: string
  access: Who
  /** What the actor's role must allow (operator and person routes); refused with 403 otherwise. */
  right?: Right
  /** The operation's unique name in the OpenAPI document (client generators name methods by it). */
  operationId: string
  /** The per-IP window the route counts in (contract §3a). */
  rateGroup: RateGroup
  summary: string
  description?: string
  tag: string
  params?: Params
  query?: Query
  /** Request headers that carry input (`Fecha`), validated and decoded like the query; never keys. */
  headers?: Headers
  /**
   * The JSON request body: read (1 MB at most), parsed, checked and decoded by the pipeline (422
   * naming the field), unless `raw` — then the route reads it with `readBody` (the batch intake,
   * within server.maxBodyMB) and the schema only documents it.
   */
  body?: {
    description: string
    schema: Body
    raw?: boolean
    examples?: Examples
    /**
     * A raw body that is one file (a deposit's receipt): at most `maxBytes` are read (a larger
     * body is a 413), never compressed, documented as these media types instead of JSON.
     */
    file?: { maxBytes: number; mediaTypes: readonly string[] }
  }
  /** Answer for a path parameter that does not fit its schema: such a path names no resource. */
  paramsNotFound?: (raw: Record<string, string>) => string
  responses: Record<number, ResponseSpec>
  handle: (
    request: RouteRequest<
      StaticDecode<Params>,
      StaticDecode<Query>,
      StaticDecode<Headers>,
      StaticDecode<Body>,
      Who extends 'operator' | 'person' ? Actor : null
    >,
  ) => Reply | Promise<Reply>
}

export interface RouteRequest<Params, Query, Headers = unknown, Body = unknown, Acting = Actor | null> {
  params: Params
  query: Query
  headers: Headers
  /** The checked JSON body (undefined for routes without one, or with a raw body). */
  body: Body
  /** Operator and person routes: who is acting (a person's account, or an integration). */
  actor: Acting
  /** The session token of a person's request (their own session routes need it), else null. */
  sessionToken: string | null
  /** The client's address: the socket's peer, or the one the trusted proxies name (server.trustProxy). */
  clientIp: string
  /** The browser reached the service over HTTPS: directly, or through the trusted proxies (X-Forwarded-Proto). */
  secure: boolean
  /** Fingerprint of the key that authenticated the request (empty for public routes and sessions). */
  keyFingerprint: string
  /**
   * Raw-body routes: reads the body (within its limit and time) into a buffer from `allocate` (or
   * shared memory), showing each chunk to `inspect`; a gzip body (Content-Encoding: gzip) is
   * inflated as it arrives, and the chunks, the limit and the answer are its inflated bytes.
   */
  readBody: (inspect?: (chunk: Buffer) => void, allocate?: (size: number) => Buffer) => Promise<Buffer>
  /** Raw-body routes: the body's size as announced (Content-Length), null until read (gzip, chunked). */
  bodyBytes: number | null
  /** What the request's log line should also carry (the batch uuid). */
  logContext: { batchUuid?: string }
}

export type Reply =
  | { status: number; body: unknown; headers?: Record<string, string> }
  /** A body already serialized (for formats JSON.stringify cannot write, like fixed decimals). */
  | { status: number; json: string | Buffer; headers?: Record<string, string> }
  /** Bytes sent as they are (a batch's raw body, a file download). */
  | { status: number; bytes: Buffer; contentType: string; headers?: Record<string, string> }

/** Keeps a route's schema types (and whether an actor is known) attached to its handler. */
export function defineRoute<
  Params extends TSchema,
  Query extends TSchema,
  Headers extends TSchema,
  Body extends TSchema,
  Who extends Access,
>(route: Route<Params, Query, Headers, Body, Who>): Route {
  return route as unknown as Route
}
