import assert from 'node:assert/strict'
import { invoice, postBatch, resumen, type Answer, type Invoice } from '../support/batches.ts'
import type { ConfigOverrides, ContractName, TestService } from '../support/service.ts'

/** The scenarios of step 8, shared by the intake tests and the dry run's (validar). */

const closeManifest = (numero: string) => (service: TestService) =>
  service.db.sqlite.prepare("UPDATE manifests SET estado = 'closed' WHERE numero = ?").run(numero)

/** What a batch is answered and leaves stored. */
export interface Step8Outcome {
  status: number
  body: (uuid: string) => Answer
  /** Invoices of each manifest afterwards. */
  stored: Record<string, string[]>
}

/**
 * Each row runs under both client contracts: its fields give v1's outcome, and `v2` what differs
 * under contract v2 (all or nothing; an invoice already in the manifest rejects it). A 422 of
 * step 8 under v2 stores nothing, and its batch is recorded failed (it claims nothing for the day).
 */
export interface Step8Scenario extends Step8Outcome {
  name: string
  config?: ConfigOverrides
  /** Batches sent first (each must succeed), then a database change. */
  before?: Invoice[][]
  change?: (service: TestService) => void
  batch: Invoice[]
  v2?: Partial<Step8Outcome>
}

/** A row's outcome under a contract. */
export const step8Outcome = (scenario: Step8Scenario, contract: ContractName): Step8Outcome =>
  contract === 'v1' ? scenario : { ...scenario, ...scenario.v2 }

const CERRADO =
  'El manifiesto 905111 está cerrado y no acepta facturas. Si debe recibir más, pida al almacén que lo reabra.'
const duplicated = (n: number, numero: string) =>
  `${n} factura(s) del manifiesto ${numero} ya existen en otro manifiesto; una factura pertenece a un solo manifiesto. Quítelas o corrija su manifiesto y reenvíe.`
const ALL_OR_NOTHING = (valid: number) =>
  `El lote se acepta completo o no se acepta: no se insertó ningún manifiesto, tampoco los otros ${valid} válido(s). Corrija los rechazados y reenvíe el lote.`
const YA_EXISTENTES =
  '1 manifiesto(s) rechazados: tienen facturas que ya están registradas en ese mismo manifiesto. Ningún manifiesto del lote se procesó. Corrija los rechazados y envíelos en un lote nuevo.'
/** v2: invoices already stored in the manifest reject it, identical or changed; none is touched. */
const existing = (total: number, facturas: string[], numero = '905112') => ({
  manifiesto: numero,
  total_facturas: total,
  motivo: 'FACTURAS_YA_EXISTENTES',
  mensaje: `${facturas.length} factura(s) del manifiesto ${numero} ya están registradas en él; no se actualizan ni se reemplazan. Reenvíe el manifiesto solo con las facturas nuevas.`,
  facturas_existentes: facturas.map((factura) => ({ factura })),
})
export const warning = (factura: string, campos: string[]) => ({
  factura,
  manifiesto: '905112',
  campos_con_cambio: campos,
  mensaje: `La factura ${factura} ya existe en el manifiesto 905112 con datos distintos (${campos.join(', ')}). Se conservó la versión existente; la nueva quedó pendiente de revisión manual en el almacén.`,
})

export const step8Scenarios: Step8Scenario[] = [
  {
    name: 'unknown warehouses: that manifest rejected, grouped by code in order of appearance; the rest inserted',
    batch: [
      invoice('F-1', '905111', { Almacen: 'ZZZ' }),
      invoice('F-2', '905112'),
      invoice('F-3', '905111', { Almacen: 'OAC' }),
      invoice('F-4', '905111', { Almacen: 'AAA' }),
      invoice('F-5', '905111', { Almacen: 'ZZZ' }),
    ],
    status: 422,
    body: (uuid) => ({
      success: false,
      message:
        '1 manifiesto(s) rechazados: tienen facturas de almacenes no registrados. Los otros 1 manifiesto(s) del lote se procesaron. Corrija los rechazados y envíelos en un lote nuevo.',
      motivo: 'ALMACENES_DESCONOCIDOS',
      batch_uuid: uuid,
      manifiestos: ['905111', '905112'],
      resumen: resumen({ recibidas: 5, insertadas: 1, rechazadas: 4 }),
      manifiestos_rechazados: [
        {
          manifiesto: '905111',
          total_facturas: 4,
          motivo: 'ALMACENES_DESCONOCIDOS',
          almacenes_desconocidos: [
            { almacen: 'ZZZ', facturas: ['F-1', 'F-5'], cantidad: 2 },
            { almacen: 'AAA', facturas: ['F-4'], cantidad: 1 },
          ],
        },
      ],
    }),
    stored: { '905111': [], '905112': ['F-2'] },
    v2: {
      body: (uuid) => ({
        success: false,
        message: `1 manifiesto(s) rechazados: tienen facturas de almacenes no registrados. ${ALL_OR_NOTHING(1)}`,
        motivo: 'ALMACENES_DESCONOCIDOS',
        batch_uuid: uuid,
        manifiestos: ['905111', '905112'],
        resumen: resumen({ recibidas: 5, rechazadas: 4 }),
        manifiestos_rechazados: [
          {
            manifiesto: '905111',
            total_facturas: 4,
            motivo: 'ALMACENES_DESCONOCIDOS',
            almacenes_desconocidos: [
              { almacen: 'ZZZ', facturas: ['F-1', 'F-5'], cantidad: 2 },
              { almacen: 'AAA', facturas: ['F-4'], cantidad: 1 },
            ],
          },
        ],
      }),
      stored: { '905111': [], '905112': [] },
    },
  },
  {
    name: 'a closed manifest rejects its invoices',
    before: [[invoice('F-1', '905111')]],
    change: closeManifest('905111'),
    batch: [invoice('F-2', '905111'), invoice('F-3', '905112')],
    status: 422,
    body: (uuid) => ({
      success: false,
      message:
        '1 manifiesto(s) rechazados: están cerrados y no aceptan facturas. Los otros 1 manifiesto(s) del lote se procesaron. Corrija los rechazados y envíelos en un lote nuevo.',
      motivo: 'MANIFIESTO_CERRADO',
      batch_uuid: uuid,
      manifiestos: ['905111', '905112'],
      resumen: resumen({ recibidas: 2, insertadas: 1, rechazadas: 1 }),
      manifiestos_rechazados: [
        { manifiesto: '905111', total_facturas: 1, motivo: 'MANIFIESTO_CERRADO', mensaje: CERRADO },
      ],
    }),
    stored: { '905111': ['F-1'], '905112': ['F-3'] },
    v2: {
      body: (uuid) => ({
        success: false,
        message: `1 manifiesto(s) rechazados: están cerrados y no aceptan facturas. ${ALL_OR_NOTHING(1)}`,
        motivo: 'MANIFIESTO_CERRADO',
        batch_uuid: uuid,
        manifiestos: ['905111', '905112'],
        resumen: resumen({ recibidas: 2, rechazadas: 1 }),
        manifiestos_rechazados: [
          { manifiesto: '905111', total_facturas: 1, motivo: 'MANIFIESTO_CERRADO', mensaje: CERRADO },
        ],
      }),
      stored: { '905111': ['F-1'], '905112': [] },
    },
  },
  {
    name: 'an invoice already under another manifest rejects its manifest',
    before: [[invoice('F-1', '905111')]],
    batch: [invoice('F-1', '905112'), invoice('F-2', '905112'), invoice('F-3', '905113')],
    status: 422,
    body: (uuid) => ({
      success: false,
      message:
        '1 manifiesto(s) rechazados: tienen facturas que ya existen en otro manifiesto. Los otros 1 manifiesto(s) del lote se procesaron. Corrija los rechazados y envíelos en un lote nuevo.',
      motivo: 'FACTURAS_DUPLICADAS_EN_OTRO_MANIFIESTO',
      batch_uuid: uuid,
      manifiestos: ['905112', '905113'],
      resumen: resumen({ recibidas: 3, insertadas: 1, rechazadas: 2 }),
      manifiestos_rechazados: [
        {
          manifiesto: '905112',
          total_facturas: 2,
          motivo: 'FACTURAS_DUPLICADAS_EN_OTRO_MANIFIESTO',
          mensaje: duplicated(1, '905112'),
          facturas_duplicadas: [{ factura: 'F-1', manifiesto_existente: '905111' }],
        },
      ],
    }),
    stored: { '905111': ['F-1'], '905112': [], '905113': ['F-3'] },
    v2: {
      body: (uuid) => ({
        success: false,
        message: `1 manifiesto(s) rechazados: tienen facturas que ya existen en otro manifiesto. ${ALL_OR_NOTHING(1)}`,
        motivo: 'FACTURAS_DUPLICADAS_EN_OTRO_MANIFIESTO',
        batch_uuid: uuid,
        manifiestos: ['905112', '905113'],
        resumen: resumen({ recibidas: 3, rechazadas: 2 }),
        manifiestos_rechazados: [
          {
            manifiesto: '905112',
            total_facturas: 2,
            motivo: 'FACTURAS_DUPLICADAS_EN_OTRO_MANIFIESTO',
            mensaje: duplicated(1, '905112'),
            facturas_duplicadas: [{ factura: 'F-1', manifiesto_existente: '905111' }],
          },
        ],
      }),
      stored: { '905111': ['F-1'], '905112': [], '905113': [] },
    },
  },
  {
    name: 'different reasons → MOTIVOS_MIXTOS, each entry with its own motivo; first failing rule wins per manifest',
    before: [[invoice('F-1', '905111'), invoice('F-9', '905119')]],
    change: closeManifest('905111'),
    batch: [
      invoice('F-2', '905111', { Almacen: 'QQQ' }),
      invoice('F-3', '905111'),
      invoice('F-9', '905120'),
      invoice('F-4', '905121'),
    ],
    status: 422,
    body: (uuid) => ({
      success: false,
      message:
        '2 manifiesto(s) rechazados: fueron rechazados por motivos distintos (ver el motivo de cada uno). Los otros 1 manifiesto(s) del lote se procesaron. Corrija los rechazados y envíelos en un lote nuevo.',
      motivo: 'MOTIVOS_MIXTOS',
      batch_uuid: uuid,
      manifiestos: ['905111', '905120', '905121'],
      resumen: resumen({ recibidas: 4, insertadas: 1, rechazadas: 3 }),
      manifiestos_rechazados: [
        {
          manifiesto: '905111',
          total_facturas: 2,
          motivo: 'ALMACENES_DESCONOCIDOS',
          almacenes_desconocidos: [{ almacen: 'QQQ', facturas: ['F-2'], cantidad: 1 }],
        },
        {
          manifiesto: '905120',
          total_facturas: 1,
          motivo: 'FACTURAS_DUPLICADAS_EN_OTRO_MANIFIESTO',
          mensaje: duplicated(1, '905120'),
          facturas_duplicadas: [{ factura: 'F-9', manifiesto_existente: '905119' }],
        },
      ],
    }),
    stored: { '905111': ['F-1'], '905120': [], '905121': ['F-4'] },
    v2: {
      body: (uuid) => ({
        success: false,
        message: `2 manifiesto(s) rechazados: fueron rechazados por motivos distintos (ver el motivo de cada uno). ${ALL_OR_NOTHING(1)}`,
        motivo: 'MOTIVOS_MIXTOS',
        batch_uuid: uuid,
        manifiestos: ['905111', '905120', '905121'],
        resumen: resumen({ recibidas: 4, rechazadas: 3 }),
        manifiestos_rechazados: [
          {
            manifiesto: '905111',
            total_facturas: 2,
            motivo: 'ALMACENES_DESCONOCIDOS',
            almacenes_desconocidos: [{ almacen: 'QQQ', facturas: ['F-2'], cantidad: 1 }],
          },
          {
            manifiesto: '905120',
            total_facturas: 1,
            motivo: 'FACTURAS_DUPLICADAS_EN_OTRO_MANIFIESTO',
            mensaje: duplicated(1, '905120'),
            facturas_duplicadas: [{ factura: 'F-9', manifiesto_existente: '905119' }],
          },
        ],
      }),
      stored: { '905111': ['F-1'], '905120': [], '905121': [] },
    },
  },
  {
    name: 'every manifest rejected → 422 and nothing inserted',
    batch: [invoice('F-1', '905111', { Almacen: 'oac' })],
    status: 422,
    body: (uuid) => ({
      success: false,
      message:
        '1 manifiesto(s) rechazados: tienen facturas de almacenes no registrados. Ningún manifiesto del lote se procesó. Corrija los rechazados y envíelos en un lote nuevo.',
      motivo: 'ALMACENES_DESCONOCIDOS',
      batch_uuid: uuid,
      manifiestos: ['905111'],
      resumen: resumen({ recibidas: 1, rechazadas: 1 }),
      manifiestos_rechazados: [
        {
          manifiesto: '905111',
          total_facturas: 1,
          motivo: 'ALMACENES_DESCONOCIDOS',
          almacenes_desconocidos: [{ almacen: 'oac', facturas: ['F-1'], cantidad: 1 }],
        },
      ],
    }),
    stored: { '905111': [] },
  },
  {
    name: 'new, unchanged and differing invoices in one manifest: inserted, sin_cambios, pendientes_revision with advertencias',
    before: [[invoice('F-1'), invoice('F-2'), invoice('F-3')]],
    batch: [
      invoice('F-1'),
      invoice('F-2', '905112', { Cliente: 'OTRO CLIENTE', Tel: '1' }),
      invoice('F-3', '905112', { LineasFactura: (invoice('x').LineasFactura as unknown[]).slice(0, 2) }),
      invoice('F-4'),
    ],
    status: 200,
    body: (uuid) => ({
      success: true,
      message: 'Lote procesado: 4 factura(s) recibidas, 1 insertadas, 2 pendientes de revisión.',
      batch_uuid: uuid,
      manifiestos: ['905112'],
      resumen: resumen({ recibidas: 4, insertadas: 1, sin_cambios: 1, pendientes_revision: 2 }),
      advertencias: [warning('F-2', ['Cliente', 'Tel']), warning('F-3', ['LineasFactura'])],
    }),
    stored: { '905112': ['F-1', 'F-2', 'F-3', 'F-4'] },
    v2: {
      status: 422,
      body: (uuid) => ({
        success: false,
        message: YA_EXISTENTES,
        motivo: 'FACTURAS_YA_EXISTENTES',
        batch_uuid: uuid,
        manifiestos: ['905112'],
        resumen: resumen({ recibidas: 4, rechazadas: 4 }),
        manifiestos_rechazados: [existing(4, ['F-1', 'F-2', 'F-3'])],
      }),
      stored: { '905112': ['F-1', 'F-2', 'F-3'] },
    },
  },
  {
    name: 'a field the existing version had and the new one lacks is a change',
    before: [[invoice('F-1')]],
    batch: [invoice('F-1', '905112', { Barrio: undefined })],
    status: 200,
    body: (uuid) => ({
      success: true,
      message: 'Lote procesado: 1 factura(s) recibidas, 0 insertadas, 1 pendientes de revisión.',
      batch_uuid: uuid,
      manifiestos: ['905112'],
      resumen: resumen({ recibidas: 1, pendientes_revision: 1 }),
      advertencias: [warning('F-1', ['Barrio'])],
    }),
    stored: { '905112': ['F-1'] },
    v2: {
      status: 422,
      body: (uuid) => ({
        success: false,
        message: YA_EXISTENTES,
        motivo: 'FACTURAS_YA_EXISTENTES',
        batch_uuid: uuid,
        manifiestos: ['905112'],
        resumen: resumen({ recibidas: 1, rechazadas: 1 }),
        manifiestos_rechazados: [existing(1, ['F-1'])],
      }),
    },
  },
  {
    name: 'the same digits as a number instead of a string (and a numeric string) are unchanged',
    before: [[invoice('F-1', '905112', { Clienteid: '40112233', Total: 2300.18 })]],
    batch: [invoice('F-1', '905112', { Clienteid: 40112233, Total: '2300.180' })],
    status: 200,
    body: (uuid) => ({
      success: true,
      message: 'Lote procesado: 1 factura(s) recibidas, 0 insertadas.',
      batch_uuid: uuid,
      manifiestos: ['905112'],
      resumen: resumen({ recibidas: 1, sin_cambios: 1 }),
    }),
    stored: { '905112': ['F-1'] },
    v2: {
      status: 422,
      body: (uuid) => ({
        success: false,
        message: YA_EXISTENTES,
        motivo: 'FACTURAS_YA_EXISTENTES',
        batch_uuid: uuid,
        manifiestos: ['905112'],
        resumen: resumen({ recibidas: 1, rechazadas: 1 }),
        manifiestos_rechazados: [existing(1, ['F-1'])],
      }),
    },
  },
  {
    name: 'only auto-update fields differ → updated in place (actualizadas)',
    config: { intake: { autoUpdateFields: ['Tel', 'Direccion'] } },
    before: [[invoice('F-1')]],
    batch: [invoice('F-1', '905112', { Tel: '22223333' })],
    status: 200,
    body: (uuid) => ({
      success: true,
      message: 'Lote procesado: 1 factura(s) recibidas, 0 insertadas.',
      batch_uuid: uuid,
      manifiestos: ['905112'],
      resumen: resumen({ recibidas: 1, actualizadas: 1 }),
    }),
    stored: { '905112': ['F-1'] },
    v2: {
      status: 422,
      body: (uuid) => ({
        success: false,
        message: YA_EXISTENTES,
        motivo: 'FACTURAS_YA_EXISTENTES',
        batch_uuid: uuid,
        manifiestos: ['905112'],
        resumen: resumen({ recibidas: 1, rechazadas: 1 }),
        manifiestos_rechazados: [existing(1, ['F-1'])],
      }),
    },
  },
  {
    name: 'an auto-update field and another field differ → held for review',
    config: { intake: { autoUpdateFields: ['Tel'] } },
    before: [[invoice('F-1')]],
    batch: [invoice('F-1', '905112', { Tel: '22223333', Total: 1 })],
    status: 200,
    body: (uuid) => ({
      success: true,
      message: 'Lote procesado: 1 factura(s) recibidas, 0 insertadas, 1 pendientes de revisión.',
      batch_uuid: uuid,
      manifiestos: ['905112'],
      resumen: resumen({ recibidas: 1, pendientes_revision: 1 }),
      advertencias: [warning('F-1', ['Tel', 'Total'])],
    }),
    stored: { '905112': ['F-1'] },
    v2: {
      status: 422,
      body: (uuid) => ({
        success: false,
        message: YA_EXISTENTES,
        motivo: 'FACTURAS_YA_EXISTENTES',
        batch_uuid: uuid,
        manifiestos: ['905112'],
        resumen: resumen({ recibidas: 1, rechazadas: 1 }),
        manifiestos_rechazados: [existing(1, ['F-1'])],
      }),
    },
  },
  {
    name: 'advertencias appear in a 422 answer too',
    before: [[invoice('F-1')]],
    batch: [invoice('F-1', '905112', { Cliente: 'X' }), invoice('F-2', '905113', { Almacen: 'NOPE' })],
    status: 422,
    body: (uuid) => ({
      success: false,
      message:
        '1 manifiesto(s) rechazados: tienen facturas de almacenes no registrados. Los otros 1 manifiesto(s) del lote se procesaron. Corrija los rechazados y envíelos en un lote nuevo.',
      motivo: 'ALMACENES_DESCONOCIDOS',
      batch_uuid: uuid,
      manifiestos: ['905112', '905113'],
      resumen: resumen({ recibidas: 2, pendientes_revision: 1, rechazadas: 1 }),
      manifiestos_rechazados: [
        {
          manifiesto: '905113',
          total_facturas: 1,
          motivo: 'ALMACENES_DESCONOCIDOS',
          almacenes_desconocidos: [{ almacen: 'NOPE', facturas: ['F-2'], cantidad: 1 }],
        },
      ],
      advertencias: [warning('F-1', ['Cliente'])],
    }),
    stored: { '905112': ['F-1'], '905113': [] },
    v2: {
      body: (uuid) => ({
        success: false,
        message:
          '2 manifiesto(s) rechazados: fueron rechazados por motivos distintos (ver el motivo de cada uno). Ningún manifiesto del lote se procesó. Corrija los rechazados y envíelos en un lote nuevo.',
        motivo: 'MOTIVOS_MIXTOS',
        batch_uuid: uuid,
        manifiestos: ['905112', '905113'],
        resumen: resumen({ recibidas: 2, rechazadas: 2 }),
        manifiestos_rechazados: [
          existing(1, ['F-1']),
          {
            manifiesto: '905113',
            total_facturas: 1,
            motivo: 'ALMACENES_DESCONOCIDOS',
            almacenes_desconocidos: [{ almacen: 'NOPE', facturas: ['F-2'], cantidad: 1 }],
          },
        ],
      }),
    },
  },
]

/** The state a row's batch meets: its earlier batches (each accepted), then its change. */
export async function arrangeStep8(service: TestService, scenario: Step8Scenario): Promise<void> {
  for (const earlier of scenario.before ?? []) assert.equal((await postBatch(service, earlier)).status, 200)
  scenario.change?.(service)
}
