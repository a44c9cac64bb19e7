import assert from 'node:assert/strict'
import { test } from 'node:test'
import { postBatch, invoice } from '../support/batches.ts'
import { operator, seedReturns } from '../support/operator.ts'
import {
  CONTRACTS,
  withService,
  type ConfigOverrides,
  type ContractName,
  type TestService,
} from '../support/service.ts'

/**
 * `FechaHasta` ranges of the client's listing, the same in both contracts (issue 19). Under v1
 * a range selects processing days, under v2 the invoices' issue days; the manifests here have
 * no deadline (created before the window was configured), so v2 lists their returns at once.
 */
const list = async (service: TestService, headers: Record<string, string>, query = '') => {
  const response = await service.client(`/api/v1/devoluciones/listar${query}`, { headers })
  return { status: response.status, body: JSON.parse(await response.text()) as unknown }
}
const ids = (body: unknown) => (body as Array<{ devolucion: string }>).map((entry) => entry.devolucion)

const refused: Array<{ name: string; headers: Record<string, string>; config?: ConfigOverrides; message: string }> = [
  {
    name: 'FechaHasta without leading zeros',
    headers: { Fecha: '01/11/2026', FechaHasta: '5/11/2026' },
    message:
      'El encabezado FechaHasta tiene un formato inválido ("5/11/2026"): debe ser una fecha real en formato dd/MM/yyyy, por ejemplo 22/11/2026.',
  },
  {
    name: 'an impossible FechaHasta',
    headers: { Fecha: '01/11/2026', FechaHasta: '31/11/2026' },
    message:
      'El encabezado FechaHasta tiene un formato inválido ("31/11/2026"): debe ser una fecha real en formato dd/MM/yyyy, por ejemplo 22/11/2026.',
  },
  {
    name: 'an ISO FechaHasta',
    headers: { Fecha: '01/11/2026', FechaHasta: '2026-11-05' },
    message:
      'El encabezado FechaHasta tiene un formato inválido ("2026-11-05"): debe ser una fecha real en formato dd/MM/yyyy, por ejemplo 22/11/2026.',
  },
  {
    name: 'FechaHasta before Fecha',
    headers: { Fecha: '22/11/2026', FechaHasta: '21/11/2026' },
    message:
      'FechaHasta (21/11/2026) no puede ser anterior a Fecha (22/11/2026): envíe en FechaHasta el último día del rango, o quítela para consultar solo el día de Fecha.',
  },
  {
    name: 'a range of 32 days (the default maximum is 31)',
    headers: { Fecha: '01/11/2026', FechaHasta: '02/12/2026' },
    message:
      'El rango pedido (32 días, del 01/11/2026 al 02/12/2026) supera el máximo de 31 días: consúltelo en rangos de hasta 31 días (Fecha y FechaHasta).',
  },
  {
    name: 'a range over returns.listing.maxRangeDays',
    config: { returns: { listing: { maxRangeDays: 7 } } },
    headers: { Fecha: '16/11/2026', FechaHasta: '23/11/2026' },
    message:
      'El rango pedido (8 días, del 16/11/2026 al 23/11/2026) supera el máximo de 7 días: consúltelo en rangos de hasta 7 días (Fecha y FechaHasta).',
  },
  {
    name: 'a bad Fecha is named before the range',
    headers: { Fecha: '2026-11-01', FechaHasta: '01/11/2026' },
    message:
      'El encabezado Fecha tiene un formato inválido ("2026-11-01"): debe ser una fecha real en formato dd/MM/yyyy, por ejemplo 22/11/2026.',
  },
]

for (const contract of CONTRACTS)
  for (const scenario of refused) {
    test(`listing range (${contract}): ${scenario.name} → 422, nothing else`, () =>
      withService({ config: { clientContract: contract, ...scenario.config } }, async (service) => {
        assert.deepEqual(await list(service, scenario.headers), {
          status: 422,
          body: { success: false, message: scenario.message },
        })
      }))
  }

/**
 * Returns on two days of a range: under v1 approved on the 21st and the 22nd, under v2 of
 * invoices issued on the 21st and the 22nd (approved today, the 22nd). No manifest has a deadline.
 */
async function returnsOnTwoDays(service: TestService, contract: ContractName): Promise<void> {
  if (contract === 'v1') service.clock.set('2026-11-21T16:00:00Z')
  await seedReturns(service, contract === 'v1' ? '2026-11-21' : '2026-11-22')
  assert.equal((await postBatch(service, [invoice('F-21', '905300', {}, '2026-11-21')])).status, 200)
  service.db.sqlite.exec('UPDATE manifests SET returns_deadline = NULL')
  const register = (factura: string, fecha: string) =>
    operator(service, 'POST', 'devoluciones', {
      factura,
      concepto: 'DANADO',
      fecha,
      lineas: [{ numeroLinea: 1, unidades: 1 }],
      aprobar: true,
    })
  assert.equal((await register(contract === 'v1' ? '001-001-01-00912001' : 'F-21', '2026-11-21')).status, 201) // return 1: the 21st
  if (contract === 'v1') service.clock.set('2026-11-22T16:00:00Z')
  assert.equal((await register(contract === 'v1' ? 'F-21' : '001-001-01-00912001', '2026-11-22')).status, 201) // return 2: the 22nd
}

for (const contract of CONTRACTS) {
  test(`listing range (${contract}): a range lists every day in it, one day lists its own, a range of exactly 31 days is fine`, () =>
    withService({ config: { clientContract: contract, rateLimits: { returnsPerMinute: 100 } } }, async (service) => {
      await returnsOnTwoDays(service, contract)
      const day = async (headers: Record<string, string>) => {
        const { status, body } = await list(service, headers)
        assert.equal(status, 200)
        return ids(body)
      }
      assert.deepEqual(await day({ Fecha: '21/11/2026' }), ['1'])
      assert.deepEqual(await day({ Fecha: '22/11/2026' }), ['2'])
      assert.deepEqual(await day({ Fecha: '22/11/2026', FechaHasta: '22/11/2026' }), ['2'])
      assert.deepEqual(await day({ Fecha: '21/11/2026', FechaHasta: '22/11/2026' }), ['1', '2'])
      assert.deepEqual(await day({ Fecha: '23/10/2026', FechaHasta: '22/11/2026' }), ['1', '2'])
      assert.deepEqual(await day({ Fecha: '23/11/2026', FechaHasta: '23/12/2026' }), [])
    }))

  test(`listing range (${contract}): a change on any day inside a cached range shows at the next request`, () =>
    withService({ config: { clientContract: contract, rateLimits: { returnsPerMinute: 100 } } }, async (service) => {
      await returnsOnTwoDays(service, contract)
      const range = { Fecha: '15/11/2026', FechaHasta: '30/11/2026' }
      assert.deepEqual(ids((await list(service, range)).body), ['1', '2'])
      assert.deepEqual(ids((await list(service, { Fecha: '21/11/2026', FechaHasta: '21/11/2026' })).body), ['1'])
      assert.equal(
        (await operator(service, 'POST', 'devoluciones/1/anular', { motivo: 'error de captura' })).status,
        200,
      )
      assert.deepEqual(ids((await list(service, range)).body), ['2'])
      assert.deepEqual(ids((await list(service, { Fecha: '21/11/2026', FechaHasta: '21/11/2026' })).body), [])
      assert.equal(
        (
          await operator(service, 'POST', 'devoluciones', {
            factura: '001-001-01-00912001',
            concepto: 'DANADO',
            fecha: '2026-11-22',
            lineas: [{ numeroLinea: 2, cajas: 1 }],
            aprobar: true,
          })
        ).status,
        201,
      )
      assert.deepEqual(ids((await list(service, range)).body), ['2', '3'])
    }))
}
