import type { Validator } from 'typebox/compile'

/**
 * Spanish descriptions of what a value breaks, one per field (`lineas[0].cajas: debe ser un
 * entero ≥ 0`), for 422 answers of JSON bodies and query strings.
 */
export function describeProblems(validator: Validator, value: unknown, limit = 20): string[] {
  const byField = new Map<string, string>()
  for (const error of validator.Errors(value)) {
    if (error.keyword === 'required') {
      for (const field of (error.params as { requiredProperties: string[] }).requiredProperties) {
        byField.set(join(error.instancePath, field), `${join(error.instancePath, field)}: es obligatorio`)
      }
      continue
    }
    if (error.keyword === 'additionalProperties') {
      for (const field of (error.params as { additionalProperties: string[] }).additionalProperties) {
        byField.set(join(error.instancePath, field), `${join(error.instancePath, field)}: campo desconocido`)
      }
      continue
    }
    const field = join(error.instancePath) || 'cuerpo'
    if (!byField.has(field) && error.keyword !== 'boolean') byField.set(field, `${field}: ${describe(error.keyword, error.params)}`)
  }
  return [...byField.values()].slice(0, limit)
}

function describe(keyword: string, params: Record<string, unknown>): string {
  switch (keyword) {
    case 'type':
      return `debe ser ${TYPES[String(params.type)] ?? String(params.type)}`
    case 'minimum':
      return `debe ser al menos ${String(params.limit)}`
    case 'maximum':
      return `debe ser como máximo ${String(params.limit)}`
    case 'minLength':
      return 'no puede estar vacío'
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
      return 'tiene un valor no admitido'
    default:
      return 'no es válido'
  }
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

/** `/lineas/0/cajas` → `lineas[0].cajas`. */
function join(instancePath: string, field?: string): string {
  const parts = instancePath.split('/').slice(1)
  if (field !== undefined) parts.push(field)
  return parts.map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : `${i === 0 ? '' : '.'}${part}`)).join('')
}
