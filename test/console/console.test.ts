/**
 * The operator console in a real browser (Debian's chromium driven by playwright-core) against
 * the real service on a real temporary database: everything through the screens, elements found
 * by their role and visible Spanish name, as a person finds them. One browser for the file, a
 * fresh context (no cookies) and a fresh service per test. Every screen is saved as a screenshot.
 */
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { buildConsole } from '../../build/console.ts'
import { createAccount, logIn } from '../support/accounts.ts'
import { seedConsoleReturns } from '../support/console.ts'
import { readFirstSheet } from '../support/xlsx.ts'
import { exampleBatch, invoice, postBatch } from '../support/batches.ts'
import {
  chromiumPath,
  launchChromium,
  logInThroughUi,
  newConsolePage,
  screenshot,
  screenshots,
  until,
} from '../support/browser.ts'
import { FACTURA, operator, registerReturn, seedReturns } from '../support/operator.ts'
import { startTestService, type TestService, type TestServiceOptions } from '../support/service.ts'
import { CLOSE_UNSETTLED } from '../support/settlement.ts'

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
async function withConsole(
  body: (page: Page, service: TestService) => Promise<void>,
  options: TestServiceOptions = {},
): Promise<void> {
  const service = await startTestService(options)
  try {
    const { context, page } = await newConsolePage(browser, service)
    try {
      await body(page, service)
    } finally {
      await context.close()
    }
  } finally {
    await service.close()
  }
}

test('consola: wrong password shows the service message; five failures lock the name with its message', { skip }, () =>
  withConsole(async (page, service) => {
    await createAccount(service, 'ana', 'operador', ['OAC'])
    await page.goto(`${service.url}/consola/`)
    await page.getByRole('heading', { name: 'Consola del almacén' }).waitFor()
    await screenshots(page, '01-entrar')
    for (let attempt = 0; attempt < 5; attempt++) {
      await page.getByLabel('Usuario').fill('ana')
      await page.getByLabel('Contraseña').fill('no-es-la-clave')
      await page.getByRole('button', { name: 'Entrar' }).click()
      await page.getByRole('alert').filter({ hasText: 'Usuario o contraseña' }).waitFor()
    }
    await page.getByLabel('Usuario').fill('ana')
    await page.getByLabel('Contraseña').fill('clave-de-persona-2026')
    await page.getByRole('button', { name: 'Entrar' }).click()
    await page
      .getByRole('alert')
      .filter({ hasText: 'Demasiados intentos fallidos para este usuario: espere 15 minuto(s)' })
      .waitFor()
    await screenshots(page, '01-entrar-bloqueado')
  }),
)

test(
  'consola: a deep link asks for the login, then opens the screen asked for; the dashboard counts today',
  { skip },
  () =>
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
      assert.deepEqual((await batchRow.getByRole('cell').allInnerTexts()).slice(1), [
        'Procesado',
        '905112',
        '2',
        '2',
        '0',
        '0',
        '0',
      ])
      await screenshots(page, '02-inicio')
    }),
)

test('consola: a manifest found by number, an invoice in it found by client', { skip }, () =>
  withConsole(async (page, service) => {
    await createAccount(service, 'ana', 'operador', 'todos')
    await postBatch(service, exampleBatch())
    await postBatch(service, [invoice('F-OTRO', '905113')])
    await logInThroughUi(page, service, 'ana')
    await page.getByRole('navigation', { name: 'Secciones' }).getByRole('link', { name: 'Manifiestos' }).click()
    await page.getByLabel('Número de manifiesto').fill('905112')
    await page.getByText('Total de lo filtrado (1 manifiesto)').waitFor()
    await screenshots(page, '03-manifiestos')
    await page.getByRole('link', { name: '905112' }).click()
    await page.getByLabel('Buscar factura, cliente o ruta').fill('ahorro')
    await page.getByText('Total de lo filtrado (1 factura)').waitFor()
    await screenshots(page, '04-manifiesto')
    await page.getByRole('link', { name: '001-001-01-00912002' }).click()
    await page.getByRole('heading', { name: 'Factura 001-001-01-00912002' }).waitFor()
    await page.getByText('SUPER EL AHORRO').first().waitFor()
    await screenshots(page, '05-factura')

    // The session ends under the person (here: every session deleted): the next step asks to log
    // in again, and then goes on to where they were going.
    service.db.sqlite.prepare('DELETE FROM sessions').run()
    await page.getByRole('link', { name: 'Manifiesto 905112' }).click()
    await page
      .getByRole('status')
      .filter({ hasText: 'Su sesión terminó. Entre de nuevo para seguir donde estaba.' })
      .waitFor()
    await page.getByLabel('Usuario').fill('ana')
    await page.getByLabel('Contraseña').fill('clave-de-persona-2026')
    await page.getByRole('button', { name: 'Entrar' }).click()
    await page.getByRole('heading', { name: 'Manifiesto 905112' }).waitFor()
    assert.match(page.url(), /\/consola\/manifiestos\/905112$/)
  }),
)

test(
  'consola: an invoice whose Nfactura holds / ? # & % and accents opens from its link, and its return form too',
  { skip },
  () =>
    withConsole(async (page, service) => {
      const nfactura = 'FAC/2026?a#b&c 50%25 ñ'
      await createAccount(service, 'ana', 'operador', 'todos')
      assert.equal((await postBatch(service, [invoice(nfactura, '905112')])).status, 200)
      await logInThroughUi(page, service, 'ana', '/consola/manifiestos/905112')
      await page.getByRole('link', { name: nfactura }).click()
      await page.getByRole('heading', { name: `Factura ${nfactura}` }).waitFor()
      await page.getByRole('link', { name: 'Registrar devolución' }).click()
      await page.getByRole('link', { name: `Factura ${nfactura}` }).waitFor()
      await page.reload()
      await page.getByRole('link', { name: `Factura ${nfactura}` }).waitFor()
    }),
)

test(
  'consola: a return registered with boxes and units lowers the available units; a 422 is shown on the line it names',
  { skip },
  () =>
    withConsole(async (page, service) => {
      await createAccount(service, 'ana', 'operador', ['OAC'])
      await seedReturns(service)
      await logInThroughUi(page, service, 'ana', `/consola/facturas/${FACTURA}`)
      const available = async (product: string) =>
        (
          await page
            .getByRole('row', { name: new RegExp(product) })
            .getByRole('cell')
            .nth(5)
            .innerText()
        )
          .replace(/\s+/g, ' ')
          .trim()
      assert.equal(await available('SALSA DE TOMATE'), '2 cajas 192 unid.')
      await page.getByRole('link', { name: 'Registrar devolución' }).click()
      await page.getByLabel('Concepto').selectOption({ label: 'Producto dañado (DANADO)' })
      await page.getByRole('spinbutton', { name: 'Cajas SALSA DE TOMATE' }).fill('1')
      await page.getByRole('spinbutton', { name: 'Unidades SALSA DE TOMATE' }).fill('10')
      // 106 of 192 units of a L 1,476.77 line: L 815.30, computed in the browser as the service does.
      await page
        .getByRole('row', { name: /SALSA DE TOMATE/ })
        .getByText('L 815.30')
        .waitFor()
      await screenshots(page, '06-registrar-devolucion')
      await page.getByRole('spinbutton', { name: 'Unidades SALSA DE TOMATE' }).press('Enter')
      await page
        .getByRole('status')
        .filter({ hasText: /Devolución 1 registrada/ })
        .waitFor()
      assert.equal(await available('SALSA DE TOMATE'), '86 unid.')
      await screenshots(page, '07-factura-con-devolucion')

      // Two lines, the second over what is left: the service's 422 names it, and the console shows it on that line.
      await page.getByRole('link', { name: 'Registrar devolución' }).click()
      await page.getByLabel('Concepto').selectOption('VENCIDO')
      // With the keyboard alone: type, Tab through the line to the next one, Enter registers.
      await page.getByRole('spinbutton', { name: 'Unidades ACEITE VEGETAL' }).focus()
      await page.keyboard.type('2')
      for (const key of ['Tab', 'Tab']) await page.keyboard.press(key)
      assert.equal(
        await page.evaluate('document.activeElement.getAttribute("aria-labelledby")'),
        'col-cajas producto-2',
        'Tab from a line goes past its button to the next line',
      )
      await page.keyboard.type('1')
      await page.keyboard.press('Enter')
      const problem = page.getByRole('alert').filter({
        hasText:
          'Línea 2, SALSA DE TOMATE 8X12X87GR: se quieren devolver 1 caja (96 unid.), pero la línea tiene 2 cajas (192 unid.)',
      })
      await problem.waitFor()
      assert.equal(
        await page.getByRole('spinbutton', { name: 'Cajas SALSA DE TOMATE' }).getAttribute('aria-invalid'),
        'true',
      )
      assert.equal(
        await page.getByRole('spinbutton', { name: 'Unidades ACEITE VEGETAL' }).getAttribute('aria-invalid'),
        'false',
      )
      await screenshots(page, '08-devolucion-rechazada-422')
      assert.equal(
        Number(service.db.sqlite.prepare('SELECT count(*) FROM returns').pluck().get()),
        1,
        'nothing written by the refused return',
      )

      // "Devolver todo" on a box line: whole boxes first, the rest as units, the whole line's amount.
      await page
        .getByRole('row', { name: /JABON LIMON/ })
        .getByRole('button', { name: 'Devolver todo' })
        .click()
      assert.equal(await page.getByRole('spinbutton', { name: 'Cajas JABON LIMON' }).inputValue(), '1')
      assert.equal(await page.getByRole('spinbutton', { name: 'Unidades JABON LIMON' }).inputValue(), '10')
      await page
        .getByRole('row', { name: /JABON LIMON/ })
        .getByText('L 392.85')
        .waitFor()

      // On a 1280×800 tablet, in both orientations, the form fits: nothing to scroll sideways.
      for (const [width, height] of [
        [1280, 800],
        [800, 1280],
      ] as const) {
        await page.setViewportSize({ width, height })
        assert.equal(
          await page.evaluate(
            'document.querySelector("main").scrollWidth <= document.querySelector("main").clientWidth',
          ),
          true,
          `${width}×${height}`,
        )
        await screenshot(page, `08-devolucion-tableta-${width}x${height}`)
      }
    }),
)

test('consola: a supervisor approves a return and the client system sees it in its listing', { skip }, () =>
  withConsole(async (page, service) => {
    await createAccount(service, 'sofia', 'supervisor')
    await seedReturns(service)
    await registerReturn(service, [{ numeroLinea: 2, cajas: 1 }])
    await logInThroughUi(page, service, 'sofia')
    await page.getByRole('link', { name: /Devoluciones por aprobar/ }).click()
    await page.getByRole('heading', { name: 'Devoluciones' }).waitFor()
    await screenshots(page, '09-devoluciones-pendientes')
    await page.getByRole('button', { name: 'Aprobar la devolución 1' }).click()
    const dialog = page.getByRole('dialog', { name: 'Aprobar la devolución 1' })
    await dialog.getByRole('button', { name: 'Aprobar' }).click()
    await page.getByRole('status').filter({ hasText: 'Devolución 1 aprobada.' }).waitFor()
    const listing = await service.client('/api/v1/devoluciones/listar', { headers: { Fecha: '22/11/2026' } })
    const listed = (await listing.json()) as Array<{ devolucion: string; factura: string; total: number }>
    assert.deepEqual(
      listed.map((item) => [item.devolucion, item.factura, item.total]),
      [['1', FACTURA, 738.39]],
    )
    await page.getByRole('link', { name: 'Aprobadas' }).click()
    await page.getByRole('row', { name: /^1 / }).getByText('Aprobada').waitFor()
  }),
)

test('consola: a selection of pending returns is approved together', { skip }, () =>
  withConsole(async (page, service) => {
    await createAccount(service, 'sofia', 'supervisor')
    await seedReturns(service)
    for (const line of [1, 2, 3])
      assert.equal((await registerReturn(service, [{ numeroLinea: line, unidades: 1 }])).status, 201)
    await logInThroughUi(page, service, 'sofia', '/consola/devoluciones')
    await page.getByRole('checkbox', { name: 'Seleccionar la devolución 1' }).check()
    await page.getByRole('checkbox', { name: 'Seleccionar la devolución 3' }).check()
    await page.getByText('2 seleccionadas').waitFor()
    await screenshots(page, '10-aprobacion-en-bloque')
    await page.getByRole('button', { name: 'Aprobar seleccionadas' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Aprobar seleccionadas' }).click()
    await page.getByRole('status').filter({ hasText: '2 devoluciones aprobadas.' }).waitFor()
    const states = service.db.sqlite.prepare('SELECT id, estado FROM returns ORDER BY id').all() as Array<{
      id: number
      estado: string
    }>
    assert.deepEqual(
      states.map((row) => [row.id, row.estado]),
      [
        [1, 'approved'],
        [2, 'pending'],
        [3, 'approved'],
      ],
    )
    // The list is read again: the approved ones leave the pending tab, the other stays.
    await page.getByRole('checkbox', { name: 'Seleccionar la devolución 1' }).waitFor({ state: 'detached' })
    assert.equal(await page.getByRole('checkbox', { name: 'Seleccionar la devolución 3' }).count(), 0)
    await page.getByRole('checkbox', { name: 'Seleccionar la devolución 2' }).waitFor()
  }),
)

test('consola: a conflicting invoice is decided from the two versions side by side', { skip }, () =>
  withConsole(async (page, service) => {
    await createAccount(service, 'sofia', 'supervisor')
    await postBatch(service, [invoice('F-1')])
    const changedLines = (invoice('F-1').LineasFactura as Array<Record<string, unknown>>).map((line, index) =>
      index === 0 ? { ...line, CantidadFracciones: 10, Total: 358.8 } : line,
    )
    const held = await postBatch(service, [
      invoice('F-1', '905112', { Cliente: 'NUEVO NOMBRE', Total: 2228.42, LineasFactura: changedLines }),
    ])
    assert.equal(held.body.resumen.pendientes_revision, 1)
    await logInThroughUi(page, service, 'sofia', '/consola/conflictos')
    const conflict = page.getByRole('article', { name: /Factura F-1/ })
    await conflict
      .getByRole('table', { name: 'Campos de la factura' })
      .getByRole('row', { name: /Cliente PULPERIA LA ESPERANZA NUEVO NOMBRE/ })
      .waitFor()
    await conflict
      .getByRole('table', { name: 'Líneas' })
      .getByRole('row', { name: /Unidades \(fracciones\) 12 10/ })
      .waitFor()
    await screenshots(page, '11-conflictos')
    await conflict.getByRole('button', { name: 'Aceptar la versión nueva de F-1' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('Nota (opcional)').fill('El proveedor corrigió el nombre')
    await dialog.getByRole('button', { name: 'Aceptar versión nueva' }).click()
    await page.getByRole('status').filter({ hasText: 'Conflicto de F-1 aceptado' }).waitFor()
    await page.getByText('No hay conflictos por decidir.').waitFor()
    const row = service.db.sqlite
      .prepare('SELECT estado, decided_by, decision_note FROM invoice_conflicts')
      .get() as Record<string, string>
    assert.deepEqual(
      { ...row },
      { estado: 'accepted', decided_by: 'Nombre de sofia', decision_note: 'El proveedor corrigió el nombre' },
    )
  }),
)

test('consola: a supervisor closes a manifest and reopens it with a reason; the history shows both', { skip }, () =>
  withConsole(
    async (page, service) => {
      await createAccount(service, 'sofia', 'supervisor')
      await postBatch(service, exampleBatch())
      await logInThroughUi(page, service, 'sofia', '/consola/manifiestos/905112')
      await page.getByRole('button', { name: 'Cerrar manifiesto' }).click()
      await page.getByRole('dialog').getByRole('button', { name: 'Cerrar manifiesto' }).click()
      await page.getByRole('status').filter({ hasText: 'Manifiesto 905112 cerrado.' }).waitFor()
      await page.getByRole('button', { name: 'Reabrir manifiesto' }).click()
      const dialog = page.getByRole('dialog')
      await dialog.getByRole('button', { name: 'Reabrir manifiesto' }).click()
      await dialog
        .getByRole('alert')
        .filter({ hasText: 'El campo «Motivo» es obligatorio: escríbalo antes de confirmar.' })
        .waitFor()
      await dialog.getByLabel('Motivo').fill('Faltó registrar una devolución')
      await screenshots(page, '12-reabrir-manifiesto')
      await dialog.getByRole('button', { name: 'Reabrir manifiesto' }).click()
      await page.getByRole('status').filter({ hasText: 'Manifiesto 905112 reabierto.' }).waitFor()
      const history = page.getByRole('region', { name: 'Historial' })
      await history.getByRole('row', { name: /Reabrió el manifiesto Faltó registrar una devolución/ }).waitFor()
      await history.getByRole('row', { name: /Cerró el manifiesto/ }).waitFor()
      assert.equal(
        service.db.sqlite.prepare("SELECT estado FROM manifests WHERE numero = '905112'").pluck().get(),
        'imported',
      )
      // Closing and reopening are the subject here; closing a settled manifest is test/console/settlement.test.ts's.
    },
    { config: CLOSE_UNSETTLED },
  ),
)

test("consola: an operator does not see another warehouse's invoice", { skip }, () =>
  withConsole(async (page, service) => {
    await createAccount(service, 'ana', 'operador', ['OAC'])
    await postBatch(service, exampleBatch())
    await logInThroughUi(page, service, 'ana', '/consola/manifiestos/905112')
    await page.getByText('Total de lo filtrado (1 factura)').waitFor()
    assert.equal(await page.getByRole('link', { name: '001-001-01-00912002' }).count(), 0)
    assert.equal(await page.getByRole('button', { name: 'Cerrar manifiesto' }).count(), 0, 'an operator cannot close')
    await page.goto(`${service.url}/consola/facturas/001-001-01-00912002`)
    await page.getByRole('alert').filter({ hasText: 'No existe la factura 001-001-01-00912002.' }).waitFor()
    await screenshots(page, '13-factura-de-otro-almacen')
  }),
)

test('consola: an administrator creates a user, who then logs in', { skip }, () =>
  withConsole(async (page, service) => {
    await createAccount(service, 'admin', 'admin')
    await logInThroughUi(page, service, 'admin', '/consola/usuarios')
    await page.getByRole('button', { name: 'Nuevo usuario' }).click()
    await page.getByLabel('Usuario', { exact: true }).fill('carlos.mejia')
    await page.getByLabel('Nombre', { exact: true }).fill('Carlos Mejía')
    await page.getByLabel('Rol').selectOption({ label: 'Operador' })
    await page.getByRole('checkbox', { name: 'OAC' }).check()
    await page.getByLabel('Contraseña inicial').fill('bodega-norte-2026')
    await screenshots(page, '14-usuarios-nuevo')
    await page.getByRole('button', { name: 'Crear usuario' }).click()
    await page.getByRole('status').filter({ hasText: 'Usuario carlos.mejia creado.' }).waitFor()
    await page.getByRole('row', { name: /carlos\.mejia Carlos Mejía Operador OAC Activo Nunca/ }).waitFor()
    await screenshots(page, '15-usuarios')
    await page.getByRole('button', { name: 'Salir' }).click()
    await page.getByRole('heading', { name: 'Consola del almacén' }).waitFor()
    await logInThroughUi(page, service, 'carlos.mejia', '/consola/', 'bodega-norte-2026')
    await page.getByRole('link', { name: 'Mi cuenta: Carlos Mejía, Operador' }).click()
    await page.getByRole('heading', { name: 'Mi cuenta' }).waitFor()
    await screenshots(page, '16-mi-cuenta')
    assert.equal(await page.getByRole('link', { name: 'Usuarios' }).count(), 0)
  }),
)

test(
  'consola: an administrator sees a locked account, until when, and unlocks it; the person then logs in',
  { skip },
  () =>
    withConsole(async (page, service) => {
      await createAccount(service, 'admin', 'admin')
      await createAccount(service, 'ana', 'operador', ['OAC'], 'Ana Suazo')
      for (let attempt = 0; attempt < 5; attempt++)
        assert.equal((await logIn(service, 'ana', 'no-es-su-clave')).status, 401)
      await logInThroughUi(page, service, 'admin', '/consola/usuarios')
      await page
        .getByRole('row', { name: /ana Ana Suazo Operador OAC Activo Bloqueado hasta 22\/11\/2026 10:15/ })
        .waitFor()
      assert.equal(
        await page.getByRole('button', { name: 'Desbloquear a admin' }).count(),
        0,
        'only a locked account offers it',
      )
      await screenshots(page, '15b-usuario-bloqueado')
      await page.getByRole('button', { name: 'Desbloquear a ana' }).click()
      const dialog = page.getByRole('dialog', { name: 'Desbloquear a ana' })
      await dialog
        .getByText('Está bloqueado hasta 22/11/2026 10:15 por intentos fallidos de entrar.', { exact: false })
        .waitFor()
      await dialog.getByRole('button', { name: 'Desbloquear' }).click()
      await page
        .getByRole('status')
        .filter({ hasText: 'Usuario ana desbloqueado: ya puede entrar con su contraseña.' })
        .waitFor()
      await page.getByRole('row', { name: /ana Ana Suazo Operador OAC Activo Nunca/ }).waitFor()
      assert.equal(await page.getByRole('button', { name: 'Desbloquear a ana' }).count(), 0)
      assert.equal(
        service.db.sqlite
          .prepare(
            "SELECT count(*) FROM audit_log WHERE action = 'usuario.desbloqueado' AND subject_id = 'ana' AND actor_usuario = 'admin'",
          )
          .pluck()
          .get(),
        1,
      )
      await page.getByRole('button', { name: 'Salir' }).click()
      await page.getByRole('heading', { name: 'Consola del almacén' }).waitFor()
      await logInThroughUi(page, service, 'ana')
    }),
)

test(
  'consola: a supervisor of OAC sees the OAS invoice an OAC invoice repeats only as «otra factura de otro almacén»',
  { skip },
  () =>
    withConsole(async (page, service) => {
      service.clock.set('2026-11-21T16:00:00Z')
      await postBatch(service, [
        invoice(
          'ORIG-OAS-77',
          '905177',
          { Clienteid: 'C1', Cliente: 'ABARROTERIA SAN ISIDRO', Almacen: 'OAS' },
          '2026-11-21',
        ),
      ])
      service.clock.set('2026-11-22T16:00:00Z')
      await postBatch(service, [invoice('B-1', '905101', { Clienteid: 'C1', Almacen: 'OAC' })])
      await createAccount(service, 'sup-oac', 'supervisor', ['OAC'])
      await logInThroughUi(page, service, 'sup-oac', '/consola/conflictos')
      const reissues = page.getByRole('region', { name: 'Posibles re-emisiones' })
      await reissues
        .getByRole('row', {
          name: /B-1 Manifiesto 905101 · 22\/11\/2026 otra factura de otro almacén PULPERIA LA ESPERANZA L 2,300.18 1/,
        })
        .waitFor()
      await screenshots(page, '11b-reemision-de-otro-almacen')
      await page.goto(`${service.url}/consola/manifiestos/905101`)
      await page.getByText('¿Copia de otra factura de otro almacén?').waitFor()
      await page.goto(`${service.url}/consola/conflictos`)
      await page.getByRole('button', { name: 'Confirmar que B-1 es una copia' }).click()
      await page.getByRole('dialog').getByRole('button', { name: 'Confirmar re-emisión' }).click()
      await page.getByRole('status').filter({ hasText: 'Factura B-1 anulada como re-emisión.' }).waitFor()
      await page.goto(`${service.url}/consola/facturas/B-1`)
      await page
        .getByRole('note')
        .filter({
          hasText: 'Esta factura se anuló como re-emisión de otra factura de otro almacén: no admite devoluciones',
        })
        .waitFor()
      await page.goto(`${service.url}/consola/auditoria`)
      await page
        .getByRole('row', { name: /Confirmó la re-emisión factura B-1/ })
        .getByRole('button', { name: 'Ver', exact: true })
        .click()
      await page.getByRole('button', { name: 'Ver datos' }).click()
      const detail = await page.locator('pre.original').innerText()
      assert.match(detail, /"identica_a": "otra factura de otro almacén"/)
      for (const secret of ['ORIG-OAS-77', '905177', 'ABARROTERIA'])
        assert.ok(!detail.includes(secret), `the audit detail shows ${secret}`)
      assert.ok(!(await page.content()).includes('ORIG-OAS-77'))
      await screenshots(page, '20b-auditoria-reemision-de-otro-almacen')
    }),
)

test(
  'consola: lotes with their answer and payload, conceptos created and deactivated, the audit log filtered by user',
  { skip },
  () =>
    withConsole(async (page, service) => {
      await createAccount(service, 'sofia', 'supervisor', 'todos', 'Sofía Reyes')
      await postBatch(service, exampleBatch())
      await logInThroughUi(page, service, 'sofia')
      await page.getByRole('navigation', { name: 'Secciones' }).getByRole('link', { name: 'Lotes' }).click()
      await page.getByLabel('Día de recepción').waitFor()
      assert.equal(await page.getByLabel('Día de recepción').inputValue(), '22/11/2026')
      await screenshots(page, '17-lotes')
      await page.getByRole('link', { name: '22/11/2026 10:00' }).click()
      await page.getByRole('heading', { name: 'Resumen respondido' }).waitFor()
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Descargar el cuerpo tal como llegó' }).click(),
      ])
      const payload = JSON.parse(await streamText(await download.createReadStream())) as unknown[]
      assert.deepEqual(payload, exampleBatch())
      await screenshots(page, '18-lote')

      await page.getByRole('link', { name: 'Conceptos' }).click()
      await page.getByText('No hay conceptos todavía.').waitFor()
      await page.getByRole('button', { name: 'Nuevo concepto' }).click()
      await page.getByLabel('Código').fill('DANADO')
      await page.getByLabel('Descripción').fill('Producto dañado')
      await page.getByLabel('Id del proveedor').fill('7')
      await page.getByRole('button', { name: 'Guardar concepto' }).click()
      await page.getByRole('status').filter({ hasText: 'Concepto DANADO creado.' }).waitFor()
      await page.getByRole('button', { name: 'Desactivar el concepto DANADO' }).click()
      await page.getByRole('row', { name: /DANADO Producto dañado 7 Inactivo/ }).waitFor()
      await screenshots(page, '19-conceptos')
      assert.equal(
        service.db.sqlite.prepare("SELECT activo FROM return_reasons WHERE codigo = 'DANADO'").pluck().get(),
        0,
      )

      await page.getByRole('link', { name: 'Auditoría' }).click()
      await page.getByLabel('Usuario').fill('sofia')
      await page.getByRole('row', { name: /Sofía Reyes sofia Cambió el concepto concepto DANADO/ }).waitFor()
      await page.getByRole('row', { name: /Creó el concepto concepto DANADO/ }).waitFor()
      assert.match(page.url(), /\/consola\/auditoria\?usuario=sofia$/)
      await screenshots(page, '20-auditoria')
    }),
)

test(
  "consola: the listed returns exported to CSV and Excel, with their lines, only of the person's warehouses",
  { skip },
  async () => {
    const service = await startTestService()
    try {
      await seedConsoleReturns(service)
      const { context, page } = await newConsolePage(browser, service)
      await logInThroughUi(page, service, 'sup-oac', '/consola/devoluciones')
      // Return 2 is of warehouse OAS: a supervisor of OAC does not see it.
      await page.getByRole('checkbox', { name: 'Seleccionar la devolución 3' }).waitFor()
      assert.equal(await page.getByRole('checkbox', { name: 'Seleccionar la devolución 2' }).count(), 0)
      await page.getByRole('link', { name: 'Aprobadas' }).click()
      await page.getByRole('row', { name: /^1 / }).waitFor()
      await screenshots(page, '21-devoluciones-aprobadas')
      const csv = await downloaded(page, 'Exportar CSV')
      assert.equal(csv.name, 'devoluciones-2026-11-23.csv')
      assert.deepEqual([...csv.bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'UTF-8 with BOM, as Excel wants it')
      const text = csv.bytes.subarray(3).toString('utf8')
      assert.doesNotMatch(text, /"/, 'no quoted field in this data: a plain split reads it')
      const rows = text
        .split('\r\n')
        .filter(Boolean)
        .map((line) => line.split(','))
      assert.deepEqual(
        rows.map((row) => [row[0], row[1], row[4], row[8], row[11], row[15], row[17], row[18], row[19]]),
        [
          [
            'Devolución',
            'Estado',
            'Factura',
            'Cliente',
            'Línea',
            'Cantidad',
            'Cajas y unidades',
            'Importe',
            'Total de la devolución',
          ],
          ['1', 'Aprobada', FACTURA, 'PULPERIA LA ESPERANZA', '1', '1', '1 unid.', '35.88', '774.27'],
          ['1', 'Aprobada', FACTURA, 'PULPERIA LA ESPERANZA', '2', '1', '1 caja', '738.39', '774.27'],
        ],
      )
      const xlsx = await downloaded(page, 'Exportar Excel')
      assert.equal(xlsx.name, 'devoluciones-2026-11-23.xlsx')
      const sheet = readFirstSheet(xlsx.bytes)
      assert.deepEqual(
        sheet.map((row) => [row[0], row[1], row[11], row[17], row[18]]),
        [
          ['Devolución', 'Estado', 'Línea', 'Cajas y unidades', 'Importe'],
          [1, 'Aprobada', 1, '1 unid.', 35.88],
          [1, 'Aprobada', 2, '1 caja', 738.39],
        ],
      )
      // The filters of the screen go with the export: pending, searched by client.
      await page.getByRole('link', { name: 'Pendientes' }).click()
      await page.getByLabel('Buscar', { exact: true }).fill('esperanza')
      await page.getByText('Total de lo filtrado (1 devolución)').waitFor()
      const pending = readFirstSheet((await downloaded(page, 'Exportar Excel')).bytes)
      assert.deepEqual(
        pending.slice(1).map((row) => [row[0], row[1], row[9]]),
        [[3, 'Pendiente', 'VENCIDO']],
      )
      await context.close()
    } finally {
      await service.close()
    }
  },
)

async function downloaded(page: Page, link: string): Promise<{ name: string; bytes: Buffer }> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: link }).click(),
  ])
  const chunks: Buffer[] = []
  for await (const chunk of await download.createReadStream()) chunks.push(Buffer.from(chunk as Buffer))
  return { name: download.suggestedFilename(), bytes: Buffer.concat(chunks) }
}

async function streamText(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer))
  return Buffer.concat(chunks).toString('utf8')
}

/** An invoice whose line 1 is 10 boxes of 60 (600 units, L 6,000.00): a box line as the warehouse counts it. */
function boxInvoice(nfactura: string, manifiesto: string, changes: Record<string, unknown> = {}) {
  const base = invoice(nfactura, manifiesto, changes)
  const line = {
    ...(base.LineasFactura as Array<Record<string, unknown>>)[1]!,
    NumeroLinea: 1,
    ProductoDesc: 'AGUA PURIFICADA 600ML X60',
    UniVenta: 'CJ',
    CantidadCaja: 10,
    CantidadFracciones: 0,
    FactorConversion: 60,
    Total: 6000,
    Subtotal: 6000,
    Impuesto: 0,
  }
  return { ...base, LineasFactura: [line], Total: 6000 }
}

test(
  'consola: an invoice of a manifest never opened is found from the header by its client, typed without accents and in another order; Enter opens it',
  { skip },
  () =>
    withConsole(async (page, service) => {
      await createAccount(service, 'ana', 'operador', ['OAC'])
      await postBatch(service, exampleBatch())
      service.clock.set('2026-11-22T17:00:00Z')
      assert.equal(
        (
          await postBatch(service, [
            invoice('001-002-01-00077001', '905300', {
              Cliente: 'FARMACIA DILCIA ESPINAL MEJÍA',
              Clienteid: '30077',
              Almacen: 'OAC',
            }),
          ])
        ).status,
        200,
      )
      assert.equal(
        (
          await postBatch(service, [
            invoice('001-002-01-00077002', '905301', {
              Cliente: 'FARMACIA DILCIA ESPINAL MEJÍA',
              Clienteid: '30077',
              Almacen: 'OAS',
            }),
          ])
        ).status,
        200,
      )
      await logInThroughUi(page, service, 'ana')
      await page.getByRole('heading', { name: 'Inicio' }).waitFor()
      // "/" from anywhere puts the cursor in the search.
      await page.keyboard.press('/')
      assert.equal(await page.evaluate('document.activeElement.id'), 'busqueda-general')
      await page.keyboard.type('mejia espinal')
      const results = page.getByRole('region', { name: 'Resultados de la búsqueda' })
      const hit = results.getByRole('link', { name: /001-002-01-00077001 FARMACIA DILCIA ESPINAL MEJÍA/ })
      await hit.waitFor()
      assert.match(await hit.innerText(), /Manifiesto 905300 \(Abierto\) · 22\/11\/2026 · OAC · L 2,300\.18/)
      assert.equal(await results.getByRole('link', { name: /00077002/ }).count(), 0, 'the OAS invoice is not hers')
      await screenshots(page, '22-busqueda')
      await page.keyboard.press('Enter')
      await page.getByRole('heading', { name: 'Factura 001-002-01-00077001' }).waitFor()
      assert.match(page.url(), /\/consola\/facturas\/001-002-01-00077001$/)
      // Ctrl+K too, from a screen; a manifest's number finds the manifest.
      await page.keyboard.press('Control+k')
      await page.keyboard.type('905300')
      await results.getByRole('link', { name: /^Manifiesto 905300/ }).waitFor()
      await page.keyboard.press('Escape')
      assert.equal(await results.count(), 0)
    }),
)

test(
  "consola: a return's lines are seen before approving it; boxes and units; totals; the navigation's count falls after the approval",
  { skip },
  () =>
    withConsole(async (page, service) => {
      await createAccount(service, 'sofia', 'supervisor', 'todos', 'Sofía Reyes')
      await seedReturns(service)
      assert.equal((await postBatch(service, [boxInvoice('CJ-1', '905112')])).status, 200)
      const box = await operator(service, 'POST', 'devoluciones', {
        factura: 'CJ-1',
        concepto: 'DANADO',
        fecha: '2026-11-22T09:30:00',
        lineas: [{ numeroLinea: 1, cajas: 1, unidades: 5 }],
      })
      assert.equal(box.status, 201)
      assert.equal((await registerReturn(service, [{ numeroLinea: 1, unidades: 2 }])).status, 201)
      await logInThroughUi(page, service, 'sofia')
      const navigation = page.getByRole('navigation', { name: 'Secciones' })
      await navigation.getByRole('link', { name: 'Devoluciones (2) por aprobar' }).waitFor()
      // Inicio: the money waiting, and what came in today.
      assert.match(await page.getByRole('link', { name: /Importe por aprobar/ }).innerText(), /^L 721\.76\s/)
      assert.match(await page.getByRole('link', { name: /Facturado hoy/ }).innerText(), /^L 8,489\.15\s/)
      await screenshots(page, '02b-inicio-dinero')

      await navigation.getByRole('link', { name: /Devoluciones/ }).click()
      const footer = page.getByRole('row', { name: /Total de lo filtrado \(2 devoluciones\)/ })
      await footer.getByText('L 721.76').waitFor()
      // Return 1 opens in place on its lines before anything is decided.
      await page.getByRole('button', { name: 'Líneas de la devolución 1' }).click()
      const lines = page.getByRole('table', { name: /Líneas de la devolución 1/ })
      const line = lines.getByRole('row', { name: /AGUA PURIFICADA/ })
      assert.equal(
        (await line.getByRole('cell').nth(2).innerText()).replace(/\s+/g, ' ').trim(),
        '1 caja + 5 unid. 65 unid.',
      )
      await line.getByText('L 650.00').waitFor()
      await screenshots(page, '09b-devolucion-pendiente-con-lineas')
      await page.getByRole('button', { name: 'Aprobar la devolución 1' }).click()
      await page
        .getByRole('dialog', { name: 'Aprobar la devolución 1' })
        .getByRole('button', { name: 'Aprobar' })
        .click()
      await page.getByRole('status').filter({ hasText: 'Devolución 1 aprobada.' }).waitFor()
      await navigation.getByRole('link', { name: 'Devoluciones (1) por aprobar' }).waitFor()
      await page
        .getByRole('row', { name: /Total de lo filtrado \(1 devolución\)/ })
        .getByText('L 71.76')
        .waitFor()

      // Its own page: the lines in boxes and units, who did what.
      await page.goto(`${service.url}/consola/devoluciones/1`)
      await page.getByRole('heading', { name: 'Devolución 1' }).waitFor()
      await page
        .getByRole('table', { name: 'Líneas devueltas' })
        .getByRole('row', { name: /AGUA PURIFICADA .* 1 caja \+ 5 unid\. 65 unid\. L 650\.00/ })
        .waitFor()
      await page
        .getByText('Aprobada por Nombre de sofia', { exact: false })
        .or(page.getByText('Aprobada por Sofía Reyes', { exact: false }))
        .first()
        .waitFor()
      assert.equal(
        await page.getByRole('status').filter({ hasText: 'Devolución 1 aprobada.' }).count(),
        0,
        'the banner stayed behind',
      )
      await screenshots(page, '09c-devolucion')

      // The invoice: 10 boxes sent, 1 box + 5 units returned, 8 boxes + 55 units available.
      await page.getByRole('link', { name: 'CJ-1' }).click()
      await page.getByRole('heading', { name: 'Factura CJ-1' }).waitFor()
      const cells = (
        await page
          .getByRole('row', { name: /AGUA PURIFICADA/ })
          .getByRole('cell')
          .allInnerTexts()
      ).map((text) => text.replace(/\s+/g, ' ').trim())
      assert.deepEqual(cells.slice(3, 6), [
        '10 cajas 600 unid.',
        '1 caja + 5 unid. 65 unid.',
        '8 cajas + 55 unid. 535 unid.',
      ])
      await screenshots(page, '05b-factura-cajas')
      await page.getByRole('link', { name: 'Registrar devolución' }).click()
      const formRow = page.getByRole('row', { name: /AGUA PURIFICADA/ })
      assert.equal(
        (await formRow.getByRole('cell').nth(2).innerText()).replace(/\s+/g, ' ').trim(),
        '8 cajas + 55 unid. 535 unid.',
      )
      // No concepto chosen: the console says so in Spanish (no browser bubble), and nothing is sent.
      await page.getByRole('spinbutton', { name: 'Cajas AGUA PURIFICADA 600ML X60' }).fill('1')
      await page.getByRole('button', { name: 'Registrar devolución' }).click()
      await page.getByRole('alert').filter({ hasText: 'Elija el concepto de la devolución.' }).waitFor()
      assert.equal(Number(service.db.sqlite.prepare('SELECT count(*) FROM returns').pluck().get()), 2)
    }),
)

test(
  "consola: the manifests, a manifest's invoices and the returns end with the totals of what is filtered, sort by total, and fit 1024 and 1280×800 either way",
  { skip },
  () =>
    withConsole(async (page, service) => {
      await createAccount(service, 'sofia', 'supervisor')
      await seedReturns(service)
      assert.equal(
        (await postBatch(service, [boxInvoice('CJ-1', '905112'), boxInvoice('CJ-2', '905113', { Total: 6000 })]))
          .status,
        200,
      )
      await logInThroughUi(page, service, 'sofia', '/consola/manifiestos')
      const totals = page.getByRole('row', { name: /Total de lo filtrado \(2 manifiestos\)/ })
      // Facturas, Total, A depositar, Depositado, Diferencia.
      assert.deepEqual((await totals.getByRole('cell').allInnerTexts()).slice(0, 5), [
        '4',
        'L 14,489.15',
        'L 14,489.15',
        'L 0.00',
        'L 14,489.15',
      ])
      await page.getByRole('button', { name: /^Total/ }).click()
      await page.waitForURL(/orden=-total/)
      await until(page, 'document.querySelector("table[aria-busy=false] tbody th")?.innerText === "905112"')
      assert.deepEqual(await page.getByRole('table').getByRole('rowheader').allInnerTexts(), [
        '905112',
        '905113',
        'Total de lo filtrado (2 manifiestos)',
      ])
      await screenshots(page, '03b-manifiestos-totales')
      await page.getByRole('link', { name: '905112' }).click()
      await page.getByRole('row', { name: /Total de lo filtrado \(3 facturas\) L 8,489\.15/ }).waitFor()
      await page.getByRole('button', { name: /^Total/ }).click()
      await page.waitForURL(/orden=-total/)
      await until(page, 'document.querySelector("table[aria-busy=false] tbody th")?.innerText === "CJ-1"')
      assert.deepEqual(
        (
          await page
            .getByRole('table', { name: /Facturas del manifiesto/ })
            .getByRole('rowheader')
            .allInnerTexts()
        ).slice(0, 3),
        ['CJ-1', '001-001-01-00912001', '001-001-01-00912002'],
      )
      await screenshots(page, '04b-manifiesto-ordenado')
      for (const path of [
        '/consola/manifiestos',
        '/consola/manifiestos/905112',
        '/consola/devoluciones',
        '/consola/facturas/CJ-1',
        '/consola/',
      ]) {
        await page.goto(service.url + path)
        await page.getByRole('heading', { level: 1 }).waitFor()
        await page.waitForLoadState('networkidle')
        for (const [width, height] of [
          [1024, 768],
          [1280, 800],
          [800, 1280],
        ] as const) {
          await page.setViewportSize({ width, height })
          await until(page, `window.innerWidth === ${width}`)
          assert.equal(
            await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'),
            true,
            `${path} at ${width}×${height} scrolls sideways`,
          )
        }
        await page.setViewportSize({ width: 1366, height: 768 })
      }
    }),
)

test(
  'consola: a user with no warehouse ticked is refused by the console itself; "Todos los almacenes" is a choice of its own',
  { skip },
  () =>
    withConsole(async (page, service) => {
      await createAccount(service, 'admin', 'admin')
      await logInThroughUi(page, service, 'admin', '/consola/usuarios')
      await page.getByRole('button', { name: 'Nuevo usuario' }).click()
      await page.getByLabel('Usuario', { exact: true }).fill('rosa.paz')
      await page.getByLabel('Nombre', { exact: true }).fill('Rosa Paz')
      await page.getByLabel('Contraseña inicial').fill('bodega-sur-2026')
      await page.getByRole('group', { name: 'Almacenes' }).getByRole('checkbox', { name: 'OAS' }).waitFor()
      await page.getByRole('button', { name: 'Crear usuario' }).click()
      await page.getByRole('alert').filter({ hasText: 'Elija al menos un almacén, o «Todos los almacenes»' }).waitFor()
      await screenshots(page, '14b-usuario-sin-almacen')
      assert.equal(service.db.sqlite.prepare("SELECT count(*) FROM users WHERE usuario = 'rosa.paz'").pluck().get(), 0)
      await page.getByRole('checkbox', { name: 'Todos los almacenes' }).check()
      assert.equal(await page.getByRole('checkbox', { name: 'OAS' }).isDisabled(), true)
      await page.getByRole('button', { name: 'Crear usuario' }).click()
      await page.getByRole('row', { name: /rosa\.paz Rosa Paz Operador Todos los almacenes Activo/ }).waitFor()
      assert.equal(
        service.db.sqlite.prepare("SELECT almacenes FROM users WHERE usuario = 'rosa.paz'").pluck().get(),
        '"todos"',
      )
    }),
)

test(
  'consola: a manifest of 120 invoices shows 15 or more above the fold at 1366×768, pagers above and below, and its header stays in sight while scrolling',
  { skip },
  () =>
    withConsole(async (page, service) => {
      await createAccount(service, 'sofia', 'supervisor')
      const many = Array.from({ length: 120 }, (_, index) =>
        invoice(`001-001-01-${String(913000 + index).padStart(8, '0')}`, '905112', {
          Cliente: `PULPERIA NÚMERO ${index + 1}`,
          Clienteid: String(50000 + index),
        }),
      )
      assert.equal((await postBatch(service, many)).status, 200)
      await logInThroughUi(page, service, 'sofia', '/consola/manifiestos/905112')
      const table = page.getByRole('table', { name: 'Facturas del manifiesto 905112' })
      await table.getByRole('row', { name: /Total de lo filtrado \(120 facturas\)/ }).waitFor()
      const boxes = await Promise.all((await table.locator('tbody tr').all()).map((row) => row.boundingBox()))
      const seen = boxes.filter((box) => box !== null && box.y + box.height <= 768).length
      assert.ok(seen >= 15, `${seen} invoice rows above the fold`)
      assert.equal(
        await page.getByRole('navigation', { name: 'Páginas de facturas (arriba)' }).getByText('Página 1 de 2').count(),
        1,
      )
      assert.equal(await page.getByRole('navigation', { name: 'Páginas de facturas (abajo)' }).count(), 1)
      await screenshots(page, '04c-manifiesto-denso')
      await page.mouse.wheel(0, 1500)
      await until(page, 'window.scrollY > 1000')
      const header = await table.getByRole('columnheader', { name: /Cliente/ }).boundingBox()
      assert.ok(
        header !== null && header.y >= 0 && header.y < 5,
        `the header row is at ${header?.y} px after scrolling`,
      )
      await screenshot(page, '04d-manifiesto-encabezado-fijo')
    }),
)

test(
  'consola: an administrator sees the copies on this server and off it, a failed copy off it with its reason and alert, and both fine once the share is back',
  { skip },
  () => {
    const share = join(mkdtempSync(join(tmpdir(), 'manifiesto-nas-')), 'manifiesto')
    return withConsole(
      async (page, service) => {
        await createAccount(service, 'admin', 'admin', 'todos', 'Administración')
        await service.monitor.tick()
        await logInThroughUi(page, service, 'admin')
        await page.getByRole('navigation', { name: 'Secciones' }).getByRole('link', { name: 'Estado' }).click()
        await page.getByRole('heading', { name: 'Estado del servicio' }).waitFor()
        await page
          .getByRole('row', { name: /^En este servidor .*backups 22\/11\/2026 10:00 Bien \d+ KB .* s 50\.0 GB$/ })
          .waitFor()
        await page
          .getByRole('row', {
            name: new RegExp(
              `^Fuera del servidor ${share} 22/11/2026 10:00 Falló: la carpeta ${share} no existe: ¿el recurso compartido o el disco no está montado\\? — 0 s —$`,
            ),
          })
          .waitFor()
        await page
          .getByRole('alert')
          .filter({
            hasText: 'La última copia fuera del servidor falló: revise que la carpeta backup.copyTo esté montada',
          })
          .waitFor()
        await screenshot(page, '22-estado-copia-externa-fallida')

        mkdirSync(share)
        service.clock.advance(10 * 60_000)
        await service.monitor.tick()
        await page.getByRole('button', { name: 'Actualizar' }).click()
        await page
          .getByRole('row', { name: new RegExp(`^Fuera del servidor ${share} 22/11/2026 10:10 Bien`) })
          .waitFor()
        await page.getByText('Sin alertas activas.').waitFor()
        await screenshot(page, '23-estado')
      },
      { readFreeDisk: () => 50 * 1024 ** 3, config: { backup: { copyTo: share } } },
    )
  },
)
