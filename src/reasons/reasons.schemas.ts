import Type, { type Static } from 'typebox'
import { SpanishText } from '../schemas/vocabulary.ts'

export const Reason = Type.Object({
  codigo: Type.String(),
  idProveedor: Type.Union([Type.String(), Type.Null()], {
    description: 'Id del motivo en el sistema del proveedor; el listado usa el código si no hay',
  }),
  descripcion: Type.String(),
  activo: Type.Boolean(),
})
export type Reason = Static<typeof Reason>

const Codigo = Type.String({
  minLength: 1,
  maxLength: 40,
  pattern: '^[A-Za-z0-9_.-]+$',
  description: 'Letras, dígitos, _ . -',
  errorMessage: 'un código de 1 a 40 letras, dígitos, _ . o -',
})

export const CreateReasonBody = Type.Object(
  {
    codigo: Codigo,
    idProveedor: Type.Optional(Type.Union([SpanishText(60), Type.Null()])),
    descripcion: SpanishText(200),
    activo: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)

/**
 * A change of a reason. The representation `GET` answers is accepted as it is: its `codigo` may
 * come along, but only equal to the path's (codes are never renamed).
 */
export const UpdateReasonBody = Type.Object(
  {
    codigo: Type.Optional(Type.String({ description: 'Si viene, igual al de la ruta: los códigos no se renombran' })),
    idProveedor: Type.Optional(Type.Union([SpanishText(60), Type.Null()])),
    descripcion: Type.Optional(SpanishText(200)),
    activo: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
)

export const ReasonParams = Type.Object({ codigo: Type.String({ minLength: 1, maxLength: 40 }) })
