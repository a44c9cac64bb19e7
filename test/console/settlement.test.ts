/**
 * The console's money (issue 40) in a real browser against the real service: a supervisor
 * registers deposits with the slip's photo (a tablet's 3000×2000 picture, made small in the browser
 * before it is sent), watches the difference reach 0 and closes; a short manifest's close button
 * says what is missing; finance settles cents and cancels a deposit but cannot approve or register
 * a return; the Depósitos screen, the manifests' money columns and Inicio's money cards.
 * The console is built into a folder of its own, so this file never races console.test.ts.
 */
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { buildConsole } from '../../build/console.ts'
import { consoleFilesFromFolder } from '../../src/console-assets/console-files.ts'
import { createAccount } from '../support/accounts.ts'
import { exampleBatch, postBatch } from '../support/batches.ts'
import { chromiumPath, launchChromium, logInThroughUi, newConsolePage, screenshot } from '../support/browser.ts'
import { FACTURA, registerReturn, seedReturns } from '../support/operator.ts'
import { startTestService, type TestService } from '../support/service.ts'

const executable = chromiumPath()
const skip = executable === null ? 'chromium no está instalado (apt-get install chromium, o CHROMIUM_PATH)' : false
let browser: Browser
const dist = mkdtempSync(join(tmpdir(), 'manifiesto-consola-'))

before(async () => {
  if (executable === null) return
  await buildConsole({ outdir: dist, quiet: true })
  browser = await launchChromium(executable)
})
after(async () => {
  await browser?.close()
  rmSync(dist, { recursive: true, force: true })
})

async function withConsole(body: (page: Page, service: TestService) => Promise<void>): Promise<void> {
  const service = await startTestService({ consoleFiles: consoleFilesFromFolder(dist) })
  const { context, page } = await newConsolePage(browser, service)
  try {
    await body(page, service)
  } finally {
    await context.close()
    await service.close()
  }
}

/**
 * A photo as a tablet takes it: 3000×2000 JPEG of a slip on grainy paper, drawn in the page (the
 * source is text: the tests' type check has no DOM).
 */
async function tabletPhoto(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate<string>(`(async () => {
    const canvas = document.createElement('canvas')
    canvas.width = 3000
    canvas.height = 2000
    const context = canvas.getContext('2d')
    const paper = context.createImageData(3000, 2000)
    for (let i = 0; i < paper.data.length; i += 4) {
      const grain = 225 + Math.floor(Math.random() * 30)
      paper.data[i] = grain; paper.data[i + 1] = grain - 4; paper.data[i + 2] = grain - 12; paper.data[i + 3] = 255
    }
    context.putImageData(paper, 0, 0)
    context.fillStyle = '#1b2430'
    context.font = 'bold 140px sans-serif'
    context.fillText('BAC Credomatic', 200, 400)
    context.fillText('Boleta 000123   L 2,300.18', 200, 800)
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.92))
    const bytes = new Uint8Array(await blob.arrayBuffer())
    let text = ''
    for (const byte of bytes) text += String.fromCharCode(byte)
    return btoa(text)
  })()`)
  return Buffer.from(base64, 'base64')
}

/** Width and height of a JPEG, from its frame header. */
function jpegSize(bytes: Buffer): { width: number; height: number } {
  for (let i = 2; i < bytes.length - 9;) {
    const marker = bytes[i + 1]!
    if (marker >= 0xc0 && marker <= 0xc2) return { height: bytes.readUInt16BE(i + 5), width: bytes.readUInt16BE(i + 7) }
    i += 2 + bytes.readUInt16BE(i + 2)
  }
  throw new Error('no es un JPEG')
}

test(
  "consola liquidación: a supervisor registers the deposits with the slip's photo, the difference reaches 0, and closes the manifest",
  { skip },
  () =>
    withConsole(async (page, service) => {
      await createAccount(service, 'sofia', 'supervisor')
      assert.equal((await postBatch(service, exampleBatch())).status, 200)
      await logInThroughUi(page, service, 'sofia', '/consola/manifiestos/905112')
      // Folded, the settlement is one line above the invoices; opened, a block per warehouse.
      await page.getByRole('button', { name: 'Liquidación' }).click()
      const oac = page.getByRole('region', { name: 'Almacén OAC' })
      await oac.getByText('Falta L 2,300.18', { exact: true }).waitFor()
      const photo = await tabletPhoto(page)
      await oac.getByRole('button', { name: 'Registrar depósito' }).click()
      const dialog = page.getByRole('dialog', { name: 'Registrar depósito' })
      assert.equal(await dialog.getByLabel('Monto (L)').inputValue(), '2300.18', 'pre-filled with what is missing')
      await dialog.getByLabel('Banco').selectOption('BAC Credomatic')
      await dialog.getByLabel('Número de boleta').fill('000123')
      await dialog
        .getByLabel('Elegir archivo')
        .setInputFiles({ name: 'IMG_20261122_101500.jpg', mimeType: 'image/jpeg', buffer: photo })
      await dialog.getByText(/^Lista: IMG_20261122_101500\.jpg · \d+ KB · 1600×1067$/).waitFor()
      await screenshot(page, '30-registrar-deposito')
      await dialog.getByRole('button', { name: 'Registrar depósito' }).click()
      await page
        .getByRole('status')
        .filter({ hasText: 'Depósito 1 registrado: L 2,300.18 de BAC Credomatic (almacén OAC).' })
        .waitFor()
      await oac.getByText('Liquidado', { exact: true }).waitFor()
      assert.equal(await oac.getByRole('definition').last().innerText(), 'L 0.00', 'the difference reached 0')
      const thumbnail = oac.getByRole('img', { name: 'Foto de la boleta 000123' })
      await thumbnail.waitFor()
      await page.waitForFunction("document.querySelector('img.miniatura')?.naturalWidth === 1600")
      const stored = service.db.sqlite
        .prepare('SELECT data FROM deposit_receipts WHERE deposit_id = 1')
        .pluck()
        .get() as Buffer
      assert.deepEqual(jpegSize(stored), { width: 1600, height: 1067 }, 'made small in the browser')
      assert.ok(stored.length < photo.length / 2, `${stored.length} bytes sent for a ${photo.length}-byte photo`)

      // The close button waits for the OAS part.
      const close = page.getByRole('button', { name: 'Cerrar manifiesto' })
      assert.equal(await close.isDisabled(), true)
      const oas = page.getByRole('region', { name: 'Almacén OAS' })
      await oas.getByRole('button', { name: 'Registrar depósito' }).click()
      const second = page.getByRole('dialog', { name: 'Registrar depósito' })
      await second.getByLabel('Banco').selectOption('Ficohsa')
      await second.getByLabel('Número de boleta').fill('FI-7781')
      await second.getByRole('button', { name: 'Registrar depósito' }).click()
      await page.getByRole('status').filter({ hasText: 'Depósito 2 registrado' }).waitFor()
      await page
        .getByText('A depositar L 2,489.15 · depositado L 2,489.15 · ajustes L 0.00 · diferencia L 0.00')
        .waitFor()
      await screenshot(page, '31-liquidacion-liquidada')
      await close.click()
      await page.getByRole('dialog').getByRole('button', { name: 'Cerrar manifiesto' }).click()
      await page.getByRole('status').filter({ hasText: 'Manifiesto 905112 cerrado.' }).waitFor()
      assert.equal(
        service.db.sqlite.prepare("SELECT estado FROM manifests WHERE numero = '905112'").pluck().get(),
        'closed',
      )
      await page.getByRole('button', { name: 'Reabrir manifiesto' }).waitFor()
      assert.equal(
        await page.getByRole('button', { name: 'Registrar depósito' }).count(),
        0,
        'a closed manifest takes no deposit',
      )
    }),
)

test("consola liquidación: a short manifest's close button says what is missing", { skip }, () =>
  withConsole(async (page, service) => {
    await createAccount(service, 'sofia', 'supervisor')
    await seedReturns(service)
    assert.equal((await registerReturn(service, [{ numeroLinea: 1, unidades: 1 }])).status, 201)
    await logInThroughUi(page, service, 'sofia', '/consola/manifiestos/905112')
    const close = page.getByRole('button', { name: 'Cerrar manifiesto' })
    await close.waitFor()
    assert.equal(await close.isDisabled(), true)
    const why = await close.getAttribute('aria-describedby')
    assert.equal(
      await page.locator(`#${why}`).innerText(),
      'Todavía no se puede cerrar: falta depositar L 2,300.18 del almacén OAC y L 188.97 del almacén OAS; hay 1 devolución pendiente.',
    )
    await screenshot(page, '32-liquidacion-falta')
  }),
)

test(
  'consola liquidación: finance adjusts the cents and cancels a deposit, but cannot approve nor register a return',
  { skip },
  () =>
    withConsole(async (page, service) => {
      await createAccount(service, 'fina', 'finanzas', ['OAC'])
      await seedReturns(service)
      assert.equal((await registerReturn(service, [{ numeroLinea: 1, unidades: 1 }])).status, 201)
      await logInThroughUi(page, service, 'fina', '/consola/devoluciones')
      const nav = page.getByRole('navigation', { name: 'Secciones' })
      assert.deepEqual(await nav.getByRole('link').allInnerTexts(), [
        'Inicio',
        'Manifiestos',
        'Devoluciones',
        'Depósitos',
        'Conceptos',
        'Auditoría',
      ])
      await page.getByRole('row', { name: /001-001-01-00912001/ }).waitFor()
      assert.equal(await page.getByRole('button', { name: /Aprobar/ }).count(), 0, 'finance does not approve returns')
      await page.goto(`${service.url}/consola/facturas/${FACTURA}`)
      await page.getByRole('heading', { name: `Factura ${FACTURA}` }).waitFor()
      assert.equal(await page.getByRole('link', { name: 'Registrar devolución' }).count(), 0, 'nor registers them')

      await page.goto(`${service.url}/consola/manifiestos/905112?liquidacion=1`)
      const oac = page.getByRole('region', { name: 'Almacén OAC' })
      await oac.waitFor()
      assert.equal(
        await page.getByRole('region', { name: 'Almacén OAS' }).count(),
        0,
        'only the parts of her warehouses',
      )
      await oac.getByRole('button', { name: 'Registrar depósito' }).click()
      let dialog = page.getByRole('dialog', { name: 'Registrar depósito' })
      await dialog.getByLabel('Monto (L)').fill('2,300.00')
      await dialog.getByLabel('Banco').selectOption('Banco Atlántida')
      await dialog.getByLabel('Número de boleta').fill('AT-1')
      await dialog.getByRole('button', { name: 'Registrar depósito' }).click()
      await page.getByRole('status').filter({ hasText: 'Depósito 1 registrado' }).waitFor()
      await oac.getByText('Falta L 0.18 · 1 devolución pendiente', { exact: true }).waitFor()
      await oac.getByRole('button', { name: 'Ajustar centavos' }).click()
      dialog = page.getByRole('dialog', { name: 'Ajustar centavos del almacén OAC' })
      await dialog.getByLabel('Motivo').fill('El banco redondeó la transferencia')
      await dialog.getByRole('button', { name: 'Ajustar centavos' }).click()
      await page.getByRole('status').filter({ hasText: 'Ajuste de L 0.18 registrado en el almacén OAC.' }).waitFor()
      await oac.getByText('1 devolución pendiente', { exact: true }).waitFor()
      await oac
        .getByRole('table', { name: 'Ajustes de centavos' })
        .getByText('El banco redondeó la transferencia')
        .waitFor()
      await screenshot(page, '33-liquidacion-finanzas')

      await oac.getByRole('button', { name: 'Anular el depósito 1' }).click()
      dialog = page.getByRole('dialog', { name: 'Anular el depósito 1' })
      await dialog.getByLabel('Motivo').fill('La boleta era de otra ruta')
      await dialog.getByRole('button', { name: 'Anular depósito' }).click()
      await page.getByRole('status').filter({ hasText: 'Depósito 1 anulado.' }).waitFor()
      await oac.getByText('Anulado: La boleta era de otra ruta').waitFor()
      await oac.getByText('Falta L 2,300.00 · 1 devolución pendiente', { exact: true }).waitFor()
    }),
)

test(
  "consola liquidación: the manifests' money columns, «Por liquidar», the Depósitos screen and Inicio's money",
  { skip },
  () =>
    withConsole(async (page, service) => {
      await createAccount(service, 'sofia', 'supervisor')
      assert.equal((await postBatch(service, exampleBatch())).status, 200)
      const slip = (monto: number, almacen: string, banco: string, referencia: string) => ({
        almacen,
        monto,
        fecha: '2026-11-22',
        banco,
        referencia,
      })
      for (const body of [slip(2000, 'OAC', 'BAC Credomatic', '000777'), slip(188.97, 'OAS', 'Ficohsa', 'F-1001')]) {
        const answer = await service.fetch('/api/v1/operador/manifiestos/905112/depositos', {
          method: 'POST',
          headers: {
            OperatorKey: 'clave-operador-de-prueba-91c2',
            Operador: 'Sofia',
            'Content-Type': 'application/json',
          },
          body: JSON.stringify(body),
        })
        assert.equal(answer.status, 201)
      }
      await logInThroughUi(page, service, 'sofia')
      const money = page.getByRole('region', { name: 'Liquidación' })
      assert.match(
        await money.getByRole('link', { name: /Por depositar/ }).innerText(),
        /^L 300.18\s+Por depositar\s+En 1 manifiesto abierto$/,
      )
      assert.match(
        await money.getByRole('link', { name: /Depósitos de hoy/ }).innerText(),
        /^2\s+Depósitos de hoy\s+L 2,188.97 registrados hoy$/,
      )
      await screenshot(page, '34-inicio-liquidacion')
      await money.getByRole('link', { name: /Por depositar/ }).click()
      await page
        .getByRole('link', { name: 'Por liquidar', exact: true })
        .and(page.locator('[aria-current="page"]'))
        .waitFor()
      const row = page.getByRole('row', { name: /905112/ })
      await row.waitFor()
      const cells = await row.getByRole('cell').allInnerTexts()
      assert.deepEqual(
        cells.slice(5, 8),
        ['L 2,489.15', 'L 2,188.97', 'L 300.18'],
        'A depositar, Depositado, Diferencia',
      )
      await screenshot(page, '35-manifiestos-por-liquidar')

      await page.getByRole('navigation', { name: 'Secciones' }).getByRole('link', { name: 'Depósitos' }).click()
      await page.getByRole('heading', { name: 'Depósitos', level: 1 }).waitFor()
      await page
        .getByRole('table', { name: 'Depósitos activos' })
        .getByRole('row', { name: /000777/ })
        .waitFor()
      assert.match(
        await page.getByRole('table', { name: 'Depósitos activos' }).locator('tfoot').innerText(),
        /Total \(2 depósitos, todas las páginas\)\s+L 2,188.97/,
      )
      await page.getByLabel('Banco').selectOption('Ficohsa')
      await page.getByText('Total (1 depósito, todas las páginas)').waitFor()
      await screenshot(page, '36-depositos')
      const download = page.waitForEvent('download')
      await page.getByRole('button', { name: 'Exportar CSV' }).click()
      const file = await download
      assert.equal(file.suggestedFilename(), 'depositos-2026-11-22.csv')
    }),
)

test(
  'consola liquidación: an operator sees the money of the manifest, not its deposits nor the actions',
  { skip },
  () =>
    withConsole(async (page, service) => {
      await createAccount(service, 'ana', 'operador', ['OAC'])
      assert.equal((await postBatch(service, exampleBatch())).status, 200)
      await logInThroughUi(page, service, 'ana', '/consola/manifiestos/905112')
      await page.getByRole('button', { name: 'Liquidación' }).click()
      const oac = page.getByRole('region', { name: 'Almacén OAC' })
      await oac.getByText('Falta L 2,300.18', { exact: true }).waitFor()
      assert.equal(await page.getByRole('button', { name: 'Registrar depósito' }).count(), 0)
      assert.equal(await page.getByText('Sin depósitos todavía.').count(), 0)
      assert.equal(
        await page.getByRole('navigation', { name: 'Secciones' }).getByRole('link', { name: 'Depósitos' }).count(),
        0,
      )
    }),
)
