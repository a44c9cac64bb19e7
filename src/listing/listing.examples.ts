import type { Examples } from '../http/route.ts'

/**
 * The listing's examples for the API reference, from test/returns/listing.test.ts's real answer.
 * JSON numbers cannot carry the six fixed decimals the service writes (1310.640000): the
 * reference shows them shortened.
 */
export const LISTING_200: Examples = {
  devoluciones: {
    summary: 'Una devolución aprobada el 22/11/2026 (el servicio escribe los números con 6 decimales fijos)',
    value: [
      {
        devolucion: '1',
        factura: '001-001-01-00912001',
        clienteid: '40112233',
        cliente: 'PULPERIA LA ESPERANZA',
        fecha: '2026-11-22T09:30:00',
        total: 1310.64,
        almacen: 'OAC',
        idConcepto: '7',
        concepto: 'Producto dañado',
        numeroManifiesto: '905112',
        fechaProcesado: '2026-11-22T00:00:00',
        horaProcesado: '10:00:00',
        lineasDevolucion: [
          {
            productoId: '30110205',
            producto: 'ACEITE VEGETAL 410 mL 1/24',
            cantidad: 5,
            numeroLinea: '1',
            lineTotal: 179.4,
          },
          {
            productoId: '81800012',
            producto: 'SALSA DE TOMATE 8X12X87GR',
            cantidad: 1,
            numeroLinea: '2',
            lineTotal: 738.39,
          },
          {
            productoId: '52480038',
            producto: 'JABON LIMON 115GRX72',
            cantidad: 1.138889,
            numeroLinea: '3',
            lineTotal: 392.85,
          },
        ],
      },
    ],
  },
  vacia: { summary: 'Ninguna devolución procesada en esa fecha (o página después de la última)', value: [] },
}
