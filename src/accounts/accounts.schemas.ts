import Type, { type Static } from 'typebox'
import { SpanishText } from '../schemas/vocabulary.ts'

export const RoleSchema = Type.Union(
  [Type.Literal('operador'), Type.Literal('supervisor'), Type.Literal('admin'), Type.Literal('finanzas')],
  {
    description:
      'operador: consulta y registra devoluciones; supervisor: además aprueba, cierra, decide y registra depósitos; ' +
      'finanzas: consulta, registra, modifica y anula depósitos y ajusta centavos (no registra ni aprueba devoluciones); admin: todo y los usuarios',
    errorMessage: 'operador, supervisor, finanzas o admin',
  },
)

export const Warehouses = Type.Union(
  [
    Type.Literal('todos'),
    Type.Array(Type.String({ pattern: '^[A-Za-z0-9_-]{1,20}$' }), { minItems: 1, maxItems: 50, uniqueItems: true }),
  ],
  {
    description: 'Códigos de almacén en los que trabaja, o "todos"',
    errorMessage: '"todos" o una lista no vacía de códigos de almacén distintos',
  },
)

/** A login name: 3–40 letters, digits, `.`, `_`, `-`; unique ignoring case. */
export const LoginName = Type.String({
  pattern: '^[A-Za-z0-9._-]{3,40}$',
  description: 'Nombre de usuario (3 a 40 letras, dígitos, . _ -)',
  errorMessage: 'de 3 a 40 letras, dígitos, puntos, guiones o guiones bajos',
})

/** At least 10 characters; at most 200 (hashing cost is bounded). */
export const Password = Type.String({
  minLength: 10,
  maxLength: 200,
  description:
    'Al menos 10 caracteres, distinta del nombre de usuario; ni una de las contraseñas más usadas (también con números o signos añadidos), ni un carácter o grupo repetido, ni una secuencia de letras, números o teclas vecinas',
  errorMessage: 'una contraseña de 10 a 200 caracteres',
})

export const UserView = Type.Object({
  usuario: Type.String(),
  nombre: Type.String(),
  rol: RoleSchema,
  almacenes: Warehouses,
  activo: Type.Boolean(),
  creado_en: Type.String({ description: 'YYYY-MM-DD HH:mm:ss, hora de Honduras' }),
  ultimo_ingreso: Type.Union([Type.String(), Type.Null()]),
  bloqueado_hasta: Type.Union([Type.String(), Type.Null()], {
    description:
      'Hasta cuándo está bloqueado por intentos fallidos (YYYY-MM-DD HH:mm:ss, hora de Honduras); null si no lo está. Un administrador lo desbloquea antes con POST usuarios/{usuario}/desbloquear',
  }),
})
export type UserView = Static<typeof UserView>

export const CreateUserBody = Type.Object(
  {
    usuario: LoginName,
    nombre: SpanishText(120, 'Nombre que muestra la auditoría'),
    rol: RoleSchema,
    almacenes: Type.Optional(Warehouses),
    contrasena: Password,
  },
  { additionalProperties: false },
)

/** A change of a user; the representation GET answers is accepted as it is (its read-only fields are ignored). */
export const UpdateUserBody = Type.Object(
  {
    usuario: Type.Optional(Type.String({ description: 'Si viene, igual al de la ruta: los usuarios no se renombran' })),
    nombre: Type.Optional(SpanishText(120)),
    rol: Type.Optional(RoleSchema),
    almacenes: Type.Optional(Warehouses),
    activo: Type.Optional(Type.Boolean()),
    creado_en: Type.Optional(Type.String()),
    ultimo_ingreso: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    bloqueado_hasta: Type.Optional(
      Type.Union([Type.String(), Type.Null()], {
        description: 'Se ignora: se desbloquea con POST usuarios/{usuario}/desbloquear',
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
)

export const SetPasswordBody = Type.Object({ contrasena: Password }, { additionalProperties: false })

export const UserParams = Type.Object({ usuario: Type.String({ minLength: 1, maxLength: 100 }) })

export const LoginBody = Type.Object(
  { usuario: Type.String({ minLength: 1, maxLength: 100 }), contrasena: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
)

/** Who is logged in, as the console shows it. */
export const SessionView = Type.Object({
  usuario: Type.String(),
  nombre: Type.String(),
  rol: RoleSchema,
  almacenes: Warehouses,
})
export type SessionView = Static<typeof SessionView>

export const ChangeOwnPasswordBody = Type.Object(
  { actual: Type.String({ minLength: 1, maxLength: 200 }), nueva: Password },
  { additionalProperties: false },
)

/** The warehouses of the configuration, as a user's form offers them. */
export const WarehouseList = Type.Object({
  almacenes: Type.Array(Type.String(), { description: 'Códigos de almacén registrados' }),
})
export type WarehouseList = Static<typeof WarehouseList>
