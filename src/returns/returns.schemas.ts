import Type from 'typebox'

const Count = Type.Integer({ minimum: 0, maximum: 1_000_000 })

export const RegisterReturnBody = Type.Object(
  {
    factura: Type.String({ minLength: 1, maxLength: 100, description: 'Nfactura' }),
    concepto: Type.String({ minLength: 1, maxLength: 40, description: 'Código de un concepto activo' }),
    fecha: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}:\\d{2})?$', description: 'YYYY-MM-DDTHH:mm:ss (hora local) o YYYY-MM-DD (= medianoche)' }),
    lineas: Type.Array(
      Type.Object(
        {
          numeroLinea: Type.Integer({ minimum: 0 }),
          cajas: Type.Optional(Count),
          unidades: Type.Optional(Count),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 1000 },
    ),
    aprobar: Type.Optional(Type.Boolean({ description: 'true: registra y aprueba a la vez' })),
  },
  { additionalProperties: false },
)

export const ReasonBody = Type.Object({ motivo: Type.String({ minLength: 1, maxLength: 500 }) }, { additionalProperties: false })

export const ReturnIdParams = Type.Object({ id: Type.String({ pattern: '^[1-9][0-9]{0,15}$' }) })

export const ReturnState = Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected'), Type.Literal('cancelled')])

export const ReturnsQuery = Type.Object(
  {
    fecha: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'Fecha de registro, YYYY-MM-DD' })),
    estado: Type.Optional(ReturnState),
  },
  { additionalProperties: false },
)

export const ReturnView = Type.Object({
  id: Type.String(),
  factura: Type.String(),
  manifiesto: Type.String(),
  concepto: Type.String(),
  conceptoDescripcion: Type.String(),
  fecha: Type.String({ description: 'YYYY-MM-DDTHH:mm:ss' }),
  estado: ReturnState,
  total: Type.Number(),
  fechaProcesado: Type.Union([Type.String(), Type.Null()]),
  horaProcesado: Type.Union([Type.String(), Type.Null()]),
  registradaPor: Type.String(),
  registradaEn: Type.String({ description: 'YYYY-MM-DD HH:mm:ss, hora de Honduras' }),
  aprobadaPor: Type.Union([Type.String(), Type.Null()]),
  cerradaPor: Type.Union([Type.String(), Type.Null()], { description: 'Quien la rechazó o anuló' }),
  motivo: Type.Union([Type.String(), Type.Null()], { description: 'Motivo del rechazo o la anulación' }),
  lineas: Type.Array(
    Type.Object({
      numeroLinea: Type.Integer(),
      productoId: Type.String(),
      producto: Type.String(),
      uniVenta: Type.Union([Type.String(), Type.Null()]),
      unidades: Type.Number(),
      cantidad: Type.Number({ description: 'Cajas en líneas CJ, si no unidades' }),
      lineTotal: Type.Number(),
    }),
  ),
})

/** The client's listing (interface-v1 §2.3): numbers marked 6 fixed decimals are written so. */
export const ListedReturn = Type.Object({
  devolucion: Type.String(),
  factura: Type.String(),
  clienteid: Type.String(),
  cliente: Type.String(),
  fecha: Type.Union([Type.String(), Type.Null()], { description: 'YYYY-MM-DDTHH:mm:ss' }),
  total: Type.Number({ description: '6 decimales fijos' }),
  almacen: Type.String(),
  idConcepto: Type.String(),
  concepto: Type.String(),
  numeroManifiesto: Type.String(),
  fechaProcesado: Type.Union([Type.String(), Type.Null()], { description: 'YYYY-MM-DDT00:00:00' }),
  horaProcesado: Type.Union([Type.String(), Type.Null()], { description: 'HH:mm:ss' }),
  lineasDevolucion: Type.Array(
    Type.Object({
      productoId: Type.String(),
      producto: Type.String(),
      cantidad: Type.Number({ description: '6 decimales fijos; cajas en líneas CJ, unidades en las demás' }),
      numeroLinea: Type.String(),
      lineTotal: Type.Number({ description: '6 decimales fijos' }),
    }),
  ),
})

export const ListingHeaders = Type.Object({
  Fecha: Type.String({ description: 'Fecha de procesamiento, dd/MM/yyyy' }),
})

export const ListingQuery = Type.Object({
  pagina: Type.Optional(Type.String({ description: 'Página, entero ≥ 1 (1000 devoluciones por página); por defecto 1' })),
})
