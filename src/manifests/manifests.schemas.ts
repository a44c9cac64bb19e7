import Type, { type Static } from 'typebox'
import { PageOf } from '../schemas/paging.ts'
import { LocalDate, Page, SearchText, SpanishText, WarehouseCode } from '../schemas/vocabulary.ts'
import { ReissueSummary } from '../reissues/reissues.schemas.ts'
import { SettlementView } from '../settlement/settlement.schemas.ts'

export const MANIFEST_PAGE_SIZE = 50
export const MANIFEST_INVOICE_PAGE_SIZE = 100

export const ManifestNumberParams = Type.Object({
  numero: Type.String({ pattern: '^[0-9]+$', description: 'NumeroManifiesto, solo dígitos' }),
})

export const ManifestStatus = Type.Object({
  success: Type.Literal(true),
  manifiesto: Type.String(),
  estado: Type.Union([Type.Literal('imported'), Type.Literal('closed')]),
  resumen: Type.Object({
    total_facturas: Type.Integer({ minimum: 0 }),
    total_importe: Type.Number({ description: 'Suma de Total de las facturas, redondeada a centavos' }),
    fecha_ingreso: Type.String({ description: 'Creación del manifiesto, hora de Honduras, YYYY-MM-DD HH:mm:ss' }),
  }),
})
export type ManifestStatus = Static<typeof ManifestStatus>

const ManifestStateSchema = Type.Union([Type.Literal('imported'), Type.Literal('closed')])

export const ManifestListQuery = Type.Object({
  estado: Type.Optional(ManifestStateSchema),
  desde: Type.Optional(LocalDate('fecha_ingreso desde (YYYY-MM-DD, incluida)')),
  hasta: Type.Optional(LocalDate('fecha_ingreso hasta (YYYY-MM-DD, incluida)')),
  numero: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,20}$',
      description: 'Comienzo de NumeroManifiesto (9051 encuentra 905112)',
      errorMessage: 'solo dígitos (de 1 a 20), el comienzo del número de manifiesto',
    }),
  ),
  almacen: Type.Optional(
    WarehouseCode('Solo manifiestos con facturas de este almacén (uno de los suyos), contando solo esas facturas'),
  ),
  liquidacion: Type.Optional(
    Type.Union([Type.Literal('pendiente'), Type.Literal('lista'), Type.Literal('cerrada')], {
      description:
        'pendiente: abiertos con algo por liquidar (dinero que falta o sobra sin justificar, o devoluciones pendientes) en sus almacenes; lista: abiertos y liquidados; cerrada: cerrados',
      errorMessage: 'pendiente, lista o cerrada',
    }),
  ),
  pagina: Type.Optional(
    Page(
      `Con pagina la respuesta es una página (${MANIFEST_PAGE_SIZE} por página, los más recientes primero) con el total; sin pagina, el arreglo completo de siempre`,
    ),
  ),
  orden: Type.Optional(
    Type.Union(
      [
        Type.Literal('reciente'),
        Type.Literal('antiguo'),
        Type.Literal('total'),
        Type.Literal('-total'),
        Type.Literal('diferencia'),
        Type.Literal('-diferencia'),
      ],
      {
        description:
          'reciente (por defecto con pagina: por fecha de ingreso, los más recientes primero), antiguo (por defecto sin pagina), total o -total (de mayor a menor), diferencia o -diferencia (la mayor diferencia de la liquidación primero: lo que más falta); en empate, los más recientes primero',
        errorMessage: 'reciente, antiguo, total, -total, diferencia o -diferencia',
      },
    ),
  ),
})

/** The list's filters for its export (no pages): the whole list as a file. */
export const ManifestExportQuery = Type.Object(
  {
    formato: Type.Union([Type.Literal('csv'), Type.Literal('xlsx')], {
      description: 'csv (UTF-8 con BOM, separado por comas) o xlsx (Excel)',
    }),
    estado: ManifestListQuery.properties.estado,
    desde: ManifestListQuery.properties.desde,
    hasta: ManifestListQuery.properties.hasta,
    numero: ManifestListQuery.properties.numero,
    almacen: ManifestListQuery.properties.almacen,
    liquidacion: ManifestListQuery.properties.liquidacion,
    orden: ManifestListQuery.properties.orden,
  },
  { additionalProperties: false },
)

export const ManifestView = Type.Object({
  numero: Type.String(),
  estado: ManifestStateSchema,
  fecha_ingreso: Type.String(),
  cerrado_en: Type.Union([Type.String(), Type.Null()]),
  total_facturas: Type.Integer(),
  total_importe: Type.Number(),
  devoluciones: Type.Object({
    cantidad: Type.Integer({ description: 'Pendientes y aprobadas' }),
    total_aprobado: Type.Number(),
  }),
  plazo_devoluciones: Type.Union([Type.String(), Type.Null()], {
    description: 'Último momento para registrar devoluciones, hora de Honduras (YYYY-MM-DD 23:59:59); null: sin plazo',
  }),
  dias_habiles_restantes: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
    description:
      'Días hábiles (lunes a sábado, sin feriados) que quedan del plazo, hoy y el último incluidos; 0 si venció; null: sin plazo',
  }),
  liquidacion: SettlementView,
  paquete_proveedor: Type.Optional(
    Type.Object(
      {
        publicado: Type.Boolean({ description: 'El proveedor ya ve las devoluciones aprobadas del manifiesto' }),
        publicado_en: Type.Union([Type.String(), Type.Null()], {
          description:
            'Desde cuándo (o desde cuándo lo verá), hora de Honduras, YYYY-MM-DD 00:00:00: el día después del último del plazo; null: sin plazo',
        }),
        nota: Type.String({ description: 'La situación en una frase, para la consola' }),
      },
      {
        description:
          'Solo contrato v2: el paquete de devoluciones del manifiesto, que el proveedor recibe completo al cerrar el plazo',
      },
    ),
  ),
})
export type ManifestView = Static<typeof ManifestView>

/** A manifest's row in the console's paged list: its view, pending conflicts and warehouses. */
export const ManifestListItem = Type.Intersect([
  ManifestView,
  Type.Object({
    conflictos_pendientes: Type.Integer({
      minimum: 0,
      description: 'Conflictos pendientes de sus facturas (de sus almacenes)',
    }),
    almacenes: Type.Array(Type.String(), { description: 'Almacenes de sus facturas que usted ve' }),
  }),
])
export type ManifestListItem = Static<typeof ManifestListItem>

export const ManifestPage = Type.Intersect([
  PageOf(
    'manifiestos',
    ManifestListItem,
    MANIFEST_PAGE_SIZE,
    'Una página de manifiestos, los más recientes primero (u otro orden, con orden)',
  ),
  Type.Object({
    totales: Type.Object(
      {
        facturas: Type.Integer({
          minimum: 0,
          description:
            'Facturas de sus almacenes en los manifiestos que cumplen los filtros, en todas las páginas (sin las anuladas)',
        }),
        importe: Type.Number({ description: 'Su suma' }),
        devoluciones_aprobadas: Type.Number({ description: 'Suma de sus devoluciones aprobadas' }),
        a_depositar: Type.Number({
          description: 'Suma de lo que sus almacenes deben depositar (facturado − devuelto, por almacén)',
        }),
        depositado: Type.Number({ description: 'Suma de sus depósitos activos' }),
        diferencia: Type.Number({
          description: 'Suma de sus diferencias (a depositar − depositado − ajustes): positiva falta, negativa sobra',
        }),
      },
      { description: 'Para la fila de totales' },
    ),
  }),
])
export type ManifestPage = Static<typeof ManifestPage>

const invoiceFields = {
  factura: Type.String(),
  almacen: Type.String(),
  clienteid: Type.String(),
  cliente: Type.String(),
  fecha_factura: Type.String(),
  total: Type.Number(),
  devoluciones_aprobadas: Type.Number(),
  conflicto_pendiente: Type.Boolean(),
  anulada: Type.Boolean({ description: 'Confirmada como re-emisión: no cuenta en total_facturas ni total_importe' }),
  reemision: Type.Union([ReissueSummary, Type.Null()], {
    description: 'Si se detectó como posible re-emisión de otra factura',
  }),
}

export const ManifestDetail = Type.Intersect([
  ManifestView,
  Type.Object({ facturas: Type.Array(Type.Object(invoiceFields)) }),
])
export type ManifestDetail = Static<typeof ManifestDetail>

/** An invoice in the console's paged, searchable list of a manifest's invoices. */
export const ManifestInvoice = Type.Object({
  ...invoiceFields,
  ruta: Type.Union([Type.String(), Type.Null()], { description: 'NumeroRuta, tal como lo envió el proveedor' }),
})
export type ManifestInvoice = Static<typeof ManifestInvoice>

export const ManifestInvoicePage = Type.Intersect([
  PageOf(
    'facturas',
    ManifestInvoice,
    MANIFEST_INVOICE_PAGE_SIZE,
    'Una página de las facturas del manifiesto, en el orden en que llegaron (u otro, con orden)',
  ),
  Type.Object({
    totales: Type.Object(
      {
        importe: Type.Number({
          description: 'Suma de Total de las facturas que cumplen los filtros (sin las anuladas), en todas las páginas',
        }),
        devoluciones_aprobadas: Type.Number({ description: 'Suma de sus devoluciones aprobadas' }),
      },
      { description: 'Para la fila de totales de la lista' },
    ),
  }),
])
export type ManifestInvoicePage = Static<typeof ManifestInvoicePage>

export const ManifestInvoiceQuery = Type.Object(
  {
    buscar: Type.Optional(
      SearchText(
        'Palabras del número de factura, del nombre o código del cliente, del RTN o de la ruta: sin distinguir mayúsculas ni acentos, en cualquier orden, cada una puede ir incompleta',
      ),
    ),
    almacen: Type.Optional(WarehouseCode('Solo las facturas de este almacén (uno de los suyos)')),
    orden: Type.Optional(
      Type.Union(
        [
          Type.Literal('llegada'),
          Type.Literal('total'),
          Type.Literal('-total'),
          Type.Literal('fecha'),
          Type.Literal('-fecha'),
        ],
        {
          description: 'llegada (por defecto), total o fecha de factura; con - delante, de mayor a menor',
          errorMessage: 'llegada, total, -total, fecha o -fecha',
        },
      ),
    ),
    pagina: Type.Optional(Page(`${MANIFEST_INVOICE_PAGE_SIZE} facturas por página; por defecto 1`)),
  },
  { additionalProperties: false },
)

export const ManifestAnyNumberParams = Type.Object({ numero: Type.String({ minLength: 1, maxLength: 100 }) })

export const CloseBody = Type.Object(
  { motivo: Type.Optional(SpanishText(500, 'Por qué se cierra')) },
  { additionalProperties: false },
)
export const ReopenBody = Type.Object(
  { motivo: SpanishText(500, 'Por qué se reabre') },
  { additionalProperties: false },
)
export const ExtendDeadlineBody = Type.Object(
  {
    hasta: LocalDate(
      'Nuevo último día para registrar devoluciones (hasta las 23:59:59): un día hábil, posterior al plazo actual, desde hoy y a lo sumo 90 días después',
    ),
    motivo: SpanishText(500, 'Por qué se amplía'),
  },
  { additionalProperties: false },
)
