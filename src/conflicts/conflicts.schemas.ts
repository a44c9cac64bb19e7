import Type, { type Static } from 'typebox'
import { NumericId, SpanishText } from '../schemas/vocabulary.ts'

export const ConflictState = Type.Union([Type.Literal('pending'), Type.Literal('accepted'), Type.Literal('discarded')])

/** A held version on an invoice's view: which fields changed, and the batch that brought it. */
export const ConflictSummary = Type.Object({
  id: Type.String(),
  campos_con_cambio: Type.Array(Type.String()),
  recibido_en: Type.String(),
  batch_uuid: Type.String(),
})
export type ConflictSummary = Static<typeof ConflictSummary>

export const ConflictView = Type.Object({
  id: Type.String(),
  factura: Type.String(),
  cliente: Type.String({ description: 'El cliente de la factura como está guardada' }),
  clienteid: Type.String(),
  almacen: Type.String(),
  manifiesto: Type.String(),
  estado: ConflictState,
  campos_con_cambio: Type.Array(Type.String()),
  recibido_en: Type.String(),
  batch_uuid: Type.String(),
  decidido_por: Type.Union([Type.String(), Type.Null()]),
  decidido_en: Type.Union([Type.String(), Type.Null()]),
  nota: Type.Union([Type.String(), Type.Null()]),
  existente: Type.Unknown({ description: 'La versión guardada cuando surgió el conflicto' }),
  entrante: Type.Unknown({ description: 'La versión retenida para revisión' }),
})
export type ConflictView = Static<typeof ConflictView>

/** One conflict as the console compares it: both versions and which lines differ, in which fields. */
export const ConflictDetail = Type.Intersect([
  ConflictView,
  Type.Object({
    lineas_con_cambio: Type.Array(
      Type.Object({
        numero_linea: Type.Integer({ description: 'NumeroLinea' }),
        cambio: Type.Union([Type.Literal('modificada'), Type.Literal('agregada'), Type.Literal('quitada')], {
          description:
            'modificada: está en las dos versiones con campos distintos; agregada: solo en la entrante; quitada: solo en la existente',
        }),
        campos: Type.Array(Type.String(), {
          description: 'Campos de LineasFactura que difieren (todos, si se agregó o quitó)',
        }),
      }),
      {
        description:
          'Líneas que difieren entre existente y entrante, emparejadas por NumeroLinea, en orden de NumeroLinea',
      },
    ),
  }),
])
export type ConflictDetail = Static<typeof ConflictDetail>

export const ConflictListQuery = Type.Object({ estado: Type.Optional(ConflictState) })
export const ConflictParams = Type.Object({ id: NumericId('Id del conflicto') })
export const DecisionBody = Type.Object(
  { nota: Type.Optional(SpanishText(500, 'Nota opcional de la decisión')) },
  { additionalProperties: false },
)
