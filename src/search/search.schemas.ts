import Type, { type Static } from 'typebox'
import { SearchText } from '../schemas/vocabulary.ts'

export const SEARCH_LIMIT = 8
export const SEARCH_MAX_LIMIT = 50

export const SearchQuery = Type.Object(
  {
    q: SearchText(
      'Lo que se busca: número de factura (o su final sin ceros, 912001), nombre o código del cliente, RTN, ruta o número de manifiesto. ' +
        'Sin distinguir mayúsculas ni acentos, en cualquier orden, cada palabra puede ir incompleta ("mejia espin")',
    ),
    limite: Type.Optional(
      Type.Decode(
        Type.String({
          pattern: '^[1-9][0-9]?$',
          description: `Resultados por grupo, de 1 a ${SEARCH_MAX_LIMIT} (por defecto ${SEARCH_LIMIT})`,
          errorMessage: `un entero de 1 a ${SEARCH_MAX_LIMIT}`,
        }),
        (text) => Math.min(Number(text), SEARCH_MAX_LIMIT),
      ),
    ),
  },
  { additionalProperties: false },
)

const Group = <T extends Parameters<typeof Type.Array>[0]>(item: T, description: string) =>
  Type.Object(
    {
      resultados: Type.Array(item),
      hay_mas: Type.Boolean({ description: 'true: hay más resultados que los listados; afine la búsqueda' }),
    },
    { description },
  )

export const InvoiceHit = Type.Object({
  factura: Type.String(),
  cliente: Type.String(),
  clienteid: Type.String(),
  almacen: Type.String(),
  manifiesto: Type.String(),
  manifiesto_estado: Type.Union([Type.Literal('imported'), Type.Literal('closed')]),
  fecha_factura: Type.String({ description: 'YYYY-MM-DD' }),
  total: Type.Number(),
  anulada: Type.Boolean({ description: 'Anulada como re-emisión' }),
})

export const ManifestHit = Type.Object({
  numero: Type.String(),
  estado: Type.Union([Type.Literal('imported'), Type.Literal('closed')]),
  fecha_ingreso: Type.String({ description: 'YYYY-MM-DD HH:mm:ss, hora de Honduras' }),
  total_facturas: Type.Integer({ minimum: 0, description: 'De sus almacenes' }),
  total_importe: Type.Number({ description: 'De sus almacenes' }),
})

export const ReturnHit = Type.Object({
  id: Type.String(),
  factura: Type.String(),
  cliente: Type.String(),
  manifiesto: Type.String(),
  estado: Type.Union([
    Type.Literal('pending'),
    Type.Literal('approved'),
    Type.Literal('rejected'),
    Type.Literal('cancelled'),
  ]),
  fecha: Type.String({ description: 'YYYY-MM-DDTHH:mm:ss' }),
  total: Type.Number(),
})

export const SearchAnswer = Type.Object({
  q: Type.String({ description: 'La búsqueda como se entendió: sus palabras sin mayúsculas ni acentos' }),
  facturas: Group(InvoiceHit, 'Facturas de sus almacenes, la de número exacto primero y luego las más recientes'),
  manifiestos: Group(
    ManifestHit,
    'Manifiestos cuyo número empieza con lo buscado (solo si se buscó un número), los más recientes primero',
  ),
  devoluciones: Group(ReturnHit, 'Devoluciones de las facturas encontradas (o con ese id), las más recientes primero'),
})
export type SearchAnswer = Static<typeof SearchAnswer>
export type InvoiceHit = Static<typeof InvoiceHit>
export type ReturnHit = Static<typeof ReturnHit>
