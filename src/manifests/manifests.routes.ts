import Type from 'typebox'
import { defineRoute, type Route } from '../http/route.ts'
import { errorResponse } from '../http/schemas.ts'
import {
  CloseBody,
  ExtendDeadlineBody,
  ManifestAnyNumberParams,
  MANIFEST_INVOICE_PAGE_SIZE,
  MANIFEST_PAGE_SIZE,
  ManifestDetail,
  ManifestExportQuery,
  ManifestInvoicePage,
  ManifestInvoiceQuery,
  ManifestListQuery,
  ManifestPage,
  ManifestNumberParams,
  ManifestStatus,
  ManifestView,
  ReopenBody,
} from './manifests.schemas.ts'
import { getManifestStatus, listManifests, manifestNotFoundMessage, type ManifestDeps } from './manifests.service.ts'
import { getManifestDetail, listManifestInvoices } from './manifest-invoices.service.ts'
import { closeManifest, extendReturnsDeadline, reopenManifest } from './manifest-changes.service.ts'
import { exportManifests, MANIFEST_EXPORT_LIMIT } from './manifests.export.ts'
import { EXPORT_CONTENT_TYPES } from '../returns/export.service.ts'

export function manifestRoutes(deps: ManifestDeps): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/manifiestos/:numero/estado',
      access: 'client',
      operationId: 'obtenerEstadoManifiesto',
      rateGroup: 'general',
      tag: 'cliente: manifiestos',
      summary: 'Estado y resumen de un manifiesto',
      params: ManifestNumberParams,
      paramsNotFound: (raw) => manifestNotFoundMessage(raw.numero ?? ''),
      responses: {
        200: {
          description: 'Estado del manifiesto',
          schema: ManifestStatus,
          examples: {
            importado: {
              summary: 'El manifiesto del lote de ejemplo',
              value: {
                success: true,
                manifiesto: '905112',
                estado: 'imported',
                resumen: { total_facturas: 2, total_importe: 2489.15, fecha_ingreso: '2026-11-22 10:00:00' },
              },
            },
          },
        },
        404: {
          ...errorResponse('El manifiesto no existe (o el número no es solo dígitos)'),
          examples: {
            desconocido: {
              summary: 'Un número que no se ha recibido',
              value: { success: false, message: manifestNotFoundMessage('999') },
            },
          },
        },
      },
      handle: ({ params }) => ({ status: 200, body: getManifestStatus(deps, params.numero) }),
    }),
  ]
}

const TAG = 'operador: manifiestos'
const notFoundAnswer = errorResponse('No existe el manifiesto')

export function manifestOperatorRoutes(deps: ManifestDeps): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/manifiestos',
      access: 'operator',
      operationId: 'listarManifiestos',
      rateGroup: 'operator',
      right: 'leer',
      tag: TAG,
      summary: 'Manifiestos por estado, fecha de ingreso, número y almacén; paginados con pagina',
      description:
        'numero: comienzo del número (9051 encuentra 905112). almacen: solo manifiestos con facturas de ese almacén, contando solo esas. ' +
        `Sin pagina: el arreglo completo, por fecha de ingreso (como siempre). Con pagina: un objeto {pagina, por_pagina, total, hay_mas, manifiestos}, ` +
        `${MANIFEST_PAGE_SIZE} por página, los más recientes primero, y en cada manifiesto además conflictos_pendientes y almacenes.`,
      query: ManifestListQuery,
      responses: {
        200: {
          description: 'Sin pagina: arreglo de manifiestos por fecha de ingreso. Con pagina: una página de manifiestos',
          schema: Type.Union([Type.Array(ManifestView), ManifestPage]),
        },
      },
      handle: ({ actor, query }) => ({ status: 200, body: listManifests(deps, actor, query) }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/manifiestos/exportar',
      access: 'operator',
      operationId: 'exportarManifiestos',
      rateGroup: 'operator',
      right: 'leer',
      tag: TAG,
      summary: 'Descarga los manifiestos de la lista, con su dinero, en CSV o XLSX',
      description:
        'Los mismos filtros que GET manifiestos, sin páginas: una fila por manifiesto (por fecha de ingreso, u orden) con facturas, facturado, devuelto, a depositar, ' +
        'depositado, ajustes y diferencia de sus almacenes, y una fila de totales. csv: UTF-8 con BOM, separado por comas, punto decimal, fin de línea CRLF. ' +
        `xlsx: una hoja Manifiestos, fechas como fechas, importes como números, encabezado fijo. A lo sumo ${MANIFEST_EXPORT_LIMIT} manifiestos por exportación.`,
      query: ManifestExportQuery,
      responses: {
        200: {
          description: 'El archivo, como adjunto',
          mediaTypes: [EXPORT_CONTENT_TYPES.csv, EXPORT_CONTENT_TYPES.xlsx],
          headers: {
            'Content-Disposition': 'attachment; filename="manifiestos-AAAA-MM-DD.csv" (o .xlsx), con la fecha de hoy',
          },
        },
        422: errorResponse(`Parámetro inválido, o más de ${MANIFEST_EXPORT_LIMIT} manifiestos: acote las fechas`),
      },
      handle: async ({ actor, query }) => {
        const { formato, ...filters } = query
        const file = await exportManifests(deps, actor, formato, filters)
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
      path: '/api/v1/operador/manifiestos/:numero',
      access: 'operator',
      operationId: 'obtenerManifiesto',
      rateGroup: 'operator',
      right: 'leer',
      tag: TAG,
      summary: 'Un manifiesto con sus facturas',
      params: ManifestAnyNumberParams,
      responses: { 200: { description: 'El manifiesto', schema: ManifestDetail }, 404: notFoundAnswer },
      handle: ({ actor, params }) => ({ status: 200, body: getManifestDetail(deps, actor, params.numero) }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/manifiestos/:numero/facturas',
      access: 'operator',
      operationId: 'listarFacturasManifiesto',
      rateGroup: 'operator',
      right: 'leer',
      tag: TAG,
      summary: 'Las facturas de un manifiesto: búsqueda por factura, cliente o ruta, filtro por almacén, paginadas',
      description:
        'buscar: palabras del número de factura (o su último grupo de dígitos sin ceros), del nombre o código del cliente, del RTN o de la ruta, sin distinguir mayúsculas ni acentos, en cualquier orden, cada una incompleta si se quiere. orden: total o fecha (con - de mayor a menor). totales: las sumas de lo filtrado. ' +
        `${MANIFEST_INVOICE_PAGE_SIZE} facturas por página, en el orden en que llegaron. El encabezado del manifiesto (totales, plazo) está en GET manifiestos/{numero}; su historia en GET auditoria?tipo=manifiesto&sujeto={numero}.`,
      params: ManifestAnyNumberParams,
      query: ManifestInvoiceQuery,
      responses: { 200: { description: 'Una página de facturas', schema: ManifestInvoicePage }, 404: notFoundAnswer },
      handle: ({ actor, params, query }) => ({
        status: 200,
        body: listManifestInvoices(deps, actor, params.numero, query),
      }),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/operador/manifiestos/:numero/cerrar',
      access: 'operator',
      operationId: 'cerrarManifiesto',
      rateGroup: 'operator',
      right: 'cerrar_manifiesto',
      tag: TAG,
      summary: 'Cierra un manifiesto: no acepta más facturas ni devoluciones',
      params: ManifestAnyNumberParams,
      body: { description: 'Motivo opcional', schema: CloseBody },
      responses: {
        200: { description: 'Manifiesto cerrado', schema: ManifestView },
        403: errorResponse(
          'Su rol no permite cerrar manifiestos, o el manifiesto tiene facturas de almacenes que no son suyos',
        ),
        404: notFoundAnswer,
        422: errorResponse('Ya está cerrado'),
      },
      handle: ({ actor, params, body }) => ({
        status: 200,
        body: closeManifest(deps, actor, params.numero, body.motivo),
      }),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/operador/manifiestos/:numero/reabrir',
      access: 'operator',
      operationId: 'reabrirManifiesto',
      rateGroup: 'operator',
      right: 'cerrar_manifiesto',
      tag: TAG,
      summary: 'Reabre un manifiesto cerrado (motivo obligatorio)',
      params: ManifestAnyNumberParams,
      body: { description: 'Por qué se reabre', schema: ReopenBody },
      responses: {
        200: { description: 'Manifiesto reabierto', schema: ManifestView },
        403: errorResponse(
          'Su rol no permite reabrir manifiestos, o el manifiesto tiene facturas de almacenes que no son suyos',
        ),
        404: notFoundAnswer,
        422: errorResponse('No está cerrado, o falta motivo'),
      },
      handle: ({ actor, params, body }) => ({
        status: 200,
        body: reopenManifest(deps, actor, params.numero, body.motivo),
      }),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/operador/manifiestos/:numero/plazo',
      access: 'operator',
      operationId: 'ampliarPlazoDevoluciones',
      rateGroup: 'operator',
      right: 'cerrar_manifiesto',
      tag: TAG,
      summary: 'Amplía el plazo de devoluciones de un manifiesto hasta las 23:59:59 de una fecha (supervisor)',
      description:
        'hasta: un día hábil (lunes a sábado, sin feriados), posterior al plazo actual, desde hoy y a lo sumo 90 días después. ' +
        'Un manifiesto sin plazo admite devoluciones sin límite: no se amplía. Queda en la auditoría con el motivo.',
      params: ManifestAnyNumberParams,
      body: { description: 'Nuevo último día y motivo', schema: ExtendDeadlineBody },
      responses: {
        200: { description: 'Plazo ampliado', schema: ManifestView },
        403: errorResponse(
          'Su rol no permite cambiar el plazo, o el manifiesto tiene facturas de almacenes que no son suyos',
        ),
        404: notFoundAnswer,
        422: errorResponse(
          'El manifiesto no tiene plazo; hasta no es posterior al plazo, ya pasó, no es día hábil o está a más de 90 días; falta motivo u Operador',
        ),
      },
      handle: ({ actor, params, body }) => ({
        status: 200,
        body: extendReturnsDeadline(deps, actor, params.numero, body.hasta, body.motivo),
      }),
    }),
  ]
}
