import Type from 'typebox'
import { defineRoute, type Route } from '../http/route.ts'
import { errorResponse } from '../http/schemas.ts'
import { EXPORT_CONTENT_TYPES } from '../returns/export.service.ts'
import { listAdjustments, registerAdjustment } from './adjustments.service.ts'
import { exportDeposits } from './deposits.export.ts'
import {
  cancelDeposit,
  changeDeposit,
  getDeposit,
  listDeposits,
  listManifestDeposits,
  registerDeposit,
} from './deposits.service.ts'
import { RECEIPT_TYPES } from './receipt-file.ts'
import { getReceipt, maxReceiptBytes, storeReceipt } from './receipts.service.ts'
import {
  AdjustmentView,
  CancelDepositBody,
  DEPOSIT_EXPORT_LIMIT,
  DEPOSIT_PAGE_SIZE,
  DepositChangeBody,
  DepositExportQuery,
  DepositIdParams,
  DepositListQuery,
  DepositPage,
  DepositView,
  NewAdjustmentBody,
  NewDepositBody,
  SettlementRules,
} from './settlement.schemas.ts'
import type { SettlementDeps } from './settlement.service.ts'

const TAG = 'operador: liquidación'
const ManifestParams = Type.Object({
  numero: Type.String({ minLength: 1, maxLength: 100, description: 'NumeroManifiesto' }),
})
const manifestMissing = errorResponse('No existe el manifiesto (o no tiene facturas de sus almacenes)')
const depositMissing = errorResponse('No existe el depósito (o es de un almacén que no es suyo)')
const noDeposit = (raw: Record<string, string>) => `No existe el depósito ${raw.id ?? ''}.`
const changeRefused = errorResponse(
  'Regla de la liquidación incumplida (monto, fecha, banco, boleta repetida, sobrepago sin justificación), manifiesto cerrado o depósito anulado; nada se escribió',
)

/** Deposits, their receipts and cent adjustments (issue 40); the settlement itself is shown with each manifest. */
export function settlementRoutes(deps: SettlementDeps): Route[] {
  const receiptLimit = maxReceiptBytes(deps.config)
  const { settlement } = deps.config
  const rules: SettlementRules = {
    bancos: [...settlement.banks],
    ajuste_maximo: settlement.maxAdjustment,
    comprobante_max_mb: settlement.maxReceiptMB,
    comprobantes_dias: settlement.receiptRetentionDays,
    cierre_exige_liquidacion: settlement.closeRequiresSettlement,
  }
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/liquidacion/reglas',
      access: 'operator',
      operationId: 'obtenerReglasLiquidacion',
      rateGroup: 'operator',
      right: 'leer',
      tag: TAG,
      summary:
        'Las reglas de la liquidación en este servidor: bancos, tope de los ajustes, peso de los comprobantes, si cerrar exige liquidar',
      responses: { 200: { description: 'Las reglas (de la configuración, settlement.*)', schema: SettlementRules } },
      handle: () => ({ status: 200, body: rules }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/manifiestos/:numero/depositos',
      access: 'operator',
      operationId: 'listarDepositosManifiesto',
      rateGroup: 'operator',
      right: 'ver_liquidacion',
      tag: TAG,
      summary:
        'Los depósitos de un manifiesto (de sus almacenes), activos y anulados, en el orden en que se registraron',
      description:
        'La liquidación (facturado, devuelto, a depositar, depositado, ajustes, diferencia por almacén) está en GET manifiestos/{numero}, campo liquidacion.',
      params: ManifestParams,
      responses: { 200: { description: 'Los depósitos', schema: Type.Array(DepositView) }, 404: manifestMissing },
      handle: ({ actor, params }) => ({ status: 200, body: listManifestDeposits(deps, actor, params.numero) }),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/operador/manifiestos/:numero/depositos',
      access: 'operator',
      operationId: 'registrarDeposito',
      rateGroup: 'operator',
      right: 'registrar_deposito',
      tag: TAG,
      summary: 'Registra un depósito bancario de una parte (almacén) de un manifiesto abierto',
      description:
        'almacen: obligatorio si usted ve facturas de más de un almacén en el manifiesto. monto > 0 con a lo sumo dos decimales. fecha: la de la boleta, ni futura ni anterior al ingreso del manifiesto. ' +
        'banco: uno de settlement.banks. referencia: el número de la boleta; el mismo banco y número en otro depósito activo se rechaza (422 que nombra el otro depósito y su manifiesto). ' +
        'justificacion (15 a 1,000 caracteres): obligatoria si el depósito deja lo depositado más los ajustes por encima de lo que hay que depositar. La foto de la boleta se sube después con PUT depositos/{id}/comprobante.',
      params: ManifestParams,
      body: {
        description: 'El depósito',
        schema: NewDepositBody,
        examples: {
          boleta: {
            summary: 'Una boleta de BAC',
            value: {
              almacen: 'OAC',
              monto: 2300.18,
              fecha: '2026-11-22',
              banco: 'BAC Credomatic',
              referencia: '000123456',
              notas: 'Depositó la ruta 3',
            },
          },
        },
      },
      responses: {
        201: { description: 'Depósito registrado', schema: DepositView },
        404: manifestMissing,
        422: changeRefused,
      },
      handle: ({ actor, params, body }) => ({ status: 201, body: registerDeposit(deps, actor, params.numero, body) }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/depositos',
      access: 'operator',
      operationId: 'listarDepositos',
      rateGroup: 'operator',
      right: 'ver_liquidacion',
      tag: TAG,
      summary: 'Depósitos por fecha de la boleta, banco, almacén y día de registro, con sus totales; paginados',
      description:
        `desde/hasta: fecha de la boleta (incluidas). registrado: el día en que se registraron. estado: active (por defecto) o cancelled; los anulados nunca se suman con los activos. ` +
        `${DEPOSIT_PAGE_SIZE} por página, la fecha más reciente primero; totales de todas las páginas, por banco y por almacén.`,
      query: DepositListQuery,
      responses: { 200: { description: 'Una página de depósitos con los totales', schema: DepositPage } },
      handle: ({ actor, query }) => ({ status: 200, body: listDeposits(deps, actor, query) }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/depositos/exportar',
      access: 'operator',
      operationId: 'exportarDepositos',
      rateGroup: 'operator',
      right: 'ver_liquidacion',
      tag: TAG,
      summary: 'Descarga los depósitos de la lista en CSV o XLSX',
      description:
        'Los mismos filtros que GET depositos, sin páginas: una fila por depósito y al final el total. csv: UTF-8 con BOM, separado por comas, punto decimal. xlsx: una hoja Depósitos. ' +
        `Nombre: depositos-AAAA-MM-DD.csv o .xlsx (hoy). A lo sumo ${DEPOSIT_EXPORT_LIMIT} depósitos por exportación.`,
      query: DepositExportQuery,
      responses: {
        200: {
          description: 'El archivo, como adjunto',
          mediaTypes: [EXPORT_CONTENT_TYPES.csv, EXPORT_CONTENT_TYPES.xlsx],
          headers: { 'Content-Disposition': 'attachment; filename="depositos-AAAA-MM-DD.csv" (o .xlsx)' },
        },
        422: errorResponse(`Parámetro inválido, o más de ${DEPOSIT_EXPORT_LIMIT} depósitos: acote las fechas`),
      },
      handle: async ({ actor, query }) => {
        const { formato, ...filters } = query
        const file = await exportDeposits(deps, actor, formato, filters)
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
      path: '/api/v1/operador/depositos/:id',
      access: 'operator',
      operationId: 'obtenerDeposito',
      rateGroup: 'operator',
      right: 'ver_liquidacion',
      tag: TAG,
      summary: 'Un depósito; su historia en GET auditoria?tipo=deposito&sujeto={id}',
      params: DepositIdParams,
      paramsNotFound: noDeposit,
      responses: { 200: { description: 'El depósito', schema: DepositView }, 404: depositMissing },
      handle: ({ actor, params }) => ({ status: 200, body: getDeposit(deps, actor, params.id) }),
    }),
    defineRoute({
      method: 'PUT',
      path: '/api/v1/operador/depositos/:id',
      access: 'operator',
      operationId: 'modificarDeposito',
      rateGroup: 'operator',
      right: 'registrar_deposito',
      tag: TAG,
      summary: 'Cambia un depósito activo de un manifiesto abierto (los campos que vengan)',
      description:
        'Las mismas reglas que al registrarlo; para la justificación, lo ya depositado se cuenta sin este depósito. null quita notas o justificacion. Queda en la auditoría con antes y después.',
      params: DepositIdParams,
      paramsNotFound: noDeposit,
      body: {
        description: 'Los campos que cambian',
        schema: DepositChangeBody,
        examples: { monto: { summary: 'Corrige el monto', value: { monto: 2300.18 } } },
      },
      responses: {
        200: { description: 'El depósito como quedó', schema: DepositView },
        404: depositMissing,
        422: changeRefused,
      },
      handle: ({ actor, params, body }) => ({ status: 200, body: changeDeposit(deps, actor, params.id, body) }),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/operador/depositos/:id/anular',
      access: 'operator',
      operationId: 'anularDeposito',
      rateGroup: 'operator',
      right: 'anular_deposito',
      tag: TAG,
      summary: 'Anula un depósito (deja de contar; nunca se borra); finanzas y el administrador',
      params: DepositIdParams,
      paramsNotFound: noDeposit,
      body: {
        description: 'Por qué se anula',
        schema: CancelDepositBody,
        examples: {
          duplicado: { summary: 'Se registró dos veces', value: { motivo: 'Boleta registrada dos veces por error' } },
        },
      },
      responses: {
        200: { description: 'Depósito anulado', schema: DepositView },
        404: depositMissing,
        422: errorResponse('Ya anulado, manifiesto cerrado o motivo de menos de 10 caracteres'),
      },
      handle: ({ actor, params, body }) => ({ status: 200, body: cancelDeposit(deps, actor, params.id, body) }),
    }),
    defineRoute({
      method: 'PUT',
      path: '/api/v1/operador/depositos/:id/comprobante',
      access: 'operator',
      operationId: 'subirComprobanteDeposito',
      rateGroup: 'operator',
      right: 'registrar_deposito',
      tag: TAG,
      summary: 'Sube (o reemplaza) la foto o el PDF de la boleta: el archivo es el cuerpo',
      description:
        `JPEG, PNG, WebP o PDF, reconocido por su contenido; a lo sumo settlement.maxReceiptMB (${deps.config.settlement.maxReceiptMB} MB). ` +
        'Si Content-Type o nombre (el nombre del archivo) dicen otro tipo que el contenido, se rechaza. Solo mientras el depósito esté activo y su manifiesto abierto. ' +
        'El archivo se guarda en la base de datos (viaja con las copias) y se elimina después de settlement.receiptRetentionDays días; el registro queda.',
      params: DepositIdParams,
      paramsNotFound: noDeposit,
      query: Type.Object(
        {
          nombre: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 200,
              description:
                'El nombre del archivo (boleta.jpg): si su extensión es de otro tipo que el contenido, se rechaza',
            }),
          ),
        },
        { additionalProperties: false },
      ),
      headers: Type.Object({
        'Content-Type': Type.Optional(
          Type.String({
            maxLength: 200,
            description: 'image/jpeg, image/png, image/webp, application/pdf o application/octet-stream',
          }),
        ),
      }),
      body: {
        description: 'El archivo de la boleta',
        schema: Type.String({ format: 'binary' }),
        raw: true,
        file: { maxBytes: 2 * receiptLimit, mediaTypes: RECEIPT_TYPES },
      },
      responses: {
        200: { description: 'El depósito con su comprobante', schema: DepositView },
        404: depositMissing,
        422: errorResponse(
          'Archivo vacío, más pesado que settlement.maxReceiptMB, que no es JPEG, PNG, WebP ni PDF, o que dice ser de otro tipo; depósito anulado o manifiesto cerrado. Nada se guardó',
        ),
      },
      handle: async ({ actor, params, query, headers, readBody }) => {
        const bytes = await readBody()
        return {
          status: 200,
          body: storeReceipt(deps, actor, params.id, {
            bytes: Buffer.from(bytes),
            declaredType: headers['Content-Type'],
            name: query.nombre,
          }),
        }
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/depositos/:id/comprobante',
      access: 'operator',
      operationId: 'obtenerComprobanteDeposito',
      rateGroup: 'operator',
      right: 'ver_liquidacion',
      tag: TAG,
      summary: 'La foto o el PDF de la boleta: una imagen se muestra, un PDF se descarga',
      params: DepositIdParams,
      paramsNotFound: noDeposit,
      responses: {
        200: {
          description: 'El archivo',
          mediaTypes: RECEIPT_TYPES,
          headers: {
            'Content-Disposition': 'inline (imagen) o attachment (PDF); filename="deposito-{id}.jpg"',
            'X-Content-Type-Options': 'nosniff',
          },
        },
        404: errorResponse(
          'No existe el depósito, no tiene comprobante, o se eliminó por la regla de retención (el mensaje lo dice)',
        ),
      },
      handle: ({ actor, params }) => {
        const file = getReceipt(deps, actor, params.id)
        return {
          status: 200,
          bytes: file.bytes,
          contentType: file.type,
          headers: {
            'Content-Disposition': `${file.inline ? 'inline' : 'attachment'}; filename="${file.fileName}"`,
            'X-Content-Type-Options': 'nosniff',
            'Cache-Control': 'private, no-store',
          },
        }
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/manifiestos/:numero/ajustes',
      access: 'operator',
      operationId: 'listarAjustesManifiesto',
      rateGroup: 'operator',
      right: 'ver_liquidacion',
      tag: TAG,
      summary: 'Los ajustes de centavos de un manifiesto (de sus almacenes), en el orden en que se hicieron',
      params: ManifestParams,
      responses: { 200: { description: 'Los ajustes', schema: Type.Array(AdjustmentView) }, 404: manifestMissing },
      handle: ({ actor, params }) => ({ status: 200, body: listAdjustments(deps, actor, params.numero) }),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/operador/manifiestos/:numero/ajustes',
      access: 'operator',
      operationId: 'ajustarCentavos',
      rateGroup: 'operator',
      right: 'ajustar_liquidacion',
      tag: TAG,
      summary: 'Ajusta centavos de una parte de un manifiesto abierto (finanzas y el administrador)',
      description:
        'monto con signo: positivo da por recibido lo que falta, negativo da por bueno lo que sobra; distinto de 0 y, en valor absoluto, a lo sumo settlement.maxAdjustment. ' +
        'motivo de al menos 10 caracteres. Un ajuste no se cambia ni se borra: un error se corrige con el ajuste contrario.',
      params: ManifestParams,
      body: {
        description: 'El ajuste',
        schema: NewAdjustmentBody,
        examples: {
          redondeo: {
            summary: 'Un centavo que el banco redondeó',
            value: { almacen: 'OAC', monto: 0.01, motivo: 'El banco redondeó la transferencia' },
          },
        },
      },
      responses: {
        201: { description: 'Ajuste registrado', schema: AdjustmentView },
        404: manifestMissing,
        422: errorResponse(
          'Monto 0 o sobre settlement.maxAdjustment, motivo corto, almacén que falta o manifiesto cerrado; nada se escribió',
        ),
      },
      handle: ({ actor, params, body }) => ({
        status: 201,
        body: registerAdjustment(deps, actor, params.numero, body),
      }),
    }),
  ]
}
