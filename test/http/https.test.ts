import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { get, request } from 'node:https'
import { test } from 'node:test'
import { createAccount, PASSWORD } from '../support/accounts.ts'
import { withService } from '../support/service.ts'
import { selfSignedCertificate } from '../support/tls.ts'

test('https: with server.https files the service answers over TLS with that certificate', async () => {
  const https = selfSignedCertificate()
  await withService({ config: { server: { https } } }, async (service) => {
    const port = new URL(service.url).port
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      get(`https://127.0.0.1:${port}/api/v1/ping`, { ca: readFileSync(https.certFile) }, (res) => {
        let body = ''
        res.on('data', (chunk: Buffer) => (body += chunk.toString()))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      }).on('error', reject)
    })
    assert.equal(status, 200)
    assert.equal((JSON.parse(body) as { status: string }).status, 'ok')
    await assert.rejects(fetch(`${service.url}/api/v1/ping`), 'plain HTTP is not served on the TLS port')
  })
})

test('https: the session cookie is Secure when the service runs HTTPS', async () => {
  const https = selfSignedCertificate()
  await withService({ config: { server: { https } } }, async (service) => {
    await createAccount(service, 'ana', 'operador')
    const port = new URL(service.url).port
    const setCookie = await new Promise<string>((resolve, reject) => {
      const login = request(
        `https://127.0.0.1:${port}/api/v1/sesion`,
        { method: 'POST', ca: readFileSync(https.certFile), headers: { 'Content-Type': 'application/json' } },
        (res) => {
          res.resume()
          res.on('end', () =>
            res.statusCode === 200
              ? resolve(String(res.headers['set-cookie'] ?? ''))
              : reject(new Error(`login: ${res.statusCode}`)),
          )
        },
      )
      login.on('error', reject)
      login.end(JSON.stringify({ usuario: 'ana', contrasena: PASSWORD }))
    })
    assert.match(setCookie, /^manifiesto_sesion=[^;]+;/)
    assert.match(setCookie, /; Secure(;|$)/)
    assert.match(setCookie, /; HttpOnly(;|$)/)
    assert.match(setCookie, /; SameSite=Strict(;|$)/)
  })
})
