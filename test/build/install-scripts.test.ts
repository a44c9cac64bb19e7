import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'

/**
 * `npm install` runs no install script nobody decided on (issue 44, item 8): every package of the
 * lockfile that has one is named in package.json's `allowScripts` (npm 11.16+) — true for the two
 * that build what the service needs, false for @scarf/scarf, the usage telemetry swagger-ui-dist
 * pulls in (denied, and its own opt-out set for an npm that does not read allowScripts).
 */
const read = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../${name}`, import.meta.url), 'utf8')) as Record<string, any>

test('install scripts: every package with one in the lockfile is allowed or denied by name in allowScripts; @scarf/scarf denied', () => {
  const manifest = read('package.json')
  const lock = read('package-lock.json')
  const withScripts = Object.entries(lock.packages as Record<string, { hasInstallScript?: boolean }>)
    .filter(([, entry]) => entry.hasInstallScript)
    .map(([path]) => path.replace(/^.*node_modules\//, ''))
  assert.ok(withScripts.length >= 3, withScripts.join(', '))
  const decided = manifest.allowScripts as Record<string, boolean>
  assert.deepEqual(
    withScripts.filter(
      (name) => typeof decided[name] !== 'boolean' && !Object.keys(decided).some((key) => key.startsWith(`${name}@`)),
    ),
    [],
  )
  assert.equal(decided['@scarf/scarf'], false)
  assert.deepEqual(manifest.scarfSettings, { enabled: false })
  assert.deepEqual(
    Object.keys(decided)
      .filter((name) => decided[name] === true)
      .sort(),
    ['better-sqlite3', 'esbuild'],
  )
})
