import assert from 'node:assert/strict'
import { test } from 'node:test'
import { chromiumPath, launchChromium } from '../support/browser.ts'
import { API_KEY, withService } from '../support/service.ts'

/**
 * Issue 17: the API reference opens in Chromium (Debian's, driven by playwright-core), shows the
 * client endpoints with their examples and the warehouse's API after them, "tries" an operation
 * against this server with the ApiKey typed by the reader (kept nowhere but the tab), and no
 * request ever leaves the server's origin: every request is intercepted, and others are refused.
 */
const executablePath = chromiumPath()

test(
  'api docs: /api/v1/docs shows the client endpoints with their examples, then the warehouse API; try-it works; nothing leaves the origin',
  {
    skip: executablePath === null ? 'chromium no está instalado (apt-get install chromium, o CHROMIUM_PATH)' : false,
    timeout: 120_000,
  },
  () =>
    withService({}, async (service) => {
      const browser = await launchChromium(executablePath!)
      try {
        const context = await browser.newContext()
        const origin = new URL(service.url).origin
        const outside: string[] = []
        const requested: string[] = []
        await context.route('**/*', (route) => {
          const url = route.request().url()
          requested.push(url)
          if (new URL(url).origin !== origin) {
            outside.push(url)
            return route.abort('blockedbyclient')
          }
          return route.continue()
        })
        const page = await context.newPage()
        const problems: string[] = []
        page.on('console', (message) => {
          if (message.type() === 'error') problems.push(message.text())
        })
        page.on('pageerror', (error) => problems.push(error.message))

        const response = await page.goto(`${service.url}/api/v1/docs`)
        assert.equal(response?.status(), 200)
        assert.match(response?.headers()['content-security-policy'] ?? '', /script-src 'self'/)
        await page.locator('.opblock-tag').first().waitFor({ timeout: 30_000 })

        // The sections: every client tag before every warehouse tag.
        const tags = await page
          .locator('.opblock-tag')
          .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-tag') ?? ''))
        const lastClient = tags.map((tag) => tag.startsWith('cliente:')).lastIndexOf(true)
        const firstOperator = tags.findIndex((tag) => tag.startsWith('operador:'))
        assert.ok(lastClient >= 0 && firstOperator > lastClient, `sections out of order: ${tags.join(', ')}`)

        // Every client endpoint is listed.
        const paths = await page
          .locator('.opblock-summary-path')
          .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-path')))
        for (const path of [
          '/api/v1/ping',
          '/api/v1/facturas/insertar',
          '/api/v1/facturas/validar',
          '/api/v1/manifiestos/{numero}/estado',
          '/api/v1/devoluciones/listar',
          '/api/v1/openapi.json',
        ]) {
          assert.ok(paths.includes(path), `${path} is not shown`)
        }

        // insertar, opened: its example request and its example answers.
        const insert = page.locator('.opblock', { has: page.locator('[data-path="/api/v1/facturas/insertar"]') })
        await insert.locator('.opblock-summary').click()
        await insert.locator('.responses-table').waitFor()
        const text = await insert.innerText()
        assert.match(text, /001-001-01-00912001/, 'the sample batch is the example request')
        assert.match(text, /Lote procesado: 2 factura\(s\) recibidas, 2 insertadas\./, 'the 200 example')
        for (const status of ['200', '401', '408', '413', '422', '429', '500', '503']) {
          assert.ok(
            await insert.locator(`.responses-table tr.response[data-code="${status}"]`).count(),
            `no answer ${status}`,
          )
        }

        // Try it: the ApiKey typed in «Authorize», validar with the sample batch, against this server.
        await page.locator('.auth-wrapper .authorize').click()
        const apiKeyBox = page.locator('.modal-ux .auth-container', { hasText: 'Name: ApiKey' })
        await apiKeyBox.locator('input').fill(API_KEY)
        await apiKeyBox.locator('.auth-btn-wrapper .authorize').click()
        await page.locator('.modal-ux .close-modal').click()
        const validate = page.locator('.opblock', { has: page.locator('[data-path="/api/v1/facturas/validar"]') })
        await validate.locator('.opblock-summary').click()
        await validate.locator('.try-out__btn').click()
        await validate.locator('.execute').click()
        const live = validate.locator('.live-responses-table tr.response .response-col_status').first()
        await live.waitFor({ timeout: 30_000 })
        assert.equal((await live.innerText()).trim(), '200')
        assert.match(await validate.locator('.live-responses-table').innerText(), /"simulacion": true/)
        assert.equal(
          Number(service.db.sqlite.prepare('SELECT count(*) FROM batches').pluck().get()),
          0,
          'the dry run stored nothing',
        )

        const stored = String(
          await page.evaluate(
            'JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie })',
          ),
        )
        assert.doesNotMatch(stored, new RegExp(API_KEY), 'the key is kept nowhere but the page’s memory')
        assert.deepEqual(
          problems.filter((problem) => /Content Security Policy|Refused/i.test(problem)),
          [],
          'the CSP blocked nothing the page needs',
        )
        assert.deepEqual(outside, [], 'no request left the server’s origin')
        assert.ok(requested.some((url) => url.endsWith('/api/v1/docs/swagger-ui-bundle.js')))
        assert.ok(requested.some((url) => url.endsWith('/api/v1/openapi.json')))
      } finally {
        await browser.close()
      }
    }),
)

test('api docs: the page and its files carry the security headers; an unknown file is a 404 in Spanish', () =>
  withService({}, async (service) => {
    for (const [path, type] of [
      ['/api/v1/docs', 'text/html'],
      ['/api/v1/docs/inicio.js', 'text/javascript'],
      ['/api/v1/docs/swagger-ui.css', 'text/css'],
      ['/api/v1/docs/swagger-ui-bundle.js', 'text/javascript'],
    ] as const) {
      const response = await service.fetch(path)
      assert.equal(response.status, 200, path)
      assert.match(response.headers.get('content-type') ?? '', new RegExp(`^${type}`))
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff')
      assert.match(
        response.headers.get('content-security-policy') ?? '',
        /^default-src 'none'; script-src 'self'; style-src 'self';/,
      )
      assert.ok((await response.arrayBuffer()).byteLength > 0)
    }
    const page = await (await service.fetch('/api/v1/docs')).text()
    assert.doesNotMatch(page, /<script>(?!<\/script>)|<script(?![^>]*\bsrc=)[^>]*>|style=/, 'no inline script or style')
    const missing = await service.fetch('/api/v1/docs/index.html')
    assert.equal(missing.status, 404)
    assert.deepEqual(await missing.json(), {
      success: false,
      message: 'No existe el archivo index.html de la referencia de la API; ábrala en /api/v1/docs.',
    })
  }))
