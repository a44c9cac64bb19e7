import { invalidInput } from '../core/errors.ts'

/**
 * The query string as one value per name. A name given twice (`pagina=1&pagina=2`) and a value
 * that is not valid percent-encoded UTF-8 are refused (422) rather than silently resolved.
 * Names are kept as data: a `__proto__` parameter is an ordinary (unknown) name.
 */
export function parseQuery(search: string): Record<string, string> {
  const query: Record<string, string> = Object.create(null)
  if (search === '') return query
  for (const pair of search.split('&')) {
    if (pair === '') continue
    const equals = pair.indexOf('=')
    const name = decode(equals === -1 ? pair : pair.slice(0, equals))
    const value = equals === -1 ? '' : decode(pair.slice(equals + 1))
    if (Object.hasOwn(query, name))
      throw invalidInput(`El parámetro de consulta ${name} aparece más de una vez: envíelo una sola vez.`)
    query[name] = value
  }
  return query
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    throw invalidInput('La consulta de la URL tiene una codificación %XX inválida (debe ser UTF-8).')
  }
}
