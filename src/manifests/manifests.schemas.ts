import Type, { type Static } from 'typebox'
import { LocalDate, SpanishText } from '../http/vocabulary.ts'

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
      }),
    ),
  }),
])
export type ManifestDetail = Static<typeof ManifestDetail>

export const ManifestAnyNumberParams = Type.Object({ numero: Type.String({ minLength: 1, maxLength: 100 }) })

export const CloseBody = Type.Object({ motivo: Type.Optional(SpanishText(500, 'Por qué se cierra')) }, { additionalProperties: false })
export const ReopenBody = Type.Object({ motivo: SpanishText(500, 'Por qué se reabre') }, { additionalProperties: false })
