import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { SHIPPED_GUIDES } from '../../build/release.ts'
import { DEFAULT_CONFIG } from '../../src/config/config.ts'

/**
 * What the guides show must be what the service does (issue 44, item 8): the address a person
 * types carries the service's default port, and a log line looks like the lines the service
 * writes. Every guide shipped in the release archive, plus the developer's README.
 */
const ROOT = new URL('../../', import.meta.url)
const GUIDES = [...SHIPPED_GUIDES, 'README.md'].map((guide) => ({
  guide,
  text: readFileSync(fileURLToPath(new URL(guide, ROOT)), 'utf8'),
}))

/** Each line of each guide, with where it is. */
const lines = GUIDES.flatMap(({ guide, text }) =>
  text.split('\n').map((line, index) => ({ where: `${guide}:${index + 1}`, line })),
)

test(`guides: every address of the service shows its default port (${DEFAULT_CONFIG.server.port})`, () => {
  const addresses = lines.flatMap(({ where, line }) =>
    [
      ...line.matchAll(
        /\bhttps?:\/\/(?:localhost|127\.0\.0\.1|servidor[\w-]*|SERVIDOR[\w-]*|[\w-]+\.local)(?::(\d+))?/g,
      ),
    ].map((match) => ({ where, port: match[1], text: match[0] })),
  )
  assert.ok(addresses.length > 10, `${addresses.length} addresses`)
  const wrong = addresses
    .filter(({ port }) => port !== undefined && Number(port) !== DEFAULT_CONFIG.server.port)
    .map(({ where, text }) => `${where}: ${text}`)
  assert.deepEqual(wrong, [])
})

test('guides: every log line shown has its level as the service writes it ("level":"info"), not pino\'s number', () => {
  const logged = lines.filter(({ line }) => /"msg"\s*:/.test(line) && /"level"\s*:/.test(line))
  assert.ok(logged.length >= 2, `${logged.length} log lines shown`)
  const wrong = logged
    .filter(({ line }) => !/"level"\s*:\s*"(fatal|error|warn|info|debug|trace)"/.test(line))
    .map(({ where, line }) => `${where}: ${line.trim()}`)
  assert.deepEqual(wrong, [])
})
