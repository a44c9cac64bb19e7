import type { TSchema } from 'typebox'
import { Locale } from 'typebox/system'
import type { Validator } from 'typebox/compile'

/**
 * The one Spanish describer of TypeBox validation errors. It turns TypeBox's errors into
 * problems — where (the path of the value), what kind (missing, unknown, invalid) and a Spanish
 * phrase — and leaves it to each caller to name the place the way its reader knows it: a body
 * field (`lineas[0].cajas`), a query parameter, a header, a configuration key (`«server.port»`)
 * or an invoice field (`línea #2: Total`).
 *
 * A schema can say what it expects in words with `errorMessage`: a string is what the value
 * "debe ser" (`una fecha real en formato YYYY-MM-DD`), whatever rule failed; an object gives the
 * whole phrase per keyword (`{ minItems: 'no puede estar vacío' }`, and `required` for what a
 * missing value should have been). Without one, the phrase comes from the keyword — a refinement's
 * own message, our phrases, or TypeBox's Spanish locale where ours have nothing better.
 */
export interface Problem {
  /** Path of the value, as property names and array indices (`['lineas', '0', 'cajas']`). */
  path: string[]
  kind: 'missing' | 'unknown' | 'invalid'
  /** What is wrong, as a Spanish phrase: `debe ser al menos 0`, `es obligatorio`. */
  phrase: string
  /**
   * What the schema expects, in words, when it says (`una fecha real en formato YYYY-MM-DD`): its
   * `errorMessage` string, or for a missing value its `errorMessage.required`.
   */
  expected?: string
  keyword: string
  /** The value found there (undefined when missing). */
  value: unknown
}

export type ErrorMessage = string | Partial<Record<string, string>>

/** At most this many problems are described per value (a body can break in thousands of places). */
const LIMIT = 50

/** The problems of a value that `validator` refused, one per place, in the order TypeBox found them. */
export function problemsOf(validator: Validator, value: unknown, limit = LIMIT): Problem[] {
  const schema = validator.Type()
  const byPlace = new Map<string, Problem>()
  for (const error of validator.Errors(value)) {
    if (byPlace.size >= limit) break
    const base = pathOf(error.instancePath)
    if (error.keyword === 'required' || error.keyword === 'additionalProperties') {
      const fields =
        error.keyword === 'required'
          ? (error.params as { requiredProperties: string[] }).requiredProperties
          : (error.params as { additionalProperties: string[] }).additionalProperties
      for (const field of fields) {
        const path = [...base, field]
        const missing = error.keyword === 'required'
        const expected = missing
          ? expectationOf(schemaAt(schema, `${error.schemaPath}/properties/${escape(field)}`), 'required')
          : undefined
        byPlace.set(path.join('/'), {
          path,
          kind: missing ? 'missing' : 'unknown',
          phrase: missing ? 'es obligatorio' : 'campo desconocido',
          ...(expected ? { expected } : {}),
          keyword: error.keyword,
          value: undefined,
        })
      }
      continue
    }
    // `additionalProperties: false` reports each extra key twice; the named report above wins.
    if (error.keyword === 'boolean') continue
    const place = base.join('/')
    if (byPlace.has(place)) continue
    const message = messageOf(schema, error.schemaPath)
    const expected = expectationOf({ errorMessage: message }, error.keyword)
    const phrase =
      typeof message === 'object' && message[error.keyword] !== undefined
        ? message[error.keyword]!
        : typeof message === 'string'
          ? `debe ser ${message}`
          : phraseOf(error.keyword, error.params as Record<string, unknown>, error)
    byPlace.set(place, {
      path: base,
      kind: 'invalid',
      phrase,
      ...(expected ? { expected } : {}),
      keyword: error.keyword,
      value: valueAt(value, base),
    })
  }
  return [...byPlace.values()]
}

/** `['lineas', '0', 'cajas']` → `lineas[0].cajas`. */
export function dottedPath(path: readonly string[]): string {
  return path.map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : `${i === 0 ? '' : '.'}${part}`)).join('')
}

/** A value as a reader would recognise it in a message, shortened. */
export function shown(value: unknown): string {
  if (value === undefined) return 'nada'
  if (typeof value === 'number' && !Number.isFinite(value)) return 'un número demasiado grande'
  let text: string
  try {
    // A long text is cut before it is written out: a 100 MB one would be copied twice to show 57 characters.
    text =
      typeof value === 'string' && value.length > 60
        ? `${JSON.stringify(value.slice(0, 60)).slice(0, -1)}`
        : (JSON.stringify(value) ?? String(value))
  } catch {
    return 'un valor anidado demasiado profundo'
  }
  return text.length > 60 ? `${text.slice(0, 57)}…` : text
}

const TYPES: Record<string, string> = {
  string: 'texto',
  integer: 'un entero',
  number: 'un número',
  boolean: 'true o false',
  object: 'un objeto',
  array: 'una lista',
  null: 'null',
}

function phraseOf(
  keyword: string,
  params: Record<string, unknown>,
  error: Parameters<typeof Locale.es_419>[0],
): string {
  switch (keyword) {
    case 'type': {
      const types = Array.isArray(params.type) ? (params.type as string[]) : [String(params.type)]
      return `debe ser ${types.map((type) => TYPES[type] ?? type).join(' o ')}`
    }
    case 'minimum':
      return `debe ser al menos ${String(params.limit)}`
    case 'exclusiveMinimum':
      return `debe ser mayor que ${String(params.limit)}`
    case 'maximum':
      return `debe ser como máximo ${String(params.limit)}`
    case 'exclusiveMaximum':
      return `debe ser menor que ${String(params.limit)}`
    case 'minLength':
      return params.limit === 1 ? 'no puede estar vacío' : `debe tener al menos ${String(params.limit)} caracteres`
    case 'maxLength':
      return `admite como máximo ${String(params.limit)} caracteres`
    case 'minProperties':
      return 'debe incluir al menos un campo'
    case 'minItems':
      return `debe tener al menos ${String(params.limit)} elemento(s)`
    case 'maxItems':
      return `admite como máximo ${String(params.limit)} elementos`
    case 'pattern':
    case 'format':
      return 'no tiene el formato esperado'
    case 'const':
    case 'enum':
    case 'anyOf':
    case 'oneOf':
      return 'tiene un valor no admitido'
    case '~refine':
      return String(params.message)
    default:
      return Locale.es_419(error)
  }
}

/**
 * The `errorMessage` of the schema an error points at, or of the union it belongs to (an error
 * inside `anyOf/1` is described by the union's message).
 */
function messageOf(root: TSchema, schemaPath: string): ErrorMessage | undefined {
  let pointer = schemaPath
  for (;;) {
    const message = (schemaAt(root, pointer) as { errorMessage?: ErrorMessage } | undefined)?.errorMessage
    if (message !== undefined) return message
    const parent = /^(.*)\/(anyOf|oneOf|allOf)\/\d+$/.exec(pointer)
    if (parent === null) return undefined
    pointer = parent[1]!
  }
}

/** What a schema expects in words: its string `errorMessage`, or the entry for this keyword. */
function expectationOf(schema: unknown, keyword: string): string | undefined {
  const message = (schema as { errorMessage?: ErrorMessage } | undefined)?.errorMessage
  if (typeof message === 'string') return message
  return keyword === 'required' ? message?.required : undefined
}

function schemaAt(root: TSchema, pointer: string): unknown {
  let current: unknown = root
  for (const part of pointer.replace(/^#\/?/, '').split('/').filter(Boolean)) {
    if (current === null || typeof current !== 'object') return undefined
    current = (current as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')]
  }
  return current
}

function pathOf(instancePath: string): string[] {
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
}

function escape(field: string): string {
  return field.replace(/~/g, '~0').replace(/\//g, '~1')
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let current = root
  for (const part of path) {
    if (current === null || typeof current !== 'object') return undefined
    current = Object.hasOwn(current, part) ? (current as Record<string, unknown>)[part] : undefined
  }
  return current
}
