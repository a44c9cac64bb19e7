import Type from 'typebox'

export const Reason = Type.Object({
  codigo: Type.String(),
  idProveedor: Type.Union([Type.String(), Type.Null()], { description: 'Id del motivo en el sistema del proveedor; el listado usa el código si no hay' }),
  descripcion: Type.String(),
  activo: Type.Boolean(),
})

const Text = (max: number) => Type.String({ minLength: 1, maxLength: max })

export const CreateReasonBody = Type.Object(
  {
    codigo: Type.String({ minLength: 1, maxLength: 40, pattern: '^[A-Za-z0-9_.-]+$', description: 'Letras, dígitos, _ . -' }),
    idProveedor: Type.Optional(Type.Union([Text(60), Type.Null()])),
    descripcion: Text(200),
    activo: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)

export const UpdateReasonBody = Type.Object(
  {
    idProveedor: Type.Optional(Type.Union([Text(60), Type.Null()])),
    descripcion: Type.Optional(Text(200)),
    activo: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
)

export const ReasonParams = Type.Object({ codigo: Type.String({ minLength: 1, maxLength: 40 }) })
