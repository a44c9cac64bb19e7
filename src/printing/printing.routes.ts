import { defineRoute, type Route } from '../http/route.ts'
import { errorResponse } from '../http/schemas.ts'
import { ManifestNumberParams } from '../manifests/manifests.schemas.ts'
import { manifestNotFoundMessage } from '../manifests/manifests.service.ts'
import {
  InvoicePrintParams,
  ManifestPrint,
  ManifestPrintQuery,
  MarkedPrints,
  MarkPrintedBody,
  MAX_MARKED,
  MAX_PRODUCT_DAYS,
  PrintInvoice,
  ProductReport,
  ProductsQuery,
} from './printing.schemas.ts'
import { getInvoicePrint, getManifestPrint, markPrinted, type PrintingDeps } from './printing.service.ts'
import { getProductReport } from './products.service.ts'

const TAG = 'operador: impresión'

/** What the console's print views read (issue 42), and the mark of a printed invoice. */
export function printingRoutes(deps: PrintingDeps): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/manifiestos/:numero/impresion',
      access: 'operator',
      operationId: 'imprimirManifiesto',
      rateGroup: 'operator',
      right: 'leer',
      tag: TAG,
      summary:
        'Las facturas de un manifiesto como se imprimen: hoja de ruta y facturas, en orden de ruta, en una respuesta',
      description:
        'Cada factura de sus almacenes (o del almacen pedido) con los campos que imprime el papel tal como los envió el proveedor (CAI, rango autorizado, ' +
        'FechaLimImpre, vendedor, importes exento, exonerado y gravado, ISV, descuentos), sus líneas con cajas y unidades, y si ya se imprimió (la próxima dirá COPIA). ' +
        'Orden: NumeroRuta (los números como números), luego Nfactura. Las anuladas vienen marcadas (anulada).',
      params: ManifestNumberParams,
      paramsNotFound: (raw) => manifestNotFoundMessage(raw.numero ?? ''),
      query: ManifestPrintQuery,
      responses: {
        200: { description: 'El manifiesto con sus facturas para imprimir', schema: ManifestPrint },
        404: errorResponse('No existe el manifiesto, o no tiene facturas de sus almacenes'),
      },
      handle: ({ actor, params, query }) => ({
        status: 200,
        body: getManifestPrint(deps, actor, params.numero, query.almacen),
      }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/facturas/:nfactura/impresion',
      access: 'operator',
      operationId: 'imprimirFactura',
      rateGroup: 'operator',
      right: 'leer',
      tag: TAG,
      summary: 'Una factura como se imprime: los campos del proveedor, sus líneas y si ya se imprimió',
      params: InvoicePrintParams,
      responses: {
        200: { description: 'La factura para imprimir', schema: PrintInvoice },
        404: errorResponse('No existe la factura'),
      },
      handle: ({ actor, params }) => ({ status: 200, body: getInvoicePrint(deps, actor, params.nfactura) }),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/operador/impresiones',
      access: 'operator',
      operationId: 'marcarImpresas',
      rateGroup: 'operator',
      right: 'leer',
      tag: TAG,
      summary:
        'Marca facturas como impresas ahora, por usted: la primera vez es el original, las siguientes son copias',
      description: `De 1 a ${MAX_MARKED} facturas de sus almacenes, todas o ninguna; cada impresión queda en la auditoría (factura.impresa o factura.reimpresa).`,
      body: { description: 'Las facturas que se imprimen', schema: MarkPrintedBody },
      responses: {
        200: { description: 'Cada factura con su marca; copia: true si ya se había impreso', schema: MarkedPrints },
        404: errorResponse('Una factura no existe o es de otro almacén (se nombra la primera)'),
        422: errorResponse('Cuerpo inválido, una factura repetida o una anulada'),
      },
      handle: ({ actor, body }) => ({ status: 200, body: markPrinted(deps, actor, body.facturas) }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/productos',
      access: 'operator',
      operationId: 'listarProductos',
      rateGroup: 'operator',
      right: 'leer',
      tag: TAG,
      summary:
        'Los productos de un manifiesto o de los manifiestos ingresados en un rango de fechas, con cajas, unidades e importe',
      description: `manifiesto, o desde y hasta (a lo sumo ${MAX_PRODUCT_DAYS} días); almacen acota a uno de los suyos. Las facturas anuladas no cuentan.`,
      query: ProductsQuery,
      responses: {
        200: { description: 'Un renglón por producto, con los totales', schema: ProductReport },
        404: errorResponse('No existe el manifiesto'),
        422: errorResponse('Ni manifiesto ni rango, ambos, o un rango inválido'),
      },
      handle: ({ actor, query }) => ({ status: 200, body: getProductReport(deps, actor, query) }),
    }),
  ]
}
