/**
 * Hides keys that a caller put where they do not belong (a path such as `/estado;ApiKey=…`, a
 * path segment that is the key itself): what is logged or echoed in an error never carries one.
 * Configured keys are hidden wherever they appear, as sent or percent-encoded; any value of a
 * key-named parameter is hidden too, since a wrong key is as secret as a right one.
 */
export type Redactor = (text: string) => string

const KEY_PARAMETER = /((?:api|operator)[-_]?key)(=|%3D)([^/;&?#]*)/gi
export const HIDDEN = '[clave oculta]'

export function createRedactor(keys: readonly string[]): Redactor {
  const secrets = [...new Set(keys.flatMap((key) => [key, encodeURIComponent(key)]))].filter(
    (secret) => secret.length >= 4,
  )
  return (text) => {
    let safe = text.replace(KEY_PARAMETER, `$1$2${HIDDEN}`)
    for (const secret of secrets) safe = safe.split(secret).join(HIDDEN)
    return safe
  }
}
