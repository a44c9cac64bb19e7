import type { Validator } from 'typebox/compile'
import { invalidInput, notFound, type DomainError } from '../core/errors.ts'
import { dottedPath, problemsOf, shown, type Problem } from '../schemas/schema-errors.ts'

/**
 * Checks one part of a request against its route's schema and decodes it (`pagina` becomes a
 * number, a dd/MM/yyyy date an ISO one). Refusals are 422 in Spanish, naming each place the way
 * the caller wrote it: a body field, a query parameter, a header.
 */
export type InputPart = 'body' | 'query' | 'headers'

export function decodeInput(validator: Validator, part: InputPart, value: unknown): unknown {
  if (!validator.Check(value)) throw refusal(part, problemsOf(validator, value))
  return validator.Decode(value)
}

/** A path parameter that does not fit its schema names no resource: 404. */
export function decodeParams(validator: Validator, params: Record<string, string>, notFoundMessage: string): unknown {
  if (!validator.Check(params)) throw notFound(notFoundMessage)
  return validator.Decode(params)
}

function refusal(part: InputPart, problems: readonly Problem[]): DomainError {
  switch (part) {
    case 'body':
      return invalidInput(
        `Cuerpo inválido: ${problems.map((problem) => `${dottedPath(problem.path) || 'cuerpo'}: ${problem.phrase}`).join('; ')}.`,
      )
    case 'query':
      return invalidInput(problems.map(queryProblem).join(' '))
    case 'headers':
      return invalidInput(problems.map(headerProblem).join(' '))
  }
}

function queryProblem(problem: Problem): string {
  const name = dottedPath(problem.path)
  if (problem.kind === 'missing') return `Falta el parámetro ${name}${problem.expected ? `: ${problem.expected}` : ''}.`
  return `El parámetro ${name} ${problem.phrase} (se recibió ${shown(problem.value)}).`
}

function headerProblem(problem: Problem): string {
  const name = dottedPath(problem.path)
  if (problem.kind === 'missing')
    return `Falta el encabezado ${name}${problem.expected ? `: ${problem.expected}` : ''}.`
  if (problem.expected !== undefined)
    return `El encabezado ${name} tiene un formato inválido (${shown(problem.value)}): debe ser ${problem.expected}.`
  return `El encabezado ${name} ${problem.phrase}.`
}
