import Type from 'typebox'
import { DayMonthYear, Page } from '../schemas/vocabulary.ts'

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
      cantidad: Type.Number({
        description:
          '6 decimales fijos. Contrato v1: cajas en líneas CJ, unidades en las demás; contrato v2: siempre unidades (cajas × FactorConversion + unidades)',
      }),
      numeroLinea: Type.String(),
      lineTotal: Type.Number({ description: '6 decimales fijos' }),
    }),
  ),
})

export const ListingHeaders = Type.Object({
  Fecha: DayMonthYear(
    'dd/MM/yyyy. Contrato v1: el día en que se procesaron (aprobaron) las devoluciones; contrato v2: el día de emisión de la factura (FechaFactura). Primer día del rango si se envía FechaHasta',
  ),
  FechaHasta: Type.Optional(
    DayMonthYear(
      'dd/MM/yyyy, opcional: último día (incluido) de un rango desde Fecha; sin FechaHasta, solo el día de Fecha. No anterior a Fecha; a lo sumo returns.listing.maxRangeDays días (31 por defecto)',
    ),
  ),
})

export const ListingQuery = Type.Object({
  pagina: Type.Optional(Page('Página, entero ≥ 1 (1000 devoluciones por página); por defecto 1')),
})
