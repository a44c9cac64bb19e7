import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'

const XML = readFileSync(new URL('../../build/manifiesto.xml', import.meta.url), 'utf8')
// Comments explain the account in words; only the elements count.
const ELEMENTS = XML.replace(/<!--[\s\S]*?-->/g, '')

function element(name: string, within = ELEMENTS): string | undefined {
  return new RegExp(`<${name}>([^<]*)</${name}>`).exec(within)?.[1]
}

test('WinSW definition: the service runs as its virtual account NT SERVICE\\<id>, with no password', () => {
  const account = /<serviceaccount>([\s\S]*?)<\/serviceaccount>/.exec(ELEMENTS)?.[1]
  assert.ok(account !== undefined, 'a <serviceaccount> element (without one WinSW installs as LocalSystem)')
  // WinSW 2 builds the account name as domain\user and passes it to CreateService.
  assert.equal(element('domain', account), 'NT SERVICE')
  assert.equal(element('user', account), element('id'), 'a virtual account is named after its service')
  assert.equal(element('password', account), undefined, 'a virtual account has no password')
  assert.doesNotMatch(ELEMENTS, /LocalSystem/i)
})

test('WinSW definition: WinSW writes its logs into a folder of their own (the account may write only there and in data)', () => {
  assert.equal(element('logpath'), '%BASE%\\logs')
})
