/**
 * The operator console in a real browser (Debian's chromium driven by playwright-core) against
 * the real service on a real temporary database: everything through the screens, elements found
 * by their role and visible Spanish name, as a person finds them. One browser for the file, a
 * fresh context (no cookies) and a fresh service per test. Every screen is saved as a screenshot.
 */
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { buildConsole } from '../../build/console.ts'
import { createAccount } from '../support/accounts.ts'
import { exampleBatch, invoice, postBatch } from '../support/batches.ts'
import { chromiumPath, launchChromium, logInThroughUi, newConsolePage, screenshot } from '../support/browser.ts'
import { FACTURA, registerReturn, seedReturns } from '../support/operator.ts'
import { startTestService, type TestService } from '../support/service.ts'

const executable = chromiumPath()
const skip = executable === null ? 'chromium no está instalado (apt-get install chromium, o CHROMIUM_PATH)' : false
let browser: Browser

before(async () => {
  if (executable === null) return
  await buildConsole({ quiet: true })
  browser = await launchChromium(executable)
})
after(async () => {
  await browser?.close()
})

/** A fresh service and a fresh browser context for one test; both closed after it. */
async function withConsole(body: (page: Page, service: TestService) => Promise<void>): Promise<void> {
  const service = await startTestService()
  const { context, page } = await newConsolePage(browser, service)
  try {
    await body(page, service)
  } finally {
    await context.close()
    await service.close()
  }
}

test('consola: wrong password shows the service message; five failures lock the name with its message', { skip }, () =>
  withConsole(async (page, service) => {
    await createAccount(service, 'ana', 'operador', ['OAC'])
    await page.goto(`${service.url}/consola/`)
    await page.getByRole('heading', { name: 'Consola del almacén' }).waitFor()
    await screenshot(page, '01-entrar')
    for (let attempt = 0; attempt < 5; attempt++) {
      await page.getByLabel('Usuario').fill('ana')
      await page.getByLabel('Contraseña').fill('no-es-la-clave')
      await page.getByRole('button', { name: 'Entrar' }).click()
      await page.getByRole('alert').filter({ hasText: 'Usuario o contraseña' }).waitFor()
    }
    await page.getByLabel('Usuario').fill('ana')
    await page.getByLabel('Contraseña').fill('clave-de-persona-2026')
    await page.getByRole('button', { name: 'Entrar' }).click()
    await page.getByRole('alert').filter({ hasText: 'Demasiados intentos fallidos para este usuario: espere 15 minuto(s)' }).waitFor()
    await screenshot(page, '01-entrar-bloqueado')
  }))

test('consola: a deep link asks for the login, then opens the screen asked for; the dashboard counts today', { skip }, () =>
  withConsole(async (page, service) => {
    await createAccount(service, 'sofia', 'supervisor')
    await seedReturns(service)
    await registerReturn(service, [{ numeroLinea: 1, unidades: 2 }])
    await logInThroughUi(page, service, 'sofia', '/consola/manifiestos/905112')
    await page.getByRole('heading', { name: 'Manifiesto 905112' }).waitFor()
    await page.getByRole('link', { name: 'Inicio' }).click()
    const figure = (name: string) => page.getByRole('link', { name: new RegExp(name) })
    await figure('Devoluciones por aprobar').waitFor()
    assert.match(await figure('Devoluciones por aprobar').innerText(), /^1\s/)
    assert.match(await figure('Manifiestos abiertos').innerText(), /^1\s/)
    assert.match(await figure('Lotes recibidos hoy').innerText(), /^1\s/)
    assert.match(await figure('Conflictos por decidir').innerText(), /^0\s/)
    const batchRow = page.getByRole('table').getByRole('row').nth(1)
    assert.deepEqual((await batchRow.getByRole('cell').allInnerTexts()).slice(1), ['Procesado', '2', '2', '0', '0', '0'])
    await screenshot(page, '02-inicio')
  }))

test('consola: a manifest found by number, an invoice in it found by client', { skip }, () =>
  withConsole(async (page, service) => {
    await createAccount(service, 'ana', 'operador', 'todos')
    await postBatch(service, exampleBatch())
    await postBatch(service, [invoice('F-OTRO', '905113')])
    await logInThroughUi(page, service, 'ana')
    await page.getByRole('navigation', { name: 'Secciones' }).getByRole('link', { name: 'Manifiestos' }).click()
    await page.getByLabel('Número de manifiesto').fill('905112')
    await page.getByText('1 manifiesto', { exact: true }).waitFor()
    await screenshot(page, '03-manifiestos')
    await page.getByRole('link', { name: '905112' }).click()
    await page.getByLabel('Buscar factura o cliente').fill('ahorro')
    await page.getByText('1 factura', { exact: true }).waitFor()
    await screenshot(page, '04-manifiesto')
    await page.getByRole('link', { name: '001-001-01-00912002' }).click()
    await page.getByRole('heading', { name: 'Factura 001-001-01-00912002' }).waitFor()
    await page.getByText('SUPER EL AHORRO').first().waitFor()
    await screenshot(page, '05-factura')
  }))
