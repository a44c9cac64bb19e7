/**
 * The print views (issue 42) in a real browser against the real service: each rendered to a PDF
 * the size of Carta with Chromium's page.pdf, its text read back with pdftotext (poppler-utils)
 * and checked for its figures, totals and page numbers; invoices marked printed (ORIGINAL, then
 * COPIA); a 300-invoice manifest prints 300 invoice pages and a route sheet of several pages with
 * its header on each. The PDFs and their first pages as PNG (pdftoppm) stay in
 * test/console/screenshots/ to be looked at. The console is built into a folder of its own.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { buildConsole } from '../../build/console.ts'
import { consoleFilesFromFolder } from '../../src/console-assets/console-files.ts'
import { all } from '../../src/db/database.ts'
import { createAccount, PASSWORD } from '../support/accounts.ts'
import { invoice, postBatch } from '../support/batches.ts'
import {
  chromiumPath,
  launchChromium,
  logInThroughUi,
  newConsolePage,
  SCREENSHOTS,
  screenshot,
  until,
} from '../support/browser.ts'
import { F1, seedConsoleReturns } from '../support/console.ts'
import { operator } from '../support/operator.ts'
import { startTestService, type TestService } from '../support/service.ts'
import { depositBody } from '../support/settlement.ts'

const executable = chromiumPath()
const hasPoppler = (() => {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})()
const skip =
  executable === null
    ? 'chromium no está instalado (apt-get install chromium, o CHROMIUM_PATH)'
    : !hasPoppler
      ? 'pdftotext no está instalado (apt-get install poppler-utils)'
      : false
let browser: Browser
const dist = mkdtempSync(join(tmpdir(), 'manifiesto-consola-'))

before(async () => {
  if (skip) return
  await buildConsole({ outdir: dist, quiet: true })
  browser = await launchChromium(executable!)
  // Chromium starts its helper processes (network, storage, GPU for printing) on first use: here,
  // so that no test is taken to have left them running.
  const warm = await browser.newContext()
  const page = await warm.newPage()
  await page.setContent('<p>papel</p>')
  await page.pdf({ format: 'Letter' })
  await warm.close()
})
after(async () => {
  await browser?.close()
  rmSync(dist, { recursive: true, force: true })
})

async function withConsole(body: (page: Page, service: TestService) => Promise<void>): Promise<void> {
  const service = await startTestService({ consoleFiles: consoleFilesFromFolder(dist) })
  const { context, page } = await newConsolePage(browser, service)
  // The browser's print dialog is counted instead of opened (page.pdf makes the paper).
  await context.addInitScript('window.print = () => { window.__impresiones = (window.__impresiones || 0) + 1 }')
  try {
    await body(page, service)
  } finally {
    await context.close()
    await service.close()
  }
}

/** The example batch, its returns (1 approved on F1), a deposit of 100.00 for OAC; sup-oac (OAC) logs in. */
async function seedMoney(service: TestService): Promise<void> {
  await seedConsoleReturns(service)
  const deposit = await operator(service, 'POST', 'manifiestos/905112/depositos', depositBody(100, { almacen: 'OAC' }))
  assert.equal(deposit.status, 201, JSON.stringify(deposit.body))
}

/** The view's paper: waits for the sheet, saves the PDF and the first page as PNG, returns its pages' text. */
async function paper(page: Page, name: string): Promise<string[]> {
  await page.locator('main.hoja').waitFor()
  await screenshot(page, `impresion-${name}`)
  mkdirSync(SCREENSHOTS, { recursive: true })
  const pdf = join(SCREENSHOTS, `impresion-${name}.pdf`)
  writeFileSync(pdf, await page.pdf({ format: 'Letter' }))
  execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', pdf, join(SCREENSHOTS, `impresion-${name}-pdf`)])
  const text = execFileSync('pdftotext', [pdf, '-'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  return text.split('\f').filter((pageText, index, pages) => index < pages.length - 1 || pageText.trim() !== '')
}

const squeezed = (text: string) => text.replace(/\s+/g, ' ')

/** Each fragment is in the text (pdftotext reads a table cell by cell, so fragments are cells or lines). */
function has(text: string, fragments: readonly string[]): void {
  const flat = squeezed(text)
  for (const fragment of fragments) assert.ok(flat.includes(fragment), `«${fragment}» in: ${flat.slice(0, 3000)}`)
}

test(
  'print: a deep link asks for the login and comes back; the route sheet by route with its totals and page numbers',
  { skip },
  () =>
    withConsole(async (page, service) => {
      await seedMoney(service)
      await page.goto(`${service.url}/consola/imprimir/ruta/905112`)
      await page.getByLabel('Usuario').fill('sup-oac')
      await page.getByLabel('Contraseña').fill(PASSWORD)
      await page.getByRole('button', { name: 'Entrar' }).click()
      const pages = await paper(page, 'hoja-de-ruta')
      assert.equal(new URL(page.url()).pathname, '/consola/imprimir/ruta/905112')
      assert.equal(
        await page.getByRole('navigation', { name: 'Secciones' }).count(),
        0,
        'no navigation on a print view',
      )
      assert.equal(pages.length, 1)
      has(pages[0]!, [
        'Hoja de ruta',
        'Manifiesto 905112 · ingresó el 22/11/2026 10:00 · almacenes OAC · 1 factura en 1 ruta',
        '✓ # FACTURA CLIENTE DIRECCIÓN',
        'CAJAS UNID. TOTAL',
        'Ruta 118 · 1 factura',
        `1 ${F1} PULPERIA LA ESPERANZA`,
        '· 40112233',
        'COL. KENNEDY, BLOQUE 4, CASA 12 · Distrito Central',
        'Total de la ruta 118 3 22 L 2,300.18',
        'Total del manifiesto (1 factura) 3 22 L 2,300.18',
        'Entrega (bodega): nombre y firma',
        'Recibe (conductor): nombre y firma',
        'Página 1 de 1',
      ])
    }),
)

test(
  "print: an invoice — the supplier's fields, the totals as sent and in words; printing marks it ORIGINAL, a reprint says COPIA",
  { skip },
  () =>
    withConsole(async (page, service) => {
      await seedMoney(service)
      await logInThroughUi(page, service, 'op-oac', `/consola/facturas/${F1}`)
      await page.getByRole('link', { name: 'Imprimir factura' }).click()
      await page.getByRole('button', { name: 'Imprimir' }).click()
      await until(page, 'window.__impresiones === 1')
      const [first, ...rest] = await paper(page, 'factura')
      assert.equal(rest.length, 0, 'one page')
      has(first!, [
        'ORIGINAL',
        'FACTURA',
        F1,
        'CAI: A1B2C3-D4E5F6-0718293A-4B5C6D-7E8F90-12',
        'Rango autorizado: 001-001-01-00900001 al 001-001-01-00990000',
        'Fecha límite de emisión: 30/06/2027',
        '08019001234567',
        'ANA LUCIA FIALLOS (20417)',
        'COL. KENNEDY, BLOQUE 4, CASA 12, Distrito Central, FRANCISCO MORAZAN',
        '81800012 SALSA DE TOMATE 8X12X87GR 2 cajas L 642.08 L 0.00 L 192.62 L 1,476.77',
        '52480038 JABON LIMON 115GRX72 1 caja + 10 unid. L 299.95 L 0.00 L 51.24 L 392.85',
        'Importe gravado 15 %',
        'L 2,000.16',
        'ISV 15 %',
        'L 300.02',
        'Total a pagar L 2,300.18',
        'Son: DOS MIL TRESCIENTOS LEMPIRAS CON 18/100',
        'Página 1 de 1',
      ])
      const marks = all(service.db, service.db.query.selectFrom('invoice_prints').select(['first_by', 'copies']))
      assert.deepEqual(marks, [{ first_by: 'Nombre de op-oac', copies: 0 }])
      await page.reload()
      await page.getByRole('button', { name: 'Imprimir' }).click()
      await until(page, 'window.__impresiones === 1')
      const [copy] = await paper(page, 'factura-copia')
      assert.match(copy!, /COPIA/)
      assert.doesNotMatch(copy!, /ORIGINAL/)
      assert.deepEqual(all(service.db, service.db.query.selectFrom('invoice_prints').select(['copies'])), [
        { copies: 1 },
      ])
    }),
)

test('print: the settlement, the returns, the deposits and the products, from their screens', { skip }, () =>
  withConsole(async (page, service) => {
    await seedMoney(service)
    await logInThroughUi(page, service, 'sup-oac', '/consola/manifiestos/905112')
    await page.getByRole('link', { name: 'Imprimir liquidación' }).click()
    const [settlement] = await paper(page, 'liquidacion')
    has(settlement!, [
      'Liquidación del manifiesto',
      'L 2,300.18 L 774.27 L 1,525.91 L 100.00 L 0.00 L 1,425.91',
      'Falta depositar L 1,425.91 del almacén OAC',
      'BAC Credomatic',
      'Total depositado L 100.00',
      `1 ${F1} PULPERIA LA ESPERANZA Producto dañado`,
      'Total devuelto',
      'Entrega: nombre y firma',
      'Recibe: nombre y firma',
      'Página 1 de 1',
    ])

    await page.goto(`${service.url}/consola/imprimir/devoluciones?desde=2026-11-22&hasta=2026-11-23`)
    const [returns] = await paper(page, 'devoluciones')
    has(returns!, [
      'registradas del 22/11/2026 al 23/11/2026 · en todos los estados · 2 devoluciones de 1 manifiesto',
      'Manifiesto 905112 · 2 devoluciones',
      'N.º 1',
      'Producto dañado',
      '81800012 SALSA DE TOMATE 8X12X87GR',
      '1 caja (96 unid.)',
      'L 738.39',
      'L 35.88',
      'N.º 3',
      'Total del manifiesto 905112 L 783.85',
      'Total (2 devoluciones) L 783.85',
    ])

    await page.goto(`${service.url}/consola/depositos?desde=2026-11-01&hasta=2026-11-30`)
    await page.getByRole('link', { name: 'Imprimir' }).click()
    const [deposits] = await paper(page, 'depositos')
    has(deposits!, [
      'Boletas del 01/11/2026 al 30/11/2026 · 1 depósito en 1 banco',
      'BAC Credomatic · 1 depósito',
      '22/11/2026',
      '905112',
      'Total BAC Credomatic L 100.00',
      'Total depositado L 100.00',
    ])

    await page.goto(`${service.url}/consola/imprimir/productos?manifiesto=905112`)
    const [products] = await paper(page, 'productos')
    has(products!, [
      'Manifiesto 905112 · 1 factura · 3 productos',
      '30110205',
      'ACEITE VEGETAL 410 mL 1/24',
      '12 unid.',
      'L 430.56',
      'SALSA DE TOMATE 8X12X87GR',
      '2 cajas',
      'L 1,476.77',
      '1 caja + 10 unid.',
      'L 2,300.18 Página 1 de 1',
    ])
  }),
)

test(
  'print: a manifest of 300 invoices — 300 invoice pages in route order; the route sheet paged with its header on every page',
  { skip, timeout: 300_000 },
  () =>
    withConsole(async (page, service) => {
      const invoices = Array.from({ length: 300 }, (_, index) =>
        invoice(`001-001-01-${String(920001 + index).padStart(8, '0')}`, '905300', {
          NumeroRuta: String(100 + (index % 6)),
          Cliente: `CLIENTE ${String(index + 1).padStart(3, '0')}`,
        }),
      )
      const answer = await postBatch(service, invoices)
      assert.equal(answer.status, 200, JSON.stringify(answer.body).slice(0, 300))
      await createAccount(service, 'sup', 'supervisor')
      await page.goto(`${service.url}/consola/imprimir/facturas/905300`)
      await page.getByLabel('Usuario').fill('sup')
      await page.getByLabel('Contraseña').fill(PASSWORD)
      await page.getByRole('button', { name: 'Entrar' }).click()
      const invoicePages = await paper(page, 'facturas-300')
      assert.equal(invoicePages.length, 300, 'one invoice a page')
      // Route 100 holds invoices 1, 7, 13… (50 of them), route 101 begins with invoice 2; the last of route 105 is invoice 300.
      has(invoicePages[0]!, ['001-001-01-00920001', 'CLIENTE 001 (40112233)', 'Página 1 de 300'])
      has(invoicePages[49]!, ['001-001-01-00920295', 'Página 50 de 300'])
      has(invoicePages[50]!, ['001-001-01-00920002', 'Página 51 de 300'])
      has(invoicePages[299]!, ['001-001-01-00920300', 'Total a pagar L 2,300.18', 'Página 300 de 300'])
      await page.goto(`${service.url}/consola/imprimir/ruta/905300`)
      const sheet = await paper(page, 'hoja-de-ruta-300')
      assert.ok(sheet.length >= 5, `${sheet.length} pages`)
      sheet.forEach((pageText, index) => {
        for (const header of ['✓ # FACTURA CLIENTE', 'DIRECCIÓN', 'CAJAS UNID.', 'TOTAL'])
          assert.ok(squeezed(pageText).includes(header), `${header}: the header on page ${index + 1}`)
        assert.match(pageText, new RegExp(`Página ${index + 1} de ${sheet.length}`))
      })
      has(sheet.at(-1)!, ['Total del manifiesto (300 facturas) 900 6,600 L 690,054.00'])
    }),
)
