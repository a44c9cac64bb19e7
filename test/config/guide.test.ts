import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { DEFAULT_CONFIG } from '../../src/config/config.ts'

const GUIDE = readFileSync(new URL('../../docs/administracion.md', import.meta.url), 'utf8')
const reference = GUIDE.slice(
  GUIDE.indexOf('## Referencia de la configuración'),
  GUIDE.indexOf('## Cuentas personales'),
)

/** Every key as the guide writes it (`server.port`): arrays and scalars are leaves. */
function keysOf(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [prefix]
  return Object.entries(value).flatMap(([key, inner]) => keysOf(inner, prefix === '' ? key : `${prefix}.${key}`))
}

for (const key of keysOf(DEFAULT_CONFIG)) {
  test(`configuration guide: «${key}» has a row in administracion.md's reference`, () => {
    // The key in the first cell of a row (a row may name two keys: certFile, keyFile).
    assert.match(reference, new RegExp(`^\\| [^|]*\`${key.replace(/\./g, '\\.')}\`[^|]*\\|`, 'm'))
  })
}
