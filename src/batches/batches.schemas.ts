import Type, { type Static } from 'typebox'
import { LocalDate } from '../schemas/vocabulary.ts'

export const BatchView = Type.Object({
  batch_uuid: Type.String(),
  recibido_en: Type.String(),
  estado: Type.Union([Type.Literal('received'), Type.Literal('processed'), Type.Literal('failed')]),
  facturas: Type.Integer(),
  http_status: Type.Union([Type.Integer(), Type.Null()]),
  resumen: Type.Unknown({ description: 'El resumen que se respondió, o null' }),
  fallo: Type.Union([Type.String(), Type.Null()]),
  terminado_en: Type.Union([Type.String(), Type.Null()]),
  ip: Type.String(),
  clave: Type.String({ description: 'Huella de la ApiKey usada (nunca la clave)' }),
  manifiestos: Type.Array(Type.String(), {
    description: 'Los manifiestos de las facturas que trajo (insertó) de sus almacenes, por número',
  }),
  facturas_de_sus_almacenes: Type.Integer({
    minimum: 0,
    description: 'Cuántas de las facturas que trajo son de sus almacenes',
  }),
  cuerpo: Type.Object({
    guardado: Type.Boolean(),
    bytes: Type.Union([Type.Integer(), Type.Null()]),
    eliminado_en: Type.Union([Type.String(), Type.Null()], { description: 'Cuándo lo eliminó la regla de retención' }),
  }),
})
export type BatchView = Static<typeof BatchView>

export const BatchListQuery = Type.Object({
  fecha: Type.Optional(LocalDate('Día de recepción, YYYY-MM-DD, hora de Honduras (por defecto hoy)')),
})

export const BatchParams = Type.Object({
  uuid: Type.String({
    pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
    description: 'batch_uuid',
  }),
})
