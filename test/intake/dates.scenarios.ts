import { invoice, type Answer, type Invoice } from '../support/batches.ts'
import type { ConfigOverrides, ContractName } from '../support/service.ts'

/** The scenarios of step 4 (dates), shared by the intake tests and the dry run's (validar). */

/** Today in Honduras is 2026-11-22 (the clock is at 10:00 local) unless a scenario moves it. */
export interface DateRejection {
  name: string
  batch: Invoice[]
  now?: string
  config?: ConfigOverrides
  rejected?: Array<{ manifiesto: string; motivo: string; detalle: Record<string, unknown>; facturas: string[] }>
  validos?: Array<{ manifiesto: string; total_facturas: number }>
}

const at = (fecha: string) => `${fecha}T00:00:00.000Z`
export const dated = (nfactura: string, fecha: string, manifiesto = '905112') =>
  invoice(nfactura, manifiesto, { FechaFactura: fecha })
const HOY = '2026-11-22'
const FUTURA =
  'FechaFactura no puede ser posterior a hoy (2026-11-22, hora de Honduras). Corrija la fecha y reenvíe el lote.'
const ANTIGUA =
  'FechaFactura no puede tener más de 30 días de antigüedad. Esas facturas no pueden ingresarse por esta interfaz; reenvíe el lote sin ellas.'
const INVALIDA =
  'FechaFactura debe ser una fecha real en uno de estos formatos: YYYY-MM-DDT00:00:00.000Z, YYYY-MM-DD, dd/MM/yyyy u otra fecha-hora ISO 8601. Corríjala y reenvíe el lote.'
const MEZCLADAS =
  'Modo estricto: todas las facturas de un manifiesto deben tener la misma FechaFactura. Separe las facturas por fecha en manifiestos distintos y reenvíe el lote.'
const STRICT = { dates: { strictMixedDates: true } }

export const dateRejections: DateRejection[] = [
  {
    name: 'a date in the future',
    batch: [dated('F-1', at('2026-11-23'))],
    rejected: [
      {
        manifiesto: '905112',
        motivo: 'FECHA_FACTURA_FUTURA',
        detalle: { instruccion: FUTURA, facturas_futuras: { 'F-1': '2026-11-23' }, hoy_servidor: HOY },
        facturas: ['F-1'],
      },
    ],
  },
  {
    name: 'older than 30 days',
    batch: [dated('F-1', at('2026-10-22')), dated('F-2', at('2026-10-23'))],
    rejected: [
      {
        manifiesto: '905112',
        motivo: 'FECHA_FACTURA_DEMASIADO_ANTIGUA',
        detalle: {
          instruccion: ANTIGUA,
          facturas_antiguas: { 'F-1': { fecha: '2026-10-22', dias: 31 } },
          hoy_servidor: HOY,
          limite_dias: 30,
        },
        facturas: ['F-1', 'F-2'],
      },
    ],
  },
  {
    name: 'an impossible date',
    batch: [dated('F-1', '2026-02-30')],
    rejected: [
      {
        manifiesto: '905112',
        motivo: 'FECHA_FACTURA_INVALIDA',
        detalle: { instruccion: INVALIDA, facturas_afectadas: ['F-1'] },
        facturas: ['F-1'],
      },
    ],
  },
  {
    name: 'words, a number and a half date are invalid',
    batch: [
      dated('F-1', 'ayer'),
      dated('F-2', 20261122 as unknown as string),
      dated('F-3', '2026-11'),
      dated('F-4', '22-11-2026'),
    ],
    rejected: [
      {
        manifiesto: '905112',
        motivo: 'FECHA_FACTURA_INVALIDA',
        detalle: { instruccion: INVALIDA, facturas_afectadas: ['F-1', 'F-2', 'F-3', 'F-4'] },
        facturas: ['F-1', 'F-2', 'F-3', 'F-4'],
      },
    ],
  },
  {
    name: 'precedence: invalid before future, only the invalid listed',
    batch: [dated('F-1', at('2026-12-01')), dated('F-2', '31/02/2026')],
    rejected: [
      {
        manifiesto: '905112',
        motivo: 'FECHA_FACTURA_INVALIDA',
        detalle: { instruccion: INVALIDA, facturas_afectadas: ['F-2'] },
        facturas: ['F-1', 'F-2'],
      },
    ],
  },
  {
    name: 'precedence: future before too old',
    batch: [dated('F-1', at('2026-01-01')), dated('F-2', at('2026-11-30'))],
    rejected: [
      {
        manifiesto: '905112',
        motivo: 'FECHA_FACTURA_FUTURA',
        detalle: { instruccion: FUTURA, facturas_futuras: { 'F-2': '2026-11-30' }, hoy_servidor: HOY },
        facturas: ['F-1', 'F-2'],
      },
    ],
  },
  {
    name: 'one bad manifest rejects the whole batch; the good one is listed as valid',
    batch: [dated('F-1', at(HOY), '905111'), dated('F-2', at(HOY), '905111'), dated('F-3', at('2026-11-25'), '905112')],
    rejected: [
      {
        manifiesto: '905112',
        motivo: 'FECHA_FACTURA_FUTURA',
        detalle: { instruccion: FUTURA, facturas_futuras: { 'F-3': '2026-11-25' }, hoy_servidor: HOY },
        facturas: ['F-3'],
      },
    ],
    validos: [{ manifiesto: '905111', total_facturas: 2 }],
  },
  {
    name: 'strict mode: mixed dates in a manifest',
    config: STRICT,
    batch: [dated('F-1', at(HOY)), dated('F-2', '2026-11-21'), dated('F-3', '22/11/2026')],
    rejected: [
      {
        manifiesto: '905112',
        motivo: 'FECHAS_MEZCLADAS',
        detalle: {
          instruccion: MEZCLADAS,
          fechas_encontradas: ['2026-11-21', HOY],
          facturas_por_fecha: { '2026-11-21': ['F-2'], [HOY]: ['F-1', 'F-3'] },
        },
        facturas: ['F-1', 'F-2', 'F-3'],
      },
    ],
  },
  {
    name: 'strict mode: an unreadable date is invalid, not a mix',
    config: STRICT,
    batch: [dated('F-1', at(HOY)), dated('F-2', 'mañana')],
    rejected: [
      {
        manifiesto: '905112',
        motivo: 'FECHA_FACTURA_INVALIDA',
        detalle: { instruccion: INVALIDA, facturas_afectadas: ['F-2'] },
        facturas: ['F-1', 'F-2'],
      },
    ],
  },
  {
    name: 'midnight edge: UTC already on the 23rd, Honduras still on the 22nd → the 23rd is future',
    now: '2026-11-23T05:59:59.000Z',
    batch: [dated('F-1', at('2026-11-23'))],
    rejected: [
      {
        manifiesto: '905112',
        motivo: 'FECHA_FACTURA_FUTURA',
        detalle: { instruccion: FUTURA, facturas_futuras: { 'F-1': '2026-11-23' }, hoy_servidor: HOY },
        facturas: ['F-1'],
      },
    ],
  },
]

/**
 * The whole 422 a rejection row is answered under a contract. The contracts differ only in the
 * label of the valid manifests: v1 details them under `manifiestos_validos`; v2 lists their
 * numbers under the one label `manifiestos`, and v1's label is then absent.
 */
export function dateRejectionAnswer(scenario: DateRejection, contract: ContractName): Answer {
  const rejected = scenario.rejected!.map((entry) => ({
    manifiesto: entry.manifiesto,
    motivo: entry.motivo,
    detalle: entry.detalle,
    total_facturas: entry.facturas.length,
    facturas: entry.facturas,
  }))
  const rejectedCount = rejected.reduce((sum, entry) => sum + entry.total_facturas, 0)
  const validos = scenario.validos ?? []
  return {
    success: false,
    message: `Lote rechazado: ${rejected.length} manifiesto(s) tienen facturas con fechas inválidas. No se insertó ninguna factura del lote.`,
    motivo: 'FECHAS_INVALIDAS',
    accion_requerida:
      'Corrija la FechaFactura de las facturas indicadas en cada manifiesto rechazado y reenvíe el lote completo (los manifiestos válidos tampoco se insertaron).',
    resumen: {
      total_recibidas: scenario.batch.length,
      total_rechazadas: rejectedCount,
      total_validas: scenario.batch.length - rejectedCount,
      insertadas: 0,
    },
    manifiestos_rechazados: rejected,
    ...(contract === 'v1'
      ? { manifiestos_validos: validos }
      : { manifiestos: validos.map((valid) => valid.manifiesto) }),
  }
}

export interface DateAcceptance {
  name: string
  fechas: unknown[]
  now?: string
  config?: ConfigOverrides
}

export const dateAcceptances: DateAcceptance[] = [
  { name: 'exactly 30 days old', fechas: [at('2026-10-23')] },
  {
    name: 'today in every accepted form',
    fechas: [
      at(HOY),
      '2026-11-22T00:00:00Z',
      HOY,
      '22/11/2026',
      '2026-11-22T10:00:00-06:00',
      '2026-11-22T23:30:00',
      '2026-11-23T03:00:00Z',
    ],
  },
  { name: 'mixed dates are allowed by default', fechas: [at(HOY), at('2026-11-20'), '2026-11-01'] },
  {
    name: 'midnight edge: at Honduras midnight the 23rd is today',
    now: '2026-11-23T06:00:00.000Z',
    fechas: [at('2026-11-23')],
  },
  { name: 'a zoned time that is still today in Honduras (UTC already tomorrow)', fechas: ['2026-11-23T05:00:00Z'] },
]

/** The batch of an acceptance row: one invoice per date, F-1, F-2… */
export const acceptedBatch = (scenario: DateAcceptance): Invoice[] =>
  scenario.fechas.map((fecha, i) => dated(`F-${i + 1}`, fecha as string))
