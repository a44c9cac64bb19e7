import Type, { type Static } from 'typebox'
import { DayMonthYear, LocalDate, LocalDateTime, NumericId, Page, SpanishText } from '../http/vocabulary.ts'

const Count = Type.Integer({ minimum: 0, maximum: 1_000_000 })

export const RegisterReturnBody = Type.Object(
  {
    factura: Type.String({ minLength: 1, maxLength: 100, description: 'Nfactura' }),
    concepto: Type.String({ minLength: 1, maxLength: 40, description: 'Código de un concepto activo' }),
    fecha: LocalDateTime('YYYY-MM-DDTHH:mm:ss (hora local) o YYYY-MM-DD (= medianoche); entre la fecha de la factura y hoy'),
    lineas: Type.Array(
      Type.Object(
        {
          numeroLinea: Type.Integer({ minimum: 0 }),
          cajas: Type.Optional(Count),
          unidades: Type.Optional(Count),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 1000 },
    ),
    aprobar: Type.Optional(Type.Boolean({ description: 'true: registra y aprueba a la vez' })),
  },
  { additionalProperties: false },
)

export const ReasonBody = Type.Object({ motivo: SpanishText(500, 'Por qué') }, { additionalProperties: false })

export const ReturnIdParams = Type.Object({ id: NumericId('Id de la devolución') })

export const ReturnState = Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected'), Type.Literal('cancelled')])

export const ReturnsQuery = Type.Object(
  {
    fecha: Type.Optional(LocalDate('Fecha de registro, YYYY-MM-DD')),
    estado: Type.Optional(ReturnState),
  },
  { additionalProperties: false },
)

export type ReturnState = Static<typeof ReturnState>

/** The product of an invoice line, as invoices and returns both show it. */
export const LineProduct = {
  numeroLinea: Type.Integer(),
  productoId: Type.String(),
  producto: Type.String(),
  uniVenta: Type.Union([Type.String(), Type.Null()]),
}

export const ReturnView = Type.Object({
  id: Type.String(),
  factura: Type.String(),
  manifiesto: Type.String(),
  concepto: Type.String(),
  conceptoDescripcion: Type.String(),
  fecha: Type.String({ description: 'YYYY-MM-DDTHH:mm:ss' }),
  estado: ReturnState,
  total: Type.Number(),
  fechaProcesado: Type.Union([Type.String(), Type.Null()]),
  horaProcesado: Type.Union([Type.String(), Type.Null()]),
  registradaPor: Type.String(),
  registradaEn: Type.String({ description: 'YYYY-MM-DD HH:mm:ss, hora de Honduras' }),
  aprobadaPor: Type.Union([Type.String(), Type.Null()]),
  cerradaPor: Type.Union([Type.String(), Type.Null()], { description: 'Quien la rechazó o anuló' }),
  motivo: Type.Union([Type.String(), Type.Null()], { description: 'Motivo del rechazo o la anulación' }),
  sin_acciones: Type.Optional(
    Type.String({
      description: 'Solo contrato v2, cuando el paquete de su manifiesto ya se publicó al proveedor: por qué la devolución ya no admite acciones',
    }),
  ),
  lineas: Type.Array(
    Type.Object({
      ...LineProduct,
      unidades: Type.Number(),
      cantidad: Type.Number({ description: 'Cajas en líneas CJ, si no unidades' }),
      lineTotal: Type.Number(),
    }),
  ),
})
export type ReturnView = Static<typeof ReturnView>

/** The client's listing (interface-v1 §2.3): numbers marked 6 fixed decimals are written so. */
export const ListedReturn = Type.Object({
  devolucion: Type.String(),
  factura: Type.String(),
  clienteid: Type.String(),
  cliente: Type.String(),
  fecha: Type.Union([Type.String(), Type.Null()], { description: 'YYYY-MM-DDTHH:mm:ss' }),
  total: Type.Number({ description: '6 decimales fijos' }),
  almacen: Type.String(),
  idConcepto: Type.String(),
  concepto: Type.String(),
  numeroManifiesto: Type.String(),
  fechaProcesado: Type.Union([Type.String(), Type.Null()], { description: 'YYYY-MM-DDT00:00:00' }),
  horaProcesado: Type.Union([Type.String(), Type.Null()], { description: 'HH:mm:ss' }),
  lineasDevolucion: Type.Array(
    Type.Object({
      productoId: Type.String(),
      producto: Type.String(),
      cantidad: Type.Number({
        description: '6 decimales fijos. Contrato v1: cajas en líneas CJ, unidades en las demás; contrato v2: siempre unidades (cajas × FactorConversion + unidades)',
      }),
      numeroLinea: Type.String(),
      lineTotal: Type.Number({ description: '6 decimales fijos' }),
    }),
  ),
})

export const ListingHeaders = Type.Object({
  Fecha: DayMonthYear(
    'dd/MM/yyyy. Contrato v1: el día en que se procesaron (aprobaron) las devoluciones; contrato v2: el día de emisión de la factura (FechaFactura). Primer día del rango si se envía FechaHasta',
  ),
  FechaHasta: Type.Optional(
    DayMonthYear(
      'dd/MM/yyyy, opcional: último día (incluido) de un rango desde Fecha; sin FechaHasta, solo el día de Fecha. No anterior a Fecha; a lo sumo returns.listing.maxRangeDays días (31 por defecto)',
    ),
  ),
})

export const ListingQuery = Type.Object({
  pagina: Type.Optional(Page('Página, entero ≥ 1 (1000 devoluciones por página); por defecto 1')),
})
