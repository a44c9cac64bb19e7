/**
 * The print views (issue 42): the invoices of a 1,000-invoice manifest rendered for print in
 * Chromium (Debian's, through playwright-core) — from opening /consola/imprimir/facturas/{n},
 * the session already open, to the 1,000 invoice pages drawn — ≤ 3 s. The PDF of those 1,000
 * pages (page.pdf, Carta) is timed beside it, for information. The service runs from the source
 * (the console built first) so that it serves the console; skipped, saying why, without chromium.
 */
import { execFileSync } from 'node:child_process'
import { chromium } from 'playwright-core'
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'
import { buildConsole } from '../build/console.ts'
import { generateBatch } from './generator.ts'
import { postBatch, ROOT, startService } from './service.ts'
import { median, type Bench } from './table.ts'

const RENDER_BUDGET_MS = 3_000
const PASSWORD = 'clave-del-banco-de-pruebas-2026'

export async function benchPrint(bench: Bench, count: number): Promise<void> {
  const executable = chromiumPath()
  const measure = `print: the invoices of a ${count.toLocaleString('en')}-invoice manifest rendered in Chromium`
  if (executable === null) {
    bench.rows.push({ measure, value: null, unit: 'ms', budget: RENDER_BUDGET_MS, note: 'chromium no está instalado' })
    return
  }
  await buildConsole({ quiet: true })
  const tsx = fileURLToPath(import.meta.resolve('tsx'))
  const service = await startService(bench.work, {
    command: [process.execPath, '--import', tsx, join(ROOT, 'src/manifiesto.ts'), 'serve'],
    startMs: 60_000,
  })
  const browser = await chromium.launch({
    executablePath: executable,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  })
  try {
    const batch = generateBatch(count, { fecha: bench.today, perManifest: count, prefix: 'P', firstManifest: 880000 })
    if ((await postBatch(service.url, Buffer.from(JSON.stringify(batch)))).status !== 200)
      throw new Error('print batch refused')
    execFileSync(
      process.execPath,
      [
        '--import',
        tsx,
        join(ROOT, 'src/manifiesto.ts'),
        'usuario',
        'crear',
        'banco',
        '--rol',
        'supervisor',
        '--contrasena-stdin',
        '--config',
        join(service.folder, 'config.json'),
      ],
      { cwd: service.folder, input: `${PASSWORD}\n`, stdio: ['pipe', 'ignore', 'inherit'] },
    )
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 } })
    const page = await context.newPage()
    page.setDefaultTimeout(120_000)
    await page.goto(`${service.url}/consola/entrar`)
    await page.getByLabel('Usuario').fill('banco')
    await page.getByLabel('Contraseña').fill(PASSWORD)
    await page.getByRole('button', { name: 'Entrar' }).click()
    await page.getByRole('button', { name: 'Salir' }).waitFor()
    const rendered: number[] = []
    let pdfMs = 0
    let pages = 0
    for (let run = 0; run < Math.max(bench.runs, 3); run++) {
      const started = performance.now()
      await page.goto(`${service.url}/consola/imprimir/facturas/${batch[0]!.NumeroManifiesto}`)
      await page
        .locator('article.factura-impresa')
        .nth(count - 1)
        .waitFor({ state: 'attached' })
      rendered.push(performance.now() - started)
    }
    const pdfStarted = performance.now()
    const pdf = await page.pdf({ format: 'Letter' })
    pdfMs = performance.now() - pdfStarted
    pages = (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length
    bench.rows.push(
      {
        measure,
        value: median(rendered),
        unit: 'ms',
        budget: RENDER_BUDGET_MS,
        note: 'from opening the address to every invoice page drawn, the session open',
      },
      {
        measure: `print: the same ${count.toLocaleString('en')} invoices as a PDF (page.pdf, Carta)`,
        value: pdfMs,
        unit: 'ms',
        note: `${pages.toLocaleString('en')} pages; information only`,
      },
    )
    await context.close()
  } finally {
    await browser.close()
    await service.stop()
  }
}

function chromiumPath(): string | null {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH
  try {
    return (
      execFileSync('/bin/sh', ['-c', 'command -v chromium || command -v chromium-browser'], {
        encoding: 'utf8',
      }).trim() || null
    )
  } catch {
    return null
  }
}
