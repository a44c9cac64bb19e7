import Type, { type Static } from 'typebox'
import { NumericId, SpanishText } from '../http/vocabulary.ts'

export const ConflictState = Type.Union([Type.Literal('pending'), Type.Literal('accepted'), Type.Literal('discarded')])

/** A held version on an invoice's view: which fields changed, and the batch that brought it. */
export const ConflictSummary = Type.Object({ id: Type.String(), campos_con_cambio: Type.Array(Type.String()), recibido_en: Type.String(), batch_uuid: Type.String() })
export type ConflictSummary = Static<typeof ConflictSummary>

export const ConflictView = Type.Object({
  id: Type.String(),
  factura: Type.String(),
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

export const ConflictListQuery = Type.Object({ estado: Type.Optional(ConflictState) })
export const ConflictParams = Type.Object({ id: NumericId('Id del conflicto') })
export const DecisionBody = Type.Object({ nota: Type.Optional(SpanishText(500, 'Nota opcional de la decisión')) }, { additionalProperties: false })
