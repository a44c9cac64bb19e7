import Type, { type Static } from 'typebox'
import { PageOf } from '../schemas/paging.ts'
import { LocalDate, NumericId, Page, WarehouseCode } from '../schemas/vocabulary.ts'
import { exactCents } from './cents.ts'

/** Amounts of a deposit or an adjustment: a finite JSON number of lempiras with at most two decimals. */
const Lempiras = (options: { description: string; signed: boolean }) =>
  Type.Refine(
    Type.Number({
      ...(options.signed ? { minimum: -1e12 } : { exclusiveMinimum: 0 }),
      maximum: 1e12,
      description: options.description,
      errorMessage: {
        type: 'debe ser un número: el monto en lempiras, por ejemplo 1234.50',
        exclusiveMinimum: 'debe ser mayor que 0',
        minimum: 'debe ser al menos -1,000,000,000,000',
        maximum: 'debe ser a lo sumo 1,000,000,000,000',
      },
    }),
    (amount) => exactCents(amount) !== null && exactCents(amount) !== 0,
    () => 'debe ser un monto distinto de 0 con a lo sumo dos decimales (centavos), por ejemplo 1234.50',
  )

const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/

/**
 * Text a person writes with a minimum of meaning: `min` to `max` characters once trimmed, no control
 * characters (line breaks and tabs are fine). The services keep it trimmed.
 */
const Written = (min: number, max: number, description: string) =>
  Type.Refine(
    Type.String({
      maxLength: max,
      description,
      errorMessage: {
        type: `debe ser un texto de ${min} a ${max} caracteres`,
        maxLength: `debe tener a lo sumo ${max} caracteres`,
      },
    }),
    (text) => text.trim().length >= min && !CONTROL.test(text),
    (text) =>
      CONTROL.test(text)
        ? 'no puede tener caracteres de control'
        : min === 1
          ? 'no puede estar en blanco'
          : `debe tener al menos ${min} caracteres (tiene ${text.trim().length}): explique con más detalle`,
  )

export const Motivo = (description: string) => Written(10, 500, description)
const Justification = Written(
  15,
  1000,
  'Por qué se deposita de más: obligatoria cuando el depósito deja lo depositado (más los ajustes) por encima de lo que hay que depositar',
)
const Notes = Written(1, 1000, 'Observaciones')
const SlipNumber = Written(1, 100, 'Número de la boleta del banco (referencia)')
const Bank = Type.String({
  minLength: 1,
  maxLength: 60,
  description: 'Uno de los bancos configurados (settlement.banks)',
})
const Part = WarehouseCode(
  'Almacén de la parte del manifiesto; obligatorio cuando usted ve facturas de más de un almacén en el manifiesto',
)

const figures = {
  facturado: Type.Number({ description: 'Σ Total de sus facturas (las anuladas como re-emisión no cuentan), L' }),
  devuelto: Type.Number({
    description: 'Σ de sus devoluciones aprobadas (las pendientes, rechazadas y anuladas no cuentan), L',
  }),
  a_depositar: Type.Number({ description: 'facturado − devuelto, L' }),
  depositado: Type.Number({ description: 'Σ de sus depósitos activos (no anulados), L' }),
  ajustes: Type.Number({ description: 'Σ de sus ajustes de centavos, con signo, L' }),
  diferencia: Type.Number({ description: 'a_depositar − depositado − ajustes: positiva falta, negativa sobra, L' }),
}

export const SettlementPartView = Type.Object({
  almacen: Type.String(),
  ...figures,
  devoluciones_pendientes: Type.Integer({ minimum: 0 }),
  sobrepago_justificado: Type.Boolean({
    description: 'Un depósito activo de la parte lleva justificación: una diferencia negativa no impide cerrar',
  }),
  liquidada: Type.Boolean({
    description: 'diferencia 0 (o negativa con sobrepago justificado) y ninguna devolución pendiente',
  }),
  falta: Type.Union([Type.String(), Type.Null()], {
    description: 'Lo que falta para liquidar la parte, en una frase; null si está liquidada o el manifiesto cerrado',
  }),
})
export type SettlementPartView = Static<typeof SettlementPartView>

/** The money of a manifest as the actor sees it: the parts of their warehouses, and their sum. */
export const SettlementView = Type.Object(
  {
    ...figures,
    devoluciones_pendientes: Type.Integer({ minimum: 0 }),
    liquidada: Type.Boolean({ description: 'Todas sus partes están liquidadas' }),
    lista_para_cerrar: Type.Boolean({
      description: 'Abierto, y liquidado si settlement.closeRequiresSettlement: cerrar lo aceptaría',
    }),
    falta: Type.Union([Type.String(), Type.Null()], {
      description:
        'Lo que falta para liquidar, en una frase ("Falta depositar L 1,234.50 del almacén OAC; hay 2 devoluciones pendientes."); null si está liquidado o cerrado',
    }),
    por_almacen: Type.Array(SettlementPartView, {
      description: 'Una parte por almacén de sus facturas (de sus almacenes)',
    }),
  },
  { description: 'Liquidación: lo facturado menos lo devuelto debe llegar al banco, por almacén, en centavos exactos' },
)
export type SettlementView = Static<typeof SettlementView>

export const DepositState = Type.Union([Type.Literal('active'), Type.Literal('cancelled')], {
  description: 'active: cuenta; cancelled: anulado, no cuenta',
})

export const ReceiptView = Type.Object({
  tipo: Type.String({ description: 'image/jpeg, image/png, image/webp o application/pdf, según su contenido' }),
  bytes: Type.Integer({ minimum: 1 }),
  subido_en: Type.String({ description: 'YYYY-MM-DD HH:mm:ss, hora de Honduras' }),
  subido_por: Type.String(),
  disponible: Type.Boolean({
    description: 'false: el archivo se eliminó por la regla de retención (el registro queda)',
  }),
  eliminado_en: Type.Union([Type.String(), Type.Null()]),
})

export const DepositView = Type.Object({
  id: Type.String(),
  manifiesto: Type.String(),
  almacen: Type.String(),
  monto: Type.Number({ description: 'L, dos decimales' }),
  fecha: Type.String({ description: 'Fecha de la boleta, YYYY-MM-DD' }),
  banco: Type.String(),
  referencia: Type.String({ description: 'Número de la boleta' }),
  notas: Type.Union([Type.String(), Type.Null()]),
  justificacion: Type.Union([Type.String(), Type.Null()]),
  estado: DepositState,
  registrado_por: Type.String(),
  registrado_en: Type.String({ description: 'YYYY-MM-DD HH:mm:ss, hora de Honduras' }),
  modificado_por: Type.Union([Type.String(), Type.Null()]),
  modificado_en: Type.Union([Type.String(), Type.Null()]),
  anulado_por: Type.Union([Type.String(), Type.Null()]),
  anulado_en: Type.Union([Type.String(), Type.Null()]),
  motivo_anulacion: Type.Union([Type.String(), Type.Null()]),
  comprobante: Type.Union([ReceiptView, Type.Null()], {
    description: 'La foto o PDF de la boleta (GET depositos/{id}/comprobante); null si no se subió',
  }),
})
export type DepositView = Static<typeof DepositView>

export const NewDepositBody = Type.Object(
  {
    almacen: Type.Optional(Part),
    monto: Lempiras({ description: 'L, mayor que 0, a lo sumo dos decimales', signed: false }),
    fecha: LocalDate('Fecha de la boleta (YYYY-MM-DD): no futura ni anterior al ingreso del manifiesto'),
    banco: Bank,
    referencia: SlipNumber,
    notas: Type.Optional(Notes),
    justificacion: Type.Optional(Justification),
  },
  { additionalProperties: false },
)

export const DepositChangeBody = Type.Object(
  {
    monto: Type.Optional(Lempiras({ description: 'L, mayor que 0, a lo sumo dos decimales', signed: false })),
    fecha: Type.Optional(LocalDate('Fecha de la boleta (YYYY-MM-DD)')),
    banco: Type.Optional(Bank),
    referencia: Type.Optional(SlipNumber),
    notas: Type.Optional(Type.Union([Notes, Type.Null()], { description: 'null las quita' })),
    justificacion: Type.Optional(
      Type.Union([Justification, Type.Null()], { description: 'null la quita (si el depósito no deja sobrepago)' }),
    ),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    errorMessage: {
      minProperties:
        'debe traer al menos un campo que cambiar (monto, fecha, banco, referencia, notas o justificacion)',
    },
  },
)

export const CancelDepositBody = Type.Object(
  { motivo: Motivo('Por qué se anula (10 a 500 caracteres)') },
  { additionalProperties: false },
)

export const DepositIdParams = Type.Object({ id: NumericId('Id del depósito') })

export const AdjustmentView = Type.Object({
  id: Type.String(),
  manifiesto: Type.String(),
  almacen: Type.String(),
  monto: Type.Number({
    description: 'L con signo: positivo da por recibido lo que falta, negativo da por bueno lo que sobra',
  }),
  motivo: Type.String(),
  registrado_por: Type.String(),
  registrado_en: Type.String({ description: 'YYYY-MM-DD HH:mm:ss, hora de Honduras' }),
})
export type AdjustmentView = Static<typeof AdjustmentView>

export const NewAdjustmentBody = Type.Object(
  {
    almacen: Type.Optional(Part),
    monto: Lempiras({
      description: 'L con signo, distinto de 0, en valor absoluto a lo sumo settlement.maxAdjustment',
      signed: true,
    }),
    motivo: Motivo('Por qué (al menos 10 caracteres)'),
  },
  { additionalProperties: false },
)

export const DEPOSIT_PAGE_SIZE = 100
/** At most this many deposits in one export: a larger one asks for a narrower range. */
export const DEPOSIT_EXPORT_LIMIT = 20_000

const depositFilters = {
  desde: Type.Optional(LocalDate('Depósitos con fecha de boleta desde (YYYY-MM-DD, incluida)')),
  hasta: Type.Optional(LocalDate('Depósitos con fecha de boleta hasta (YYYY-MM-DD, incluida)')),
  banco: Type.Optional(Bank),
  almacen: Type.Optional(WarehouseCode('Solo los depósitos de este almacén (uno de los suyos)')),
  estado: Type.Optional(
    Type.Union([Type.Literal('active'), Type.Literal('cancelled')], {
      description: 'active (por defecto): los que cuentan; cancelled: los anulados. Nunca se listan ni suman juntos',
    }),
  ),
  registrado: Type.Optional(LocalDate('Solo los registrados ese día (YYYY-MM-DD, hora de Honduras)')),
}

export const DepositListQuery = Type.Object(
  { ...depositFilters, pagina: Type.Optional(Page(`${DEPOSIT_PAGE_SIZE} por página; por defecto 1`)) },
  { additionalProperties: false },
)

export const DepositExportQuery = Type.Object(
  {
    formato: Type.Union([Type.Literal('csv'), Type.Literal('xlsx')], {
      description: 'csv (UTF-8 con BOM, separado por comas) o xlsx (Excel)',
    }),
    ...depositFilters,
  },
  { additionalProperties: false },
)

const Sum = Type.Object({ cantidad: Type.Integer({ minimum: 0 }), monto: Type.Number() })

export const DepositTotals = Type.Object(
  {
    cantidad: Type.Integer({ minimum: 0 }),
    monto: Type.Number(),
    por_banco: Type.Array(Type.Intersect([Type.Object({ banco: Type.String() }), Sum])),
    por_almacen: Type.Array(Type.Intersect([Type.Object({ almacen: Type.String() }), Sum])),
  },
  { description: 'Totales de todos los depósitos que cumplen los filtros (todas las páginas)' },
)

export const DepositPage = Type.Intersect([
  PageOf('depositos', DepositView, DEPOSIT_PAGE_SIZE, 'Una página de depósitos, los de fecha más reciente primero'),
  Type.Object({ totales: DepositTotals }),
])
export type DepositPage = Static<typeof DepositPage>

/** The settlement's configuration as the console needs it (the banks to offer, the limits to say). */
export const SettlementRules = Type.Object({
  bancos: Type.Array(Type.String(), { description: 'settlement.banks: los bancos que puede nombrar un depósito' }),
  ajuste_maximo: Type.Number({ description: 'settlement.maxAdjustment: lo más que ajusta un ajuste de centavos, L' }),
  comprobante_max_mb: Type.Number({ description: 'settlement.maxReceiptMB' }),
  comprobantes_dias: Type.Integer({
    minimum: 0,
    description: 'settlement.receiptRetentionDays: días que se guarda el archivo de una boleta (0 = siempre)',
  }),
  cierre_exige_liquidacion: Type.Boolean({ description: 'settlement.closeRequiresSettlement' }),
})
export type SettlementRules = Static<typeof SettlementRules>
