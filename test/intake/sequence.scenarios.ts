import assert from 'node:assert/strict'
import { databaseState, invoice, invoicesOf, postBatch, resumen, type Answer } from '../support/batches.ts'
import type { ContractName, TestService } from '../support/service.ts'
import { warning } from './step8.scenarios.ts'

/**
 * Scenarios where the answer depends on batches sent before (steps 5 and 6), shared by the
 * intake tests and the dry run's (validar). The clock starts at 2026-11-22 10:00 in Honduras.
 */
export interface SequenceScenario {
  name: string
  /** Sent first, each at its instant, each answered with its status. */
  before: Array<{ at: string; body: unknown; status: number }>
  /** When the batch is sent. */
  at: string
  /** The batch: its invoices, or its exact text. */
  batch: unknown
  status: number
  /**
   * The whole answer, given the batch_uuid of the first batch sent before and of this one, and
   * the client contract the service speaks (the rows of step 5 run under both).
   */
  body: (context: { first: string; this: string; contract: ContractName }) => Answer
  /** Whether the batch writes anything (a refusal or a duplicate writes nothing). */
  writes: boolean
  /** Invoices of each manifest afterwards. */
  stored?: Record<string, string[]>
}

const TODAY = '2026-11-22T16:00:00Z'
export const DUPLICATE_MESSAGE =
  'Este lote ya fue procesado hoy y no se reprocesó; se devuelve el resumen del procesamiento original.'
const NOTA =
  'Manifiesto válido, rechazado solo por venir en el mismo lote que manifiestos de días anteriores: reenvíelo en un lote aparte.'
const duplicateOf =
  (counts: Parameters<typeof resumen>[0]) =>
  ({ first }: { first: string }) => ({
    success: true,
    message: DUPLICATE_MESSAGE,
    batch_uuid: first,
    resumen: resumen(counts),
  })
/**
 * The valid manifests of a MANIFIESTOS_FECHA_INVALIDA answer: v1 details them under
 * `manifiestos_no_afectados`; v2 lists their numbers under the one label `manifiestos`, and
 * v1's label is then absent.
 */
const validManifests = (
  contract: ContractName,
  v1: { manifiestos_no_afectados: unknown[] },
  v2: { manifiestos: string[] },
) => (contract === 'v1' ? v1 : v2)
const reordered = `[\n  ${JSON.stringify(Object.fromEntries(Object.entries(invoice('F-1', '905112', { Total: 2300.5 })).reverse()), null, 4).replace('2300.5', '2300.50')}\n]`

export const duplicateScenarios: SequenceScenario[] = [
  {
    name: 'an identical resend the same day → 200 duplicate with the original batch_uuid and resumen',
    before: [{ at: TODAY, body: [invoice('F-1'), invoice('F-2')], status: 200 }],
    at: '2026-11-22T19:00:00Z',
    batch: [invoice('F-1'), invoice('F-2')],
    status: 200,
    body: duplicateOf({ recibidas: 2, insertadas: 2 }),
    writes: false,
  },
  {
    name: 'key order and whitespace do not matter, numbers compare in shortest form',
    before: [{ at: TODAY, body: [invoice('F-1', '905112', { Total: 2300.5 })], status: 200 }],
    at: TODAY,
    batch: reordered,
    status: 200,
    body: duplicateOf({ recibidas: 1, insertadas: 1 }),
    writes: false,
  },
  {
    name: 'a changed value is not a duplicate',
    before: [{ at: TODAY, body: [invoice('F-1')], status: 200 }],
    at: TODAY,
    batch: [invoice('F-1', '905112', { Tel: '22334455' })],
    status: 200,
    body: (uuids) => ({
      success: true,
      message: 'Lote procesado: 1 factura(s) recibidas, 0 insertadas, 1 pendientes de revisión.',
      batch_uuid: uuids.this,
      manifiestos: ['905112'],
      resumen: resumen({ recibidas: 1, pendientes_revision: 1 }),
      advertencias: [warning('F-1', ['Tel'])],
    }),
    writes: true,
  },
  {
    name: 'a batch with step-8 rejections is processed: its resend gets the duplicate answer with rechazadas',
    before: [{ at: TODAY, body: [invoice('F-1'), invoice('F-2', '905113', { Almacen: 'XXX' })], status: 422 }],
    at: TODAY,
    batch: [invoice('F-1'), invoice('F-2', '905113', { Almacen: 'XXX' })],
    status: 200,
    body: duplicateOf({ recibidas: 2, insertadas: 1, rechazadas: 1 }),
    writes: false,
  },
]

const YESTERDAY_BATCH = { at: '2026-11-21T16:00:00Z', body: [invoice('F-1', '905111', {}, '2026-11-21')], status: 200 }

export const earlierDayScenarios: SequenceScenario[] = [
  {
    name: 'invoices for a manifest created yesterday → 422 MANIFIESTOS_FECHA_INVALIDA, nothing written',
    before: [YESTERDAY_BATCH],
    at: TODAY,
    batch: [invoice('F-2', '905111'), invoice('F-3', '905200'), invoice('F-4', '905111'), invoice('F-5', '905201')],
    status: 422,
    body: ({ contract }) => ({
      success: false,
      message:
        'Lote rechazado: incluye facturas para 1 manifiesto(s) creados en días anteriores, que ya no aceptan facturas. No se insertó ninguna factura del lote.',
      motivo: 'MANIFIESTOS_FECHA_INVALIDA',
      accion_requerida:
        'Envíe las facturas de los manifiestos rechazados con un número de manifiesto nuevo, y reenvíe los manifiestos no afectados en un lote aparte.',
      resumen: { total_recibidas: 4, total_rechazadas: 2, total_validas: 2, insertadas: 0 },
      manifiestos_rechazados: [
        {
          manifiesto: '905111',
          fecha_original: '2026-11-21',
          fecha_intento: '2026-11-22',
          total_facturas: 2,
          facturas_afectadas: ['F-2', 'F-4'],
          instruccion:
            'El manifiesto 905111 se creó el 2026-11-21 y desde otro día ya no acepta facturas nuevas. Envíe esas facturas con un número de manifiesto nuevo.',
        },
      ],
      ...validManifests(
        contract,
        {
          manifiestos_no_afectados: ['905200', '905201'].map((manifiesto, i) => ({
            manifiesto,
            total_facturas: 1,
            facturas: [`F-${3 + i * 2}`],
            nota: NOTA,
          })),
        },
        { manifiestos: ['905200', '905201'] },
      ),
    }),
    writes: false,
  },
  {
    name: 'the unaffected manifests go through in a batch of their own',
    before: [YESTERDAY_BATCH],
    at: TODAY,
    batch: [invoice('F-3', '905200'), invoice('F-5', '905201')],
    status: 200,
    body: (uuids) => ({
      success: true,
      message: 'Lote procesado: 2 factura(s) recibidas, 2 insertadas.',
      batch_uuid: uuids.this,
      manifiestos: ['905200', '905201'],
      resumen: resumen({ recibidas: 2, insertadas: 2 }),
    }),
    writes: true,
    stored: { '905200': ['F-3'], '905201': ['F-5'] },
  },
  {
    name: '"earlier day" is the Honduras date (created 23:59 local yesterday, now 01:00 local)',
    before: [{ at: '2026-11-22T05:59:00Z', body: [invoice('F-1', '905111', {}, '2026-11-21')], status: 200 }],
    at: '2026-11-22T07:00:00Z',
    batch: [invoice('F-2', '905111')],
    status: 422,
    body: ({ contract }) => ({
      success: false,
      message:
        'Lote rechazado: incluye facturas para 1 manifiesto(s) creados en días anteriores, que ya no aceptan facturas. No se insertó ninguna factura del lote.',
      motivo: 'MANIFIESTOS_FECHA_INVALIDA',
      accion_requerida:
        'Envíe las facturas de los manifiestos rechazados con un número de manifiesto nuevo, y reenvíe los manifiestos no afectados en un lote aparte.',
      resumen: { total_recibidas: 1, total_rechazadas: 1, total_validas: 0, insertadas: 0 },
      manifiestos_rechazados: [
        {
          manifiesto: '905111',
          fecha_original: '2026-11-21',
          fecha_intento: '2026-11-22',
          total_facturas: 1,
          facturas_afectadas: ['F-2'],
          instruccion:
            'El manifiesto 905111 se creó el 2026-11-21 y desde otro día ya no acepta facturas nuevas. Envíe esas facturas con un número de manifiesto nuevo.',
        },
      ],
      ...validManifests(contract, { manifiestos_no_afectados: [] }, { manifiestos: [] }),
    }),
    writes: false,
  },
  {
    name: 'a manifest created earlier today accepts more invoices',
    before: [{ at: '2026-11-22T06:00:00Z', body: [invoice('F-1', '905111')], status: 200 }],
    at: '2026-11-23T05:59:59Z',
    batch: [invoice('F-2', '905111')],
    status: 200,
    body: (uuids) => ({
      success: true,
      message: 'Lote procesado: 1 factura(s) recibidas, 1 insertadas.',
      batch_uuid: uuids.this,
      manifiestos: ['905111'],
      resumen: resumen({ recibidas: 1, insertadas: 1 }),
    }),
    writes: true,
    stored: { '905111': ['F-1', 'F-2'] },
  },
]

/** Sends the scenario's earlier batches, each at its instant, and sets the clock for its batch. @returns the first one's batch_uuid. */
export async function sendEarlier(service: TestService, scenario: SequenceScenario): Promise<string> {
  const uuids: string[] = []
  for (const earlier of scenario.before) {
    service.clock.set(earlier.at)
    const answer = await postBatch(service, earlier.body)
    assert.equal(answer.status, earlier.status, JSON.stringify(answer.body))
    uuids.push(answer.body.batch_uuid as string)
  }
  service.clock.set(scenario.at)
  return uuids[0]!
}

/** Runs one row: the earlier batches, then the batch, its whole answer (under the contract the service speaks) and what it wrote. */
export async function checkSequence(service: TestService, scenario: SequenceScenario): Promise<void> {
  const first = await sendEarlier(service, scenario)
  const before = databaseState(service.db)
  const { status, body } = await postBatch(service, scenario.batch)
  assert.equal(status, scenario.status, JSON.stringify(body))
  assert.deepEqual(
    body,
    scenario.body({ first, this: body.batch_uuid as string, contract: service.config.clientContract }),
  )
  if (scenario.writes) assert.notDeepEqual(databaseState(service.db), before)
  else assert.deepEqual(databaseState(service.db), before, 'nothing written')
  for (const [numero, nfacturas] of Object.entries(scenario.stored ?? {}))
    assert.deepEqual(invoicesOf(service.db, numero), nfacturas, `manifest ${numero}`)
}
