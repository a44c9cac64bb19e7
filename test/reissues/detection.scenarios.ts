import assert from 'node:assert/strict'
import { EXAMPLE_BATCH, invoice, postBatch, resumen, type Answer, type Invoice } from '../support/batches.ts'
import type { ConfigOverrides, TestService } from '../support/service.ts'

/**
 * Re-issued invoices (issue 16): a new invoice that repeats, under another number and in another
 * manifest, a stored invoice's customer, products, units and total, dated within
 * intake.reissue.windowDays of it. The clock's day is Sunday 2026-11-22; earlier batches are sent
 * the day before unless a row says otherwise.
 */
export const YESTERDAY = '2026-11-21T16:00:00Z'
export const TODAY = '2026-11-22T16:00:00Z'
export const REJECT: ConfigOverrides = {
  intake: { reissue: { enabled: true, windowDays: 3, blockThreshold: 3, action: 'reject' } },
}
const reissueConfig = (
  changes: Partial<{ enabled: boolean; windowDays: number; blockThreshold: number; action: 'flag' | 'reject' }>,
): ConfigOverrides => ({
  intake: { reissue: { enabled: true, windowDays: 3, blockThreshold: 3, action: 'flag', ...changes } },
})

/** The example invoice for customer `cliente`: the same customer means the same economic invoice. */
export const inv = (
  nfactura: string,
  manifiesto: string,
  cliente: string,
  fecha = '2026-11-22',
  changes: Invoice = {},
) => invoice(nfactura, manifiesto, { Clienteid: cliente, ...changes }, fecha)

/** interface-v1's 200, exactly: nothing about re-issues reaches the client in "flag" mode. */
const processed = (manifiestos: string[], count: number) => (uuid: string) => ({
  success: true,
  message: `Lote procesado: ${count} factura(s) recibidas, ${count} insertadas.`,
  batch_uuid: uuid,
  manifiestos,
  resumen: resumen({ recibidas: count, insertadas: count }),
})

const EXACT_MESSAGE = (count: number, numero: string) =>
  `${count} factura(s) del manifiesto ${numero} son idénticas a facturas ya registradas en otro manifiesto (mismo cliente, mismos productos y cantidades, mismo total) con otro número: parecen re-emisiones, y el manifiesto no se insertó. No reenvíe esas facturas; las demás pueden enviarse en un manifiesto sin ellas.`
const exact = (
  factura: string,
  identica_a: string,
  manifiesto_original: string,
  fecha_original: string,
  dias_diferencia: number,
) => ({
  factura,
  identica_a,
  manifiesto_original,
  fecha_original,
  cliente: 'PULPERIA LA ESPERANZA',
  total: 2300.18,
  dias_diferencia,
})

/** Three originals of different customers, from two manifests (the real case: 790273/790277 → 790601). */
export const ORIGINALS = [
  inv('A-1', '905100', 'C1', '2026-11-21'),
  inv('A-2', '905100', 'C2', '2026-11-21'),
  inv('A-3', '905099', 'C3', '2026-11-20'),
]
export const COPIES = [inv('B-1', '905101', 'C1'), inv('B-2', '905101', 'C2'), inv('B-3', '905101', 'C3')]

export interface ReissueScenario {
  name: string
  config?: ConfigOverrides
  /** Sent first, each at its instant (default the day before), each accepted. */
  before?: Array<{ at?: string; invoices: Invoice[] }>
  batch: Invoice[]
  status: number
  body: (uuid: string) => Answer
  /** Possible re-issues recorded afterwards: [copy, original, days apart]. */
  flagged: Array<[string, string, number]>
  stored?: Record<string, string[]>
}

export const reissueScenarios: ReissueScenario[] = [
  // The block threshold, and what the client sees in each mode.
  {
    name: 'one re-issue a day later: inserted and flagged, the answer is interface-v1’s',
    before: [{ invoices: [ORIGINALS[0]!] }],
    batch: [COPIES[0]!],
    status: 200,
    body: processed(['905101'], 1),
    flagged: [['B-1', 'A-1', 1]],
  },
  {
    name: 'two re-issues in "reject" mode (below the threshold): inserted and flagged, the answer unchanged',
    config: REJECT,
    before: [{ invoices: ORIGINALS }],
    batch: [COPIES[0]!, COPIES[1]!, inv('B-9', '905101', 'C9')],
    status: 200,
    body: processed(['905101'], 3),
    flagged: [
      ['B-1', 'A-1', 1],
      ['B-2', 'A-2', 1],
    ],
  },
  {
    name: 'three re-issues (the threshold) in "flag" mode: all inserted and flagged, the answer unchanged',
    before: [{ invoices: ORIGINALS }],
    batch: COPIES,
    status: 200,
    body: processed(['905101'], 3),
    flagged: [
      ['B-1', 'A-1', 1],
      ['B-2', 'A-2', 1],
      ['B-3', 'A-3', 2],
    ],
  },
  {
    name: 'three re-issues in "reject" mode: the manifest is rejected (FACTURAS_DUPLICADAS_EXACTAS) naming each and its original; the others are inserted',
    config: REJECT,
    before: [{ invoices: ORIGINALS }],
    batch: [...COPIES, inv('N-1', '905102', 'C9')],
    status: 422,
    body: (uuid) => ({
      success: false,
      message:
        '1 manifiesto(s) rechazados: tienen facturas idénticas a facturas ya registradas, con otro número (posibles re-emisiones). Los otros 1 manifiesto(s) del lote se procesaron. Corrija los rechazados y envíelos en un lote nuevo.',
      motivo: 'FACTURAS_DUPLICADAS_EXACTAS',
      batch_uuid: uuid,
      manifiestos: ['905101', '905102'],
      resumen: resumen({ recibidas: 4, insertadas: 1, rechazadas: 3 }),
      manifiestos_rechazados: [
        {
          manifiesto: '905101',
          total_facturas: 3,
          motivo: 'FACTURAS_DUPLICADAS_EXACTAS',
          mensaje: EXACT_MESSAGE(3, '905101'),
          facturas_duplicadas_exactas: [
            exact('B-1', 'A-1', '905100', '2026-11-21', 1),
            exact('B-2', 'A-2', '905100', '2026-11-21', 1),
            exact('B-3', 'A-3', '905099', '2026-11-20', 2),
          ],
        },
      ],
    }),
    flagged: [],
    stored: { '905101': [], '905102': ['N-1'] },
  },
  {
    name: '"reject" mode: the entry lists only the re-issues, total_facturas counts the whole manifest',
    config: REJECT,
    before: [{ invoices: ORIGINALS }],
    batch: [...COPIES, inv('B-9', '905101', 'C9')],
    status: 422,
    body: (uuid) => ({
      success: false,
      message:
        '1 manifiesto(s) rechazados: tienen facturas idénticas a facturas ya registradas, con otro número (posibles re-emisiones). Ningún manifiesto del lote se procesó. Corrija los rechazados y envíelos en un lote nuevo.',
      motivo: 'FACTURAS_DUPLICADAS_EXACTAS',
      batch_uuid: uuid,
      manifiestos: ['905101'],
      resumen: resumen({ recibidas: 4, rechazadas: 4 }),
      manifiestos_rechazados: [
        {
          manifiesto: '905101',
          total_facturas: 4,
          motivo: 'FACTURAS_DUPLICADAS_EXACTAS',
          mensaje: EXACT_MESSAGE(3, '905101'),
          facturas_duplicadas_exactas: [
            exact('B-1', 'A-1', '905100', '2026-11-21', 1),
            exact('B-2', 'A-2', '905100', '2026-11-21', 1),
            exact('B-3', 'A-3', '905099', '2026-11-20', 2),
          ],
        },
      ],
    }),
    flagged: [],
    stored: { '905101': [] },
  },
  {
    name: '"reject" mode with another manifest’s unknown warehouse → MOTIVOS_MIXTOS, each entry with its own motivo',
    config: REJECT,
    before: [{ invoices: ORIGINALS }],
    batch: [inv('Z-1', '905102', 'C9', '2026-11-22', { Almacen: 'ZZZ' }), ...COPIES, inv('N-1', '905103', 'C8')],
    status: 422,
    body: (uuid) => ({
      success: false,
      message:
        '2 manifiesto(s) rechazados: fueron rechazados por motivos distintos (ver el motivo de cada uno). Los otros 1 manifiesto(s) del lote se procesaron. Corrija los rechazados y envíelos en un lote nuevo.',
      motivo: 'MOTIVOS_MIXTOS',
      batch_uuid: uuid,
      manifiestos: ['905102', '905101', '905103'],
      resumen: resumen({ recibidas: 5, insertadas: 1, rechazadas: 4 }),
      manifiestos_rechazados: [
        {
          manifiesto: '905102',
          total_facturas: 1,
          motivo: 'ALMACENES_DESCONOCIDOS',
          almacenes_desconocidos: [{ almacen: 'ZZZ', facturas: ['Z-1'], cantidad: 1 }],
        },
        {
          manifiesto: '905101',
          total_facturas: 3,
          motivo: 'FACTURAS_DUPLICADAS_EXACTAS',
          mensaje: EXACT_MESSAGE(3, '905101'),
          facturas_duplicadas_exactas: [
            exact('B-1', 'A-1', '905100', '2026-11-21', 1),
            exact('B-2', 'A-2', '905100', '2026-11-21', 1),
            exact('B-3', 'A-3', '905099', '2026-11-20', 2),
          ],
        },
      ],
    }),
    flagged: [],
    stored: { '905101': [], '905102': [], '905103': ['N-1'] },
  },
  {
    name: '"reject" mode: an earlier rule wins (an invoice already under another manifest), whatever the re-issues',
    config: REJECT,
    before: [{ invoices: ORIGINALS }],
    batch: [...COPIES, inv('A-1', '905101', 'C1', '2026-11-21')],
    status: 422,
    body: (uuid) => ({
      success: false,
      message:
        '1 manifiesto(s) rechazados: tienen facturas que ya existen en otro manifiesto. Ningún manifiesto del lote se procesó. Corrija los rechazados y envíelos en un lote nuevo.',
      motivo: 'FACTURAS_DUPLICADAS_EN_OTRO_MANIFIESTO',
      batch_uuid: uuid,
      manifiestos: ['905101'],
      resumen: resumen({ recibidas: 4, rechazadas: 4 }),
      manifiestos_rechazados: [
        {
          manifiesto: '905101',
          total_facturas: 4,
          motivo: 'FACTURAS_DUPLICADAS_EN_OTRO_MANIFIESTO',
          mensaje:
            '1 factura(s) del manifiesto 905101 ya existen en otro manifiesto; una factura pertenece a un solo manifiesto. Quítelas o corrija su manifiesto y reenvíe.',
          facturas_duplicadas: [{ factura: 'A-1', manifiesto_existente: '905100' }],
        },
      ],
    }),
    flagged: [],
  },
  {
    name: 'the threshold counts per manifest: two re-issues in each of two manifests, "reject" mode → all inserted and flagged',
    config: REJECT,
    before: [{ invoices: ORIGINALS }],
    batch: [COPIES[0]!, COPIES[1]!, inv('D-2', '905102', 'C2'), inv('D-3', '905102', 'C3')],
    status: 200,
    body: processed(['905101', '905102'], 4),
    flagged: [
      ['B-1', 'A-1', 1],
      ['B-2', 'A-2', 1],
      ['D-2', 'A-2', 1],
      ['D-3', 'A-3', 2],
    ],
  },
  {
    name: 'a threshold of 1 in "reject" mode rejects a single re-issue',
    config: reissueConfig({ blockThreshold: 1, action: 'reject' }),
    before: [{ invoices: [ORIGINALS[0]!] }],
    batch: [COPIES[0]!],
    status: 422,
    body: (uuid) => ({
      success: false,
      message:
        '1 manifiesto(s) rechazados: tienen facturas idénticas a facturas ya registradas, con otro número (posibles re-emisiones). Ningún manifiesto del lote se procesó. Corrija los rechazados y envíelos en un lote nuevo.',
      motivo: 'FACTURAS_DUPLICADAS_EXACTAS',
      batch_uuid: uuid,
      manifiestos: ['905101'],
      resumen: resumen({ recibidas: 1, rechazadas: 1 }),
      manifiestos_rechazados: [
        {
          manifiesto: '905101',
          total_facturas: 1,
          motivo: 'FACTURAS_DUPLICADAS_EXACTAS',
          mensaje: EXACT_MESSAGE(1, '905101'),
          facturas_duplicadas_exactas: [exact('B-1', 'A-1', '905100', '2026-11-21', 1)],
        },
      ],
    }),
    flagged: [],
  },
  {
    name: 'detection off: three copies in "reject" mode are inserted, nothing flagged',
    config: reissueConfig({ enabled: false, action: 'reject' }),
    before: [{ invoices: ORIGINALS }],
    batch: COPIES,
    status: 200,
    body: processed(['905101'], 3),
    flagged: [],
  },
  // The window's edges (windowDays 3).
  {
    name: 'dated 3 days after the original: flagged',
    before: [{ invoices: [inv('A-1', '905100', 'C1', '2026-11-19')] }],
    batch: [COPIES[0]!],
    status: 200,
    body: processed(['905101'], 1),
    flagged: [['B-1', 'A-1', 3]],
  },
  {
    name: 'dated 4 days after the original: not flagged',
    before: [{ invoices: [inv('A-1', '905100', 'C1', '2026-11-18')] }],
    batch: [COPIES[0]!],
    status: 200,
    body: processed(['905101'], 1),
    flagged: [],
  },
  {
    name: 'dated 3 days before the original: flagged (the window counts both ways)',
    before: [{ at: TODAY, invoices: [inv('A-1', '905100', 'C1', '2026-11-22')] }],
    batch: [inv('B-1', '905101', 'C1', '2026-11-19')],
    status: 200,
    body: processed(['905101'], 1),
    flagged: [['B-1', 'A-1', 3]],
  },
  {
    name: 'dated 4 days before the original: not flagged',
    before: [{ at: TODAY, invoices: [inv('A-1', '905100', 'C1', '2026-11-22')] }],
    batch: [inv('B-1', '905101', 'C1', '2026-11-18')],
    status: 200,
    body: processed(['905101'], 1),
    flagged: [],
  },
  {
    name: 'windowDays 0: the same date is flagged',
    config: reissueConfig({ windowDays: 0 }),
    before: [{ at: TODAY, invoices: [inv('A-1', '905100', 'C1', '2026-11-22')] }],
    batch: [COPIES[0]!],
    status: 200,
    body: processed(['905101'], 1),
    flagged: [['B-1', 'A-1', 0]],
  },
  {
    name: 'windowDays 0: a day apart is not',
    config: reissueConfig({ windowDays: 0 }),
    before: [{ invoices: [ORIGINALS[0]!] }],
    batch: [COPIES[0]!],
    status: 200,
    body: processed(['905101'], 1),
    flagged: [],
  },
  // Legitimate repeat orders: the same weekly basket, 5–7 days apart, never flagged nor blocked.
  ...[5, 6, 7].map((days): ReissueScenario => ({
    name: `a weekly basket repeated ${days} days later, three customers in one manifest, "reject" mode: inserted, nothing flagged`,
    config: REJECT,
    before: [
      {
        at: `2026-11-${22 - days}T16:00:00Z`,
        invoices: ['C1', 'C2', 'C3'].map((cliente) => inv(`W-${cliente}`, '905090', cliente, `2026-11-${22 - days}`)),
      },
    ],
    batch: COPIES,
    status: 200,
    body: processed(['905101'], 3),
    flagged: [],
  })),
  // What the fingerprint keeps.
  {
    name: 'a line amount a cent off (the supplier re-rounds lines): still a re-issue',
    before: [{ invoices: [ORIGINALS[0]!] }],
    batch: [
      inv('B-1', '905101', 'C1', '2026-11-22', {
        LineasFactura: (EXAMPLE_BATCH[0]!.LineasFactura as Invoice[]).map((line, i) =>
          i === 1 ? { ...line, Total: 1476.78, Impuesto: 192.63 } : line,
        ),
      }),
    ],
    status: 200,
    body: processed(['905101'], 1),
    flagged: [['B-1', 'A-1', 1]],
  },
  {
    name: 'the invoice total a cent off: not a re-issue',
    before: [{ invoices: [ORIGINALS[0]!] }],
    batch: [inv('B-1', '905101', 'C1', '2026-11-22', { Total: 2300.19 })],
    status: 200,
    body: processed(['905101'], 1),
    flagged: [],
  },
  {
    name: 'another customer: not a re-issue',
    before: [{ invoices: [ORIGINALS[0]!] }],
    batch: [inv('B-1', '905101', 'C2')],
    status: 200,
    body: processed(['905101'], 1),
    flagged: [],
  },
  // Which stored invoices count.
  {
    name: 'the same manifest: an identical invoice under another number in it is not flagged',
    before: [{ at: TODAY, invoices: [inv('A-1', '905101', 'C1')] }],
    batch: [inv('B-1', '905101', 'C1')],
    status: 200,
    body: processed(['905101'], 1),
    flagged: [],
  },
  {
    name: 'invoices of one batch are not compared with each other',
    batch: [inv('A-1', '905100', 'C1'), inv('B-1', '905101', 'C1')],
    status: 200,
    body: processed(['905100', '905101'], 2),
    flagged: [],
  },
  {
    name: 'two stored matches (the second itself flagged): the closest in date is the one repeated',
    before: [
      { at: '2026-11-20T16:00:00Z', invoices: [inv('A-0', '905098', 'C1', '2026-11-19')] },
      { invoices: [inv('A-1', '905100', 'C1', '2026-11-21')] },
    ],
    batch: [COPIES[0]!],
    status: 200,
    body: processed(['905101'], 1),
    flagged: [
      ['A-1', 'A-0', 2],
      ['B-1', 'A-1', 1],
    ],
  },
  // Many look-alikes (a shop that buys the same basket every week): the detection looks at a
  // bounded few of them, and names the same original as comparing with every one would.
  {
    name: 'five look-alikes in three manifests: the closest in date, then the first stored',
    before: [
      {
        invoices: [
          inv('L-1', '905090', 'C1', '2026-11-19'),
          inv('L-2', '905090', 'C1', '2026-11-19'),
          inv('L-3', '905091', 'C1', '2026-11-21'),
          inv('L-4', '905092', 'C1', '2026-11-21'),
          inv('L-5', '905091', 'C1', '2026-11-21'),
        ],
      },
    ],
    batch: [COPIES[0]!],
    status: 200,
    body: processed(['905101'], 1),
    flagged: [['B-1', 'L-3', 1]],
  },
  {
    name: 'look-alikes of the same day in its own manifest come first by id: the first of another manifest is named',
    before: [
      {
        at: '2026-11-22T14:00:00Z',
        invoices: [
          inv('A-1', '905101', 'C1'),
          inv('A-2', '905101', 'C1'),
          inv('A-3', '905102', 'C1'),
          inv('A-4', '905103', 'C1'),
        ],
      },
    ],
    batch: [inv('B-1', '905101', 'C1')],
    status: 200,
    body: processed(['905101'], 1),
    flagged: [['B-1', 'A-3', 0]],
  },
  {
    name: 'one look-alike a day before and one a day after: the first stored (the later date)',
    before: [
      {
        at: '2026-11-22T14:00:00Z',
        invoices: [inv('X-1', '905090', 'C1', '2026-11-22'), inv('X-2', '905091', 'C1', '2026-11-20')],
      },
    ],
    batch: [inv('B-1', '905101', 'C1', '2026-11-21')],
    status: 200,
    body: processed(['905101'], 1),
    flagged: [['B-1', 'X-1', 1]],
  },
  {
    name: 'one look-alike a day before and one a day after: the first stored (the earlier date)',
    before: [
      {
        at: '2026-11-22T14:00:00Z',
        invoices: [inv('X-2', '905091', 'C1', '2026-11-20'), inv('X-1', '905090', 'C1', '2026-11-22')],
      },
    ],
    batch: [inv('B-1', '905101', 'C1', '2026-11-21')],
    status: 200,
    body: processed(['905101'], 1),
    flagged: [['B-1', 'X-2', 1]],
  },
]

/** The state a row's batch meets: its earlier batches, each at its instant and accepted; then today. */
export async function arrangeReissue(service: TestService, scenario: ReissueScenario): Promise<void> {
  for (const earlier of scenario.before ?? []) {
    service.clock.set(earlier.at ?? YESTERDAY)
    const answer = await postBatch(service, earlier.invoices)
    assert.equal(answer.status, 200, JSON.stringify(answer.body))
  }
  service.clock.set(TODAY)
}
