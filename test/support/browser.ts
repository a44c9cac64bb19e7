import { execFileSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { PASSWORD } from './accounts.ts'
import type { TestService } from './service.ts'

/** Where every screen's screenshot goes (git-ignored; a few are copied to docs/img by hand). */
export const SCREENSHOTS = fileURLToPath(new URL('../console/screenshots/', import.meta.url))

/** Debian's chromium: CHROMIUM_PATH, else the one on the PATH, else null (the suite is skipped, saying why). */
export function chromiumPath(): string | null {
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

/** One headless chromium for a test file, with a fresh profile; quiet (no network of its own). */
export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  })
}

/**
 * A fresh browser context (no cookies) at the warehouse PC's screen size, whose clock shows the
 * service's injected time, so "today" is the same day on both sides.
 */
export async function newConsolePage(
  browser: Browser,
  service: TestService,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width: 1366, height: 768 },
    locale: 'es-HN',
    timezoneId: 'America/Tegucigalpa',
    acceptDownloads: true,
  })
  await context.clock.setFixedTime(new Date(service.clock.now().toEpochMilli()))
  const page = await context.newPage()
  page.setDefaultTimeout(10_000)
  return { context, page }
}

/** Logs in through the login screen, as a person does, and waits for the screen that follows. */
export async function logInThroughUi(
  page: Page,
  service: TestService,
  usuario: string,
  path = '/consola/',
  contrasena = PASSWORD,
): Promise<void> {
  await page.goto(service.url + path)
  await page.getByLabel('Usuario').fill(usuario)
  await page.getByLabel('Contraseña').fill(contrasena)
  await page.getByRole('button', { name: 'Entrar' }).click()
  await page.getByRole('button', { name: 'Salir' }).waitFor()
}

/** Saves what the screen shows now as `NN-name.png`. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true })
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) })
}

/**
 * What the screen shows at the warehouse PC's size (1366×768, `NN-name.png`) and on a 1024×768
 * tablet (`NN-name-1024.png`, the less important columns folded into the rows): both looked at.
 * At 1024 px nothing may be wider than the window: asserted here, on every screen photographed.
 */
export async function screenshots(page: Page, name: string): Promise<void> {
  await screenshot(page, name)
  const size = page.viewportSize() ?? { width: 1366, height: 768 }
  await page.setViewportSize({ width: 1024, height: 768 })
  await until(page, 'window.innerWidth === 1024')
  await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))')
  await screenshot(page, `${name}-1024`)
  const overflow = (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number
  if (overflow > 0)
    throw new Error(`${name}: at 1024×768 the page is ${overflow} px wider than the window (it scrolls sideways)`)
  await page.setViewportSize(size)
  await until(page, `window.innerWidth === ${size.width}`)
}

/**
 * Waits until `expression` (JavaScript, evaluated in the page) is true: polled from here, since
 * the console's Content-Security-Policy forbids the page's own eval that waitForFunction's polling uses.
 */
export async function until(page: Page, expression: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await page.evaluate(expression))) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${expression}`)
    await new Promise((done) => setTimeout(done, 50))
  }
}
