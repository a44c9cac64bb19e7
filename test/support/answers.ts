import type { TSchema } from 'typebox'
import { Compile, type Validator } from 'typebox/compile'
import { RouteTable } from '../../src/http/route-table.ts'
import type { Route } from '../../src/http/route.ts'
import { documentedAnswers, ErrorBody } from '../../src/http/schemas.ts'
import { dottedPath, problemsOf } from '../../src/schemas/schema-errors.ts'

/**
 * Holds every JSON answer the tests receive to the schema its route documents for that status
 * (the same schemas the OpenAPI document is made of): an undocumented status or a body that does
 * not match its schema fails the test that received it.
 */
export function answerChecker(
  routes: readonly Route[],
): (method: string, path: string, response: Response) => Promise<void> {
  const table = new RouteTable(routes)
  const validators = new Map<TSchema, Validator>()
  const validatorOf = (schema: TSchema) => {
    let validator = validators.get(schema)
    if (validator === undefined) validators.set(schema, (validator = Compile(schema)))
    return validator
  }
  return async (method, path, response) => {
    if (!(response.headers.get('content-type') ?? '').startsWith('application/json')) return
    const text = await response.text()
    // The path as the request really went: fetch resolves `..` and `.` segments (`manifiestos/../depositos`).
    const pathname = new URL(path.split('?')[0]!, 'http://localhost').pathname
    const lookup = table.lookup(method, pathname, pathname)
    // Node answers these itself, before any route (a malformed request, headers over 16 KB).
    const transport = response.status === 400 || response.status === 431
    const schema =
      'match' in lookup && !transport ? documentedAnswers(lookup.match.route)[response.status]?.schema : ErrorBody
    if (schema === undefined) {
      if ('match' in lookup && documentedAnswers(lookup.match.route)[response.status] !== undefined) return
      throw new Error(`${method} ${path} respondió ${response.status}, que su ruta no documenta: ${text.slice(0, 300)}`)
    }
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      throw new Error(`${method} ${path} respondió ${response.status} con JSON inválido: ${text.slice(0, 300)}`)
    }
    const validator = validatorOf(schema)
    if (!validator.Check(value)) {
      const problems = problemsOf(validator, value).map(
        (problem) => `${dottedPath(problem.path) || 'respuesta'}: ${problem.phrase}`,
      )
      throw new Error(
        `${method} ${path} respondió ${response.status} con un cuerpo que no cumple su esquema documentado: ${problems.join('; ')}`,
      )
    }
  }
}
