import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { consoleFilesFromFolder } from '../../src/console-assets/console-files.ts'
import { rawRequest } from '../support/raw-request.ts'
import { withService } from '../support/service.ts'

/**
 * How the service serves the built console at /consola/: the app for every screen's address,
 * hashed assets with a year's cache, security headers on all of it, and nothing but the build's
 * own files — a path never reaches the disk.
 */
const INDEX = '<!doctype html><div id="app"></div><script type="module" src="/consola/assets/app-ABC123.js"></script>'
const SCRIPT = 'console.log("consola")'
let dir: string

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'manifiesto-consola-'))
  mkdirSync(join(dir, 'dist/assets'), { recursive: true })
  writeFileSync(join(dir, 'dist/index.html'), INDEX)
  writeFileSync(join(dir, 'dist/assets/app-ABC123.js'), SCRIPT)
  writeFileSync(join(dir, 'dist/assets/app-ABC123.css'), 'body{}')
  writeFileSync(join(dir, 'dist/secreto.db'), 'SQLite format 3')
  writeFileSync(join(dir, 'manifiesto.db'), 'SQLite format 3')
})
after(() => rmSync(dir, { recursive: true, force: true }))

const SECURITY = {
  'content-security-policy':
    "default-src 'self'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'; object-src 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
}

interface Row {
  name: string
  method?: string
  path: string
  status: number
  headers?: Record<string, string>
  body?: string | RegExp
}

const ROWS: Row[] = [
  { name: '/ sends the browser to the console', path: '/', status: 302, headers: { location: '/consola/' } },
  { name: '/consola without its slash too', path: '/consola', status: 302, headers: { location: '/consola/' } },
  {
    name: 'the app, never cached',
    path: '/consola/',
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', ...SECURITY },
    body: INDEX,
  },
  {
    name: 'a deep link answers the app',
    path: '/consola/manifiestos/905112',
    status: 200,
    headers: { 'cache-control': 'no-cache', ...SECURITY },
    body: INDEX,
  },
  {
    name: 'a deep link with a query answers the app',
    path: '/consola/devoluciones?estado=approved&q=912',
    status: 200,
    body: INDEX,
  },
  {
    name: 'a hashed script, cached for a year',
    path: '/consola/assets/app-ABC123.js',
    status: 200,
    headers: {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=31536000, immutable',
      ...SECURITY,
    },
    body: SCRIPT,
  },
  {
    name: 'a hashed stylesheet',
    path: '/consola/assets/app-ABC123.css',
    status: 200,
    headers: { 'content-type': 'text/css; charset=utf-8' },
  },
  {
    name: 'an unknown asset is 404, not the app',
    path: '/consola/assets/app-OTRO.js',
    status: 404,
    headers: { 'content-type': 'text/plain; charset=utf-8', ...SECURITY },
    body: /No existe el archivo \/consola\/assets\/app-OTRO\.js de la consola/,
  },
  {
    name: 'a file of the build folder outside assets/ is not served',
    path: '/consola/assets/../secreto.db',
    status: 404,
  },
  { name: 'an encoded climb out of assets/ is 404', path: '/consola/assets/%2e%2e%2fsecreto.db', status: 404 },
  {
    name: 'a climb to the database answers the app, never the file',
    path: '/consola/../manifiesto.db',
    status: 200,
    body: INDEX,
  },
  {
    name: 'an encoded climb to the database answers the app',
    path: '/consola/..%2f..%2fmanifiesto.db',
    status: 200,
    body: INDEX,
  },
  {
    name: 'a change is refused',
    method: 'POST',
    path: '/consola/',
    status: 405,
    headers: { allow: 'GET, HEAD' },
    body: 'La consola solo responde a GET.',
  },
  {
    name: 'HEAD answers the headers',
    method: 'HEAD',
    path: '/consola/',
    status: 200,
    headers: { 'cache-control': 'no-cache' },
    body: '',
  },
  {
    name: 'the API is untouched',
    path: '/api/v1/ping',
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  },
]

for (const row of ROWS) {
  test(`consola estática: ${row.name}`, () =>
    withService({ consoleFiles: consoleFilesFromFolder(join(dir, 'dist')) }, async (service) => {
      const answer = await rawRequest(service.url, { method: row.method ?? 'GET', path: row.path })
      assert.equal(answer.status, row.status, answer.body)
      for (const [name, value] of Object.entries(row.headers ?? {})) assert.equal(answer.headers[name], value, name)
      if (typeof row.body === 'string') assert.equal(answer.body, row.body)
      else if (row.body) assert.match(answer.body, row.body)
    }))
}

test('consola estática: without a build, /consola/ says how to build it and the API still answers', () =>
  withService({ consoleFiles: consoleFilesFromFolder(join(dir, 'no-existe')) }, async (service) => {
    const page = await rawRequest(service.url, { path: '/consola/facturas/1' })
    assert.equal(page.status, 503)
    assert.equal(
      page.body,
      'La consola no está construida en esta instalación: ejecute «npm run build:consola» (desarrollo) o use el ejecutable publicado.',
    )
    assert.equal((await rawRequest(service.url, { path: '/api/v1/ping' })).status, 200)
  }))

test('consola estática: a new build is served without a restart (npm run dev)', () =>
  withService({ consoleFiles: consoleFilesFromFolder(join(dir, 'dist')) }, async (service) => {
    const rebuilt = join(dir, 'otra')
    mkdirSync(join(rebuilt, 'assets'), { recursive: true })
    writeFileSync(join(rebuilt, 'index.html'), 'v1')
    writeFileSync(join(rebuilt, 'assets/app-V1.js'), '1')
    await withService({ consoleFiles: consoleFilesFromFolder(rebuilt) }, async (live) => {
      assert.equal((await rawRequest(live.url, { path: '/consola/' })).body, 'v1')
      writeFileSync(join(rebuilt, 'assets/app-V2.js'), '2')
      writeFileSync(join(rebuilt, 'index.html'), 'v2 — con un nombre nuevo')
      const later = Date.now() / 1000 + 5
      utimesSync(join(rebuilt, 'index.html'), later, later)
      assert.equal((await rawRequest(live.url, { path: '/consola/' })).body, 'v2 — con un nombre nuevo')
      assert.equal((await rawRequest(live.url, { path: '/consola/assets/app-V2.js' })).body, '2')
    })
    assert.equal((await rawRequest(service.url, { path: '/consola/' })).body, INDEX)
  }))
