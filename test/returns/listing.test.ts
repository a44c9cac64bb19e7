import assert from 'node:assert/strict'
import { test } from 'node:test'
import { clientContractOf } from '../../src/config/contract.ts'
import { transaction } from '../../src/db/database.ts'
import { ListingCache } from '../../src/listing/listing.cache.ts'
import { registerReturn as registerDirectly } from '../../src/returns/return-registration.service.ts'
import { postBatch } from '../support/batches.ts'
import { generateBatch } from '../../bench/generator.ts'
import { INTEGRATION, operator, registerReturn, seedReturns } from '../support/operator.ts'
import { CONTRACTS, withService, type ContractName, type TestService } from '../support/service.ts'

const list = async (service: TestService, fecha: string | undefined, query = '') => {
  const response = await service.client(`/api/v1/devoluciones/listar${query}`, {
    headers: fecha === undefined ? {} : { Fecha: fecha },
  })
  return { status: response.status, text: await response.text() }
}

const ids = (text: string) => (JSON.parse(text) as Array<{ devolucion: string }>).map((entry) => entry.devolucion)

/**
 * The example manifest arrives on Sunday 22 November 2026; under v2 its 7-business-day window
 * closes on Monday the 30th at 23:59:59, and its package is listed from Tuesday 1 December 00:00
 * (Honduras). v1 lists the returns at once: nothing to wait for.
 */
const PUBLISHED = '2026-12-01T06:00:00Z'
const publish = (service: TestService, contract: ContractName) => {
  if (contract === 'v2') service.clock.set(PUBLISHED)
}

const LISTED_1 =
  '{"devolucion":"1","factura":"001-001-01-00912001","clienteid":"40112233","cliente":"PULPERIA LA ESPERANZA","fecha":"2026-11-22T09:30:00",' +
  '"total":1310.640000,"almacen":"OAC","idConcepto":"7","concepto":"Producto dañado","numeroManifiesto":"905112",' +
  '"fechaProcesado":"2026-11-22T00:00:00","horaProcesado":"10:00:00","lineasDevolucion":[' +
  '{"productoId":"30110205","producto":"ACEITE VEGETAL 410 mL 1/24","cantidad":5.000000,"numeroLinea":"1","lineTotal":179.400000},' +
  '{"productoId":"81800012","producto":"SALSA DE TOMATE 8X12X87GR","cantidad":1.000000,"numeroLinea":"2","lineTotal":738.390000},' +
  '{"productoId":"52480038","producto":"JABON LIMON 115GRX72","cantidad":1.138889,"numeroLinea":"3","lineTotal":392.850000}]}'

/** The same return under v2: every cantidad in units — 5 units, 1 box of 96, 1 box of 72 + 10 units. */
const LISTED_1_V2 = LISTED_1.replace('"cantidad":1.000000', '"cantidad":96.000000').replace(
  '"cantidad":1.138889',
  '"cantidad":82.000000',
)

for (const contract of CONTRACTS) {
  test(`listing (${contract}): every field in its format, six fixed decimals in the raw text, for UN, CJ and mixed lines`, () =>
    withService({ config: { clientContract: contract } }, async (service) => {
      await seedReturns(service)
      await registerReturn(
        service,
        [
          { numeroLinea: 1, unidades: 5 },
          { numeroLinea: 2, cajas: 1 },
          { numeroLinea: 3, cajas: 1, unidades: 10 },
        ],
        { aprobar: true },
      )
      publish(service, contract)
      const { status, text } = await list(service, '22/11/2026')
      assert.equal(status, 200)
      assert.equal(text, `[${contract === 'v1' ? LISTED_1 : LISTED_1_V2}]`)
    }))

  test(`listing (${contract}): idConcepto falls back to the reason code; no returns → []`, () =>
    withService({ config: { clientContract: contract } }, async (service) => {
      await seedReturns(service)
      await registerReturn(service, [{ numeroLinea: 1, unidades: 1 }], { aprobar: true, concepto: 'VENCIDO' })
      publish(service, contract)
      const listed = JSON.parse((await list(service, '22/11/2026')).text) as Array<{
        idConcepto: string
        concepto: string
      }>
      assert.deepEqual([listed[0]!.idConcepto, listed[0]!.concepto], ['VENCIDO', 'Producto vencido'])
      assert.deepEqual(await list(service, '21/11/2026'), { status: 200, text: '[]' })
    }))
}

test('listing: only approved, not cancelled returns processed on that date', () =>
  withService({}, async (service) => {
    await seedReturns(service)
    await registerReturn(service, [{ numeroLinea: 1, unidades: 1 }], { aprobar: true }) // 1 listed
    await registerReturn(service, [{ numeroLinea: 1, unidades: 1 }]) // 2 pending
    await registerReturn(service, [{ numeroLinea: 1, unidades: 1 }]) // 3 rejected
    await operator(service, 'POST', 'devoluciones/3/rechazar', { motivo: 'x' })
    await registerReturn(service, [{ numeroLinea: 1, unidades: 1 }], { aprobar: true }) // 4 cancelled
    await operator(service, 'POST', 'devoluciones/4/anular', { motivo: 'x' })
    service.clock.advance(24 * 60 * 60 * 1000)
    await operator(service, 'POST', 'devoluciones/2/aprobar') // processed the 23rd
    assert.deepEqual(ids((await list(service, '22/11/2026')).text), ['1'])
    assert.deepEqual(ids((await list(service, '23/11/2026')).text), ['2'])
  }))

const badRequests: Array<{ name: string; fecha?: string; query?: string; message: string }> = [
  {
    name: 'missing Fecha',
    message: 'Falta el encabezado Fecha: una fecha real en formato dd/MM/yyyy, por ejemplo 22/11/2026.',
  },
  {
    name: 'Fecha without leading zeros',
    fecha: '1/2/2026',
    message:
      'El encabezado Fecha tiene un formato inválido ("1/2/2026"): debe ser una fecha real en formato dd/MM/yyyy, por ejemplo 22/11/2026.',
  },
  {
    name: 'an impossible Fecha',
    fecha: '31/02/2026',
    message:
      'El encabezado Fecha tiene un formato inválido ("31/02/2026"): debe ser una fecha real en formato dd/MM/yyyy, por ejemplo 22/11/2026.',
  },
  {
    name: 'an ISO Fecha',
    fecha: '2026-11-22',
    message:
      'El encabezado Fecha tiene un formato inválido ("2026-11-22"): debe ser una fecha real en formato dd/MM/yyyy, por ejemplo 22/11/2026.',
  },
  {
    name: 'pagina 0',
    fecha: '22/11/2026',
    query: '?pagina=0',
    message: 'El parámetro pagina debe ser un entero mayor o igual a 1 (se recibió "0").',
  },
  {
    name: 'pagina not a number',
    fecha: '22/11/2026',
    query: '?pagina=dos',
    message: 'El parámetro pagina debe ser un entero mayor o igual a 1 (se recibió "dos").',
  },
  {
    name: 'pagina negative',
    fecha: '22/11/2026',
    query: '?pagina=-1',
    message: 'El parámetro pagina debe ser un entero mayor o igual a 1 (se recibió "-1").',
  },
  {
    name: 'pagina with a fraction',
    fecha: '22/11/2026',
    query: '?pagina=1.5',
    message: 'El parámetro pagina debe ser un entero mayor o igual a 1 (se recibió "1.5").',
  },
]

for (const contract of CONTRACTS)
  for (const scenario of badRequests) {
    test(`listing (${contract}): ${scenario.name} → 422`, () =>
      withService({ config: { clientContract: contract } }, async (service) => {
        const { status, text } = await list(service, scenario.fecha, scenario.query)
        assert.equal(status, 422)
        assert.deepEqual(JSON.parse(text), { success: false, message: scenario.message })
      }))
  }

for (const contract of CONTRACTS)
  test(
    `listing (${contract}): 1001 approved returns → page 1 has 1000, page 2 has 1, page 3 is []`,
    { timeout: 120_000 },
    () =>
      withService({ config: { clientContract: contract, rateLimits: { returnsPerMinute: 100 } } }, async (service) => {
        await seedReturns(service)
        assert.equal((await postBatch(service, generateBatch(130, { fecha: '2026-11-22' }))).status, 200)
        const rules = clientContractOf(contract)
        const deps = {
          db: service.db,
          clock: service.clock,
          contract: rules,
          listing: new ListingCache(service.config.returnsCache, service.clock, rules),
        }
        // One commit for the 1001 returns (not 1001 fsyncs). On a loaded machine the loop can still
        // block the event loop past the server's 5 s keep-alive: a moment's pause lets the server
        // close the idle connection and the client see it, instead of reusing a socket being closed.
        transaction(service.db, () => {
          for (let i = 0; i < 1001; i++) {
            const factura = `G-001-01-${String(Math.floor(i / 8) + 1).padStart(8, '0')}`
            registerDirectly(deps, INTEGRATION, {
              factura,
              concepto: 'DANADO',
              fecha: '2026-11-22',
              lineas: [{ numeroLinea: (i % 8) + 1 > 6 ? 1 : (i % 8) + 1, unidades: 1 }],
              aprobar: true,
            })
          }
        })
        await new Promise((resolve) => setTimeout(resolve, 100))
        publish(service, contract)
        const page1 = ids((await list(service, '22/11/2026')).text)
        const page2 = ids((await list(service, '22/11/2026', '?pagina=2')).text)
        assert.equal(page1.length, 1000)
        assert.deepEqual(page1.slice(0, 3), ['1', '2', '3'])
        assert.deepEqual(page2, ['1001'])
        assert.deepEqual(await list(service, '22/11/2026', '?pagina=3'), { status: 200, text: '[]' })
      }),
  )

test('listing cache: a listed date reflects an approval, an edit of its reason and a cancellation at once', () =>
  withService({}, async (service) => {
    await seedReturns(service)
    await registerReturn(service, [{ numeroLinea: 1, unidades: 1 }], { aprobar: true })
    await registerReturn(service, [{ numeroLinea: 2, cajas: 1 }])
    assert.deepEqual(ids((await list(service, '22/11/2026')).text), ['1'])
    await operator(service, 'POST', 'devoluciones/2/aprobar')
    assert.deepEqual(ids((await list(service, '22/11/2026')).text), ['1', '2'])
    await operator(service, 'PUT', 'conceptos/DANADO', { descripcion: 'Dañado en ruta', idProveedor: '70' })
    const edited = JSON.parse((await list(service, '22/11/2026')).text) as Array<{
      concepto: string
      idConcepto: string
    }>
    assert.deepEqual(
      edited.map((entry) => [entry.idConcepto, entry.concepto]),
      [
        ['70', 'Dañado en ruta'],
        ['70', 'Dañado en ruta'],
      ],
    )
    await operator(service, 'POST', 'devoluciones/1/anular', { motivo: 'error' })
    assert.deepEqual(ids((await list(service, '22/11/2026')).text), ['2'])
    await registerReturn(service, [{ numeroLinea: 1, unidades: 2 }], { aprobar: true })
    assert.deepEqual(ids((await list(service, '22/11/2026')).text), ['2', '3'])
  }))

test('listing cache: pages are served from the cache for 5 minutes today and 60 minutes for a past date', () =>
  withService({ config: { rateLimits: { returnsPerMinute: 100 } } }, async (service) => {
    await seedReturns(service)
    await registerReturn(service, [{ numeroLinea: 1, unidades: 1 }], { aprobar: true })
    const before = (await list(service, '22/11/2026')).text
    // A change behind the service's back (no invalidation) shows whether the page is cached.
    service.db.sqlite.exec("UPDATE invoices SET cliente = 'CAMBIADO'")
    assert.equal((await list(service, '22/11/2026')).text, before)
    service.clock.advance(5 * 60_000 + 1)
    assert.match((await list(service, '22/11/2026')).text, /CAMBIADO/)

    service.clock.advance(24 * 60 * 60 * 1000) // the 22nd is now a past date
    const past = (await list(service, '22/11/2026')).text
    service.db.sqlite.exec("UPDATE invoices SET cliente = 'OTRA VEZ'")
    service.clock.advance(59 * 60_000)
    assert.equal((await list(service, '22/11/2026')).text, past)
    service.clock.advance(60_001)
    assert.match((await list(service, '22/11/2026')).text, /OTRA VEZ/)
  }))
