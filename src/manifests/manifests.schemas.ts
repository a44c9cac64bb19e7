import Type, { type Static } from 'typebox'
import { LocalDate, SpanishText } from '../http/vocabulary.ts'
import { ReissueSummary } from '../reissues/reissues.schemas.ts'

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
})

export const ManifestView = Type.Object({
  numero: Type.String(),
  estado: ManifestStateSchema,
  fecha_ingreso: Type.String(),
  cerrado_en: Type.Union([Type.String(), Type.Null()]),
  total_facturas: Type.Integer(),
  total_importe: Type.Number(),
  devoluciones: Type.Object({ cantidad: Type.Integer({ description: 'Pendientes y aprobadas' }), total_aprobado: Type.Number() }),
  plazo_devoluciones: Type.Union([Type.String(), Type.Null()], {
    description: 'Último momento para registrar devoluciones, hora de Honduras (YYYY-MM-DD 23:59:59); null: sin plazo',
  }),
  dias_habiles_restantes: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
    description: 'Días hábiles (lunes a sábado, sin feriados) que quedan del plazo, hoy y el último incluidos; 0 si venció; null: sin plazo',
  }),
  paquete_proveedor: Type.Optional(
    Type.Object(
      {
        publicado: Type.Boolean({ description: 'El proveedor ya ve las devoluciones aprobadas del manifiesto' }),
        publicado_en: Type.Union([Type.String(), Type.Null()], {
          description: 'Desde cuándo (o desde cuándo lo verá), hora de Honduras, YYYY-MM-DD 00:00:00: el día después del último del plazo; null: sin plazo',
        }),
        nota: Type.String({ description: 'La situación en una frase, para la consola' }),
      },
      { description: 'Solo contrato v2: el paquete de devoluciones del manifiesto, que el proveedor recibe completo al cerrar el plazo' },
    ),
  ),
})
export type ManifestView = Static<typeof ManifestView>

export const ManifestDetail = Type.Intersect([
  ManifestView,
  Type.Object({
    facturas: Type.Array(
      Type.Object({
        factura: Type.String(),
        almacen: Type.String(),
        clienteid: Type.String(),
        cliente: Type.String(),
        fecha_factura: Type.String(),
        total: Type.Number(),
        devoluciones_aprobadas: Type.Number(),
        conflicto_pendiente: Type.Boolean(),
        anulada: Type.Boolean({ description: 'Confirmada como re-emisión: no cuenta en total_facturas ni total_importe' }),
        reemision: Type.Union([ReissueSummary, Type.Null()], { description: 'Si se detectó como posible re-emisión de otra factura' }),
      }),
    ),
  }),
])
export type ManifestDetail = Static<typeof ManifestDetail>

export const ManifestAnyNumberParams = Type.Object({ numero: Type.String({ minLength: 1, maxLength: 100 }) })

export const CloseBody = Type.Object({ motivo: Type.Optional(SpanishText(500, 'Por qué se cierra')) }, { additionalProperties: false })
export const ReopenBody = Type.Object({ motivo: SpanishText(500, 'Por qué se reabre') }, { additionalProperties: false })
export const ExtendDeadlineBody = Type.Object(
  {
    hasta: LocalDate('Nuevo último día para registrar devoluciones (hasta las 23:59:59): un día hábil, posterior al plazo actual, desde hoy y a lo sumo 90 días después'),
    motivo: SpanishText(500, 'Por qué se amplía'),
  },
  { additionalProperties: false },
)
