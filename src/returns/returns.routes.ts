import Type from 'typebox'
import { defineRoute, type Route } from '../http/route.ts'
import { errorResponse } from '../http/schemas.ts'
import { EXPORT_CONTENT_TYPES, exportReturns, exportSupplierWorkbook } from './export.service.ts'
import {
  BulkApproval,
  BulkApprovalBody,
  ReasonBody,
  RegisterReturnBody,
  RETURN_EXPORT_LIMIT,
  RETURN_PAGE_SIZE,
  ReturnExportQuery,
  ReturnIdParams,
  ReturnListItem,
  ReturnPage,
  ReturnsQuery,
  ReturnView,
} from './returns.schemas.ts'
import { getReturnDetail, listReturnPage, listReturns, type ReturnsDeps } from './returns.service.ts'
import { registerReturn } from './return-registration.service.ts'
import { approveReturn, approveReturns, cancelReturn, rejectReturn } from './return-transitions.service.ts'

const TAG = 'operador: devoluciones'
const notFoundReturn = (raw: Record<string, string>) => `No existe la devolución ${raw.id ?? ''}.`
const transitionErrors = {
  404: errorResponse('No existe la devolución'),
  422: errorResponse('Transición imposible, falta motivo o falta el encabezado Operador'),
}

export function returnRoutes(deps: ReturnsDeps): Route[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/operador/devoluciones',
      access: 'operator',
      operationId: 'registrarDevolucion',
      rateGroup: 'operator',
      right: 'registrar_devolucion',
      tag: TAG,
      summary: 'Registra una devolución (y la aprueba si aprobar es true)',
      body: { description: 'La devolución', schema: RegisterReturnBody },
      responses: {
        201: { description: 'Devolución registrada', schema: ReturnView },
        422: errorResponse('Regla de devoluciones incumplida; nada se escribió'),
      },
      handle: ({ actor, body }) => ({ status: 201, body: registerReturn(deps, actor, body) }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/devoluciones',
      access: 'operator',
      operationId: 'listarDevolucionesOperador',
      rateGroup: 'operator',
      right: 'leer',
      tag: TAG,
      summary:
        'Devoluciones por fecha de registro, estado, factura, cliente, manifiesto y almacén; paginadas con pagina',
      description:
        'fecha: un día de registro; desde/hasta: un rango de días de registro (incluidos); procesadas_desde/procesadas_hasta: un rango de días de proceso (aprobación), la fecha con que las lista el proveedor. ' +
        'buscar: palabras del número de factura, del nombre o código del cliente, del RTN, de la ruta o del número de manifiesto, sin distinguir mayúsculas ni acentos, en cualquier orden y cada una incompleta si se quiere. ' +
        `Sin pagina: el arreglo completo, por id (como siempre). Con pagina: un objeto {pagina, por_pagina, total, hay_mas, devoluciones, totales}, ${RETURN_PAGE_SIZE} por página, las más recientes primero (u ordenadas por total o fecha con orden), y en cada devolución además clienteid, cliente y almacen.`,
      query: ReturnsQuery,
      responses: {
        200: {
          description: 'Sin pagina: arreglo de devoluciones por id. Con pagina: una página de devoluciones',
          schema: Type.Union([Type.Array(ReturnView), ReturnPage]),
        },
      },
      handle: ({ actor, query }) => {
        const { pagina } = query
        return {
          status: 200,
          body:
            pagina === undefined ? listReturns(deps, actor, query) : listReturnPage(deps, actor, { ...query, pagina }),
        }
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/operador/devoluciones/aprobar',
      access: 'operator',
      operationId: 'aprobarDevoluciones',
      rateGroup: 'operator',
      right: 'decidir_devolucion',
      tag: TAG,
      summary: 'Aprueba juntas varias devoluciones pendientes: todas o ninguna',
      description:
        'Cada una queda aprobada y auditada como con POST devoluciones/{id}/aprobar, en una sola transacción. ' +
        'Si una no se puede aprobar (repetida, inexistente, de otro almacén o no pendiente) responde 422 nombrándola (campo devolucion) y no aprueba ninguna.',
      body: { description: 'Los ids de las devoluciones', schema: BulkApprovalBody },
      responses: {
        200: { description: 'Devoluciones aprobadas, en el orden pedido', schema: BulkApproval },
        422: errorResponse(
          'Una devolución de la selección no se puede aprobar (la nombra el mensaje y el campo devolucion); nada se escribió',
        ),
      },
      handle: ({ actor, body }) => ({ status: 200, body: approveReturns(deps, actor, body.ids) }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/devoluciones/exportar',
      access: 'operator',
      operationId: 'exportarDevoluciones',
      rateGroup: 'operator',
      right: 'leer',
      tag: TAG,
      summary:
        'Descarga las devoluciones de la lista, con sus líneas, en CSV o XLSX, o el libro de devoluciones del proveedor',
      description:
        'Los mismos filtros que GET devoluciones, sin páginas: una fila por línea de devolución, por id y línea. ' +
        'csv: UTF-8 con BOM, separado por comas, punto decimal, fin de línea CRLF. xlsx: una hoja Devoluciones. ' +
        'proveedor: el libro que lee el sistema del proveedor ("71 columnas"): una hoja Devoluciones, una fila por línea devuelta con el encabezado de su factura repetido ' +
        '(los campos tal como el proveedor los envió), sus 71 columnas en su orden y ortografía, 0.0000 en importes y cantidades; ' +
        'sin estado trae solo las aprobadas (otro estado, si se pide); para el mes del proveedor, procesadas_desde y procesadas_hasta (la fecha con que las lista). ' +
        `Nombre del archivo: devoluciones-AAAA-MM-DD.csv o .xlsx, o devoluciones-proveedor-AAAA-MM-DD.xlsx (hoy). A lo sumo ${RETURN_EXPORT_LIMIT} devoluciones por exportación.`,
      query: ReturnExportQuery,
      responses: {
        200: {
          description: 'El archivo, como adjunto',
          mediaTypes: [EXPORT_CONTENT_TYPES.csv, EXPORT_CONTENT_TYPES.xlsx],
          headers: {
            'Content-Disposition':
              'attachment; filename="devoluciones-AAAA-MM-DD.csv" (o .xlsx, o devoluciones-proveedor-AAAA-MM-DD.xlsx), con la fecha de hoy',
          },
        },
        422: errorResponse(`Parámetro inválido, o más de ${RETURN_EXPORT_LIMIT} devoluciones: acote las fechas`),
      },
      handle: async ({ actor, query }) => {
        const { formato, ...filters } = query
        const file =
          formato === 'proveedor'
            ? await exportSupplierWorkbook(deps, actor, filters)
            : await exportReturns(deps, actor, formato, filters)
        return {
          status: 200,
          bytes: file.bytes,
          contentType: file.contentType,
          headers: { 'Content-Disposition': `attachment; filename="${file.fileName}"`, 'Cache-Control': 'no-store' },
        }
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/devoluciones/:id',
      access: 'operator',
      operationId: 'obtenerDevolucion',
      rateGroup: 'operator',
      right: 'leer',
      tag: TAG,
      summary: 'Una devolución, con el cliente y el almacén de su factura',
      params: ReturnIdParams,
      paramsNotFound: notFoundReturn,
      responses: {
        200: { description: 'La devolución', schema: ReturnListItem },
        404: errorResponse('No existe la devolución'),
      },
      handle: ({ actor, params }) => ({ status: 200, body: getReturnDetail(deps, actor, params.id) }),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/operador/devoluciones/:id/aprobar',
      access: 'operator',
      operationId: 'aprobarDevolucion',
      rateGroup: 'operator',
      right: 'decidir_devolucion',
      tag: TAG,
      summary: 'Aprueba una devolución pendiente (fecha y hora de proceso: ahora)',
      params: ReturnIdParams,
      paramsNotFound: notFoundReturn,
      responses: { 200: { description: 'Devolución aprobada', schema: ReturnView }, ...transitionErrors },
      handle: ({ actor, params }) => ({ status: 200, body: approveReturn(deps, actor, params.id) }),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/operador/devoluciones/:id/rechazar',
      access: 'operator',
      operationId: 'rechazarDevolucion',
      rateGroup: 'operator',
      right: 'decidir_devolucion',
      tag: TAG,
      summary: 'Rechaza una devolución pendiente',
      params: ReturnIdParams,
      paramsNotFound: notFoundReturn,
      body: { description: 'El motivo del rechazo', schema: ReasonBody },
      responses: { 200: { description: 'Devolución rechazada', schema: ReturnView }, ...transitionErrors },
      handle: ({ actor, params, body }) => ({ status: 200, body: rejectReturn(deps, actor, params.id, body.motivo) }),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/operador/devoluciones/:id/anular',
      access: 'operator',
      operationId: 'anularDevolucion',
      rateGroup: 'operator',
      right: 'decidir_devolucion',
      tag: TAG,
      summary: 'Anula una devolución aprobada (sale del listado del cliente)',
      params: ReturnIdParams,
      paramsNotFound: notFoundReturn,
      body: { description: 'El motivo de la anulación', schema: ReasonBody },
      responses: { 200: { description: 'Devolución anulada', schema: ReturnView }, ...transitionErrors },
      handle: ({ actor, params, body }) => ({ status: 200, body: cancelReturn(deps, actor, params.id, body.motivo) }),
    }),
  ]
}
