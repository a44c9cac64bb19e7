import Type, { type Static } from 'typebox'
import { PageOf } from '../schemas/paging.ts'
import {
  LocalDate,
  LocalDateTime,
  NumericId,
  Page,
  SearchText,
  SpanishText,
  WarehouseCode,
} from '../schemas/vocabulary.ts'

const Count = Type.Integer({ minimum: 0, maximum: 1_000_000 })

export const RegisterReturnBody = Type.Object(
  {
    factura: Type.String({ minLength: 1, maxLength: 100, description: 'Nfactura' }),
    concepto: Type.String({ minLength: 1, maxLength: 40, description: 'Código de un concepto activo' }),
    fecha: LocalDateTime(
      'YYYY-MM-DDTHH:mm:ss (hora local) o YYYY-MM-DD (= medianoche); entre la fecha de la factura y hoy',
    ),
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

export const ReturnState = Type.Union([
  Type.Literal('pending'),
  Type.Literal('approved'),
  Type.Literal('rejected'),
  Type.Literal('cancelled'),
])

export const RETURN_PAGE_SIZE = 100
/** At most this many returns in one export: a larger one asks for a narrower range. */
export const RETURN_EXPORT_LIMIT = 20_000

/** The filters of the returns list, shared by the list and its export. */
const returnFilters = {
  fecha: Type.Optional(LocalDate('Fecha de registro, YYYY-MM-DD')),
  estado: Type.Optional(ReturnState),
  desde: Type.Optional(LocalDate('Registradas desde esta fecha (YYYY-MM-DD, incluida)')),
  hasta: Type.Optional(LocalDate('Registradas hasta esta fecha (YYYY-MM-DD, incluida)')),
  procesadas_desde: Type.Optional(
    LocalDate(
      'Procesadas (aprobadas) desde esta fecha: la fecha con que las lista el proveedor (YYYY-MM-DD, incluida)',
    ),
  ),
  procesadas_hasta: Type.Optional(LocalDate('Procesadas (aprobadas) hasta esta fecha (YYYY-MM-DD, incluida)')),
  buscar: Type.Optional(
    SearchText(
      'Palabras del número de factura, del nombre o código del cliente, del RTN, de la ruta o del número de manifiesto: sin distinguir mayúsculas ni acentos, en cualquier orden, cada una puede ir incompleta',
    ),
  ),
  almacen: Type.Optional(WarehouseCode('Solo devoluciones de facturas de este almacén (uno de los suyos)')),
}

export const ReturnsQuery = Type.Object(
  {
    ...returnFilters,
    pagina: Type.Optional(
      Page(
        `Con pagina la respuesta es una página (${RETURN_PAGE_SIZE} por página, las más recientes primero) con el total; sin pagina, el arreglo completo de siempre`,
      ),
    ),
    orden: Type.Optional(
      Type.Union(
        [
          Type.Literal('reciente'),
          Type.Literal('total'),
          Type.Literal('-total'),
          Type.Literal('fecha'),
          Type.Literal('-fecha'),
        ],
        {
          description:
            'Con pagina: reciente (por defecto, las registradas último primero), total o fecha de la devolución; con - delante, de mayor a menor',
          errorMessage: 'reciente, total, -total, fecha o -fecha',
        },
      ),
    ),
  },
  { additionalProperties: false },
)

export const ReturnExportQuery = Type.Object(
  {
    formato: Type.Union([Type.Literal('csv'), Type.Literal('xlsx'), Type.Literal('proveedor')], {
      description:
        'csv (UTF-8 con BOM, separado por comas), xlsx (Excel) o proveedor: el libro de devoluciones del proveedor ("71 columnas", XLSX), ' +
        'con las columnas, el orden y los formatos que lee su sistema; sin estado, solo las aprobadas',
    }),
    ...returnFilters,
  },
  { additionalProperties: false },
)

export const BulkApprovalBody = Type.Object(
  {
    ids: Type.Array(NumericId('Id de una devolución pendiente'), {
      minItems: 1,
      maxItems: 500,
      description: 'Las devoluciones pendientes a aprobar juntas (de 1 a 500, sin repetir)',
    }),
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
  cerrada_en: Type.Union([Type.String(), Type.Null()], {
    description: 'Cuándo se rechazó o anuló, YYYY-MM-DD HH:mm:ss, hora de Honduras',
  }),
  motivo: Type.Union([Type.String(), Type.Null()], { description: 'Motivo del rechazo o la anulación' }),
  sin_acciones: Type.Optional(
    Type.String({
      description:
        'Solo contrato v2, cuando el paquete de su manifiesto ya se publicó al proveedor: por qué la devolución ya no admite acciones',
    }),
  ),
  lineas: Type.Array(
    Type.Object({
      ...LineProduct,
      unidades: Type.Number(),
      factor_conversion: Type.Number({
        description: 'Unidades por caja de la línea (FactorConversion; 1 si no trae uno usable)',
      }),
      cantidad: Type.Number({ description: 'Cajas en líneas CJ, si no unidades' }),
      lineTotal: Type.Number(),
    }),
  ),
})
export type ReturnView = Static<typeof ReturnView>

/** A return in the console's paged list: its view and its invoice's client and warehouse. */
export const ReturnListItem = Type.Intersect([
  ReturnView,
  Type.Object({ clienteid: Type.String(), cliente: Type.String(), almacen: Type.String() }),
])
export type ReturnListItem = Static<typeof ReturnListItem>

export const ReturnPage = Type.Intersect([
  PageOf(
    'devoluciones',
    ReturnListItem,
    RETURN_PAGE_SIZE,
    'Una página de devoluciones, las más recientes primero (u otro orden, con orden)',
  ),
  Type.Object({
    totales: Type.Object(
      {
        importe: Type.Number({
          description: 'Suma de los totales de las devoluciones que cumplen los filtros, en todas las páginas',
        }),
      },
      { description: 'Para la fila de totales' },
    ),
  }),
])
export type ReturnPage = Static<typeof ReturnPage>

export const BulkApproval = Type.Object({
  aprobadas: Type.Array(ReturnView, { description: 'Las devoluciones aprobadas, en el orden pedido' }),
})
export type BulkApproval = Static<typeof BulkApproval>
