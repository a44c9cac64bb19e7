import { all } from '../../src/db/database.ts'
import { createAccount } from '../support/accounts.ts'
import { exampleBatch, invoice, postBatch } from '../support/batches.ts'
import { containing, holds, nothingWritten, refusal, testScenarios, type Setup } from '../support/scenarios.ts'
import type { TestService } from '../support/service.ts'
import { OPERATOR } from '../support/operator.ts'

/**
 * The print views' reads and the printed marks (issue 42). The example batch: manifest 905112,
 * 001-001-01-00912001 of OAC (3 lines: 12 units of oil, 2 boxes of 96 of sauce, 1 box of 72 and 10
 * soaps; 2,300.18) and 001-001-01-00912002 of OAS (8 units; 188.97), both on route "118  ".
 * Today is 2026-11-22, 10:00 in Honduras.
 */
const F1 = '001-001-01-00912001'
const F2 = '001-001-01-00912002'

const seed: Setup = async (service) => {
  // A second route, 9, comes before 118 (numbers as numbers).
  const answer = await postBatch(service, [
    ...exampleBatch(),
    invoice('001-001-01-00912003', '905112', { NumeroRuta: '9', Total: 2300.18 }),
  ])
  if (answer.status !== 200) throw new Error(JSON.stringify(answer.body))
  await createAccount(service, 'op-oac', 'operador', ['OAC'], 'Olga Pérez')
}

const prints = (service: TestService) =>
  all(
    service.db,
    service.db.query
      .selectFrom('invoice_prints as p')
      .innerJoin('invoices as i', 'i.id', 'p.invoice_id')
      .select(['i.nfactura', 'p.first_at', 'p.first_by', 'p.last_at', 'p.last_by', 'p.copies'])
      .orderBy('i.nfactura'),
  )
const printAudit = (service: TestService) =>
  all(
    service.db,
    service.db.query
      .selectFrom('audit_log')
      .select(['actor', 'actor_usuario', 'action', 'subject_type', 'subject_id', 'detail'])
      .where('action', 'like', 'factura.%impresa')
      .orderBy('id'),
  )
const printed = (expected: unknown[]) => holds('the printed marks', prints, expected)
const audited = (expected: unknown[]) => holds('the audit of prints', printAudit, expected)
const markAs = (who: 'operator' | { usuario: string }, facturas: string[]) => async (service: TestService) => {
  const { send } = await import('../support/scenarios.ts')
  const reply = await send(service, { method: 'POST', path: 'impresiones', body: { facturas } }, who)
  if (reply.status !== 200) throw new Error(JSON.stringify(reply.body))
}
const NOW = '2026-11-22T16:00:00.000Z'
const NOW_LOCAL = '2026-11-22 10:00:00'

const F1_PRINT = {
  factura: F1,
  manifiesto: '905112',
  almacen: 'OAC',
  ruta: '118',
  total: 2300.18,
  anulada: false,
  impresa: null,
  cajas: 3,
  unidades_sueltas: 22,
  encabezado: containing({
    FechaFactura: '2026-11-22',
    FechaLimImpre: '2027-06-30',
    Cai: 'A1B2C3-D4E5F6-0718293A-4B5C6D-7E8F90-12',
    Rinicial: '001-001-01-00900001',
    Rfinal: '001-001-01-00990000',
    Vendedor: 'ANA LUCIA FIALLOS',
    DiasCred: '30',
    OrdenEx: null,
  }),
  importes: containing({
    ImporteExcento: 0,
    ImporteGrabado: 2000.16,
    Isv15: 300.02,
    Isv18: 0,
    DescuentosRebajas: 0,
    Total: 2300.18,
  }),
  lineas: [
    containing({
      NumeroLinea: 1,
      ProductoId: '30110205',
      UniVenta: 'UN',
      Precio: 748.8,
      Impuesto: 56.16,
      Total: 430.56,
      unidades: 12,
      cantidad: '12 unid.',
    }),
    containing({
      NumeroLinea: 2,
      ProductoId: '81800012',
      UniVenta: 'CJ',
      unidades: 192,
      cantidad: '2 cajas',
      Total: 1476.77,
    }),
    containing({ NumeroLinea: 3, ProductoId: '52480038', unidades: 82, cantidad: '1 caja + 10 unid.', Total: 392.85 }),
  ],
}

testScenarios(
  'printing',
  [
    {
      name: 'nobody → 401',
      request: { path: 'manifiestos/905112/impresion', as: 'nobody' },
      status: 401,
      body: refusal(/^Inicie sesión/),
    },
    {
      name: 'a warehouse code that is not one → 422',
      request: { path: 'manifiestos/905112/impresion?almacen=oac!' },
      status: 422,
      body: refusal(
        'El parámetro almacen debe ser un código de almacén (letras, dígitos, ., _ o -) (se recibió "oac!").',
      ),
    },
    {
      name: 'marking nothing → 422, nothing written',
      request: { method: 'POST', path: 'impresiones', body: { facturas: [] } },
      status: 422,
      body: refusal(/^Cuerpo inválido: facturas: /),
      database: nothingWritten(),
    },
    {
      name: 'an invoice named twice → 422, nothing written',
      request: { method: 'POST', path: 'impresiones', body: { facturas: [F1, F1] } },
      status: 422,
      body: refusal(`facturas: ${F1} está repetida; nombre cada factura una vez.`),
      database: nothingWritten(),
    },
    {
      name: 'products of neither a manifest nor a range → 422',
      request: { path: 'productos' },
      status: 422,
      body: refusal('Indique el manifiesto, o el rango de fechas de ingreso completo: desde y hasta (YYYY-MM-DD).'),
    },
    {
      name: 'products of a manifest and a range → 422',
      request: { path: 'productos?manifiesto=905112&desde=2026-11-01&hasta=2026-11-30' },
      status: 422,
      body: refusal(
        'Pida los productos de un manifiesto (manifiesto) o de un rango de fechas (desde y hasta), no de ambos.',
      ),
    },
    {
      name: 'products of a range too long → 422',
      request: { path: 'productos?desde=2026-01-01&hasta=2026-11-30' },
      status: 422,
      body: refusal('El rango abarca más de 62 días: acote las fechas o pida los productos de un manifiesto.'),
    },
    {
      name: 'an unknown manifest → 404',
      request: { path: 'manifiestos/999/impresion' },
      status: 404,
      body: refusal('El manifiesto 999 no existe.'),
    },
    {
      name: "another warehouse's part → 404",
      request: { path: 'manifiestos/905112/impresion?almacen=OAS', as: { usuario: 'op-oac' } },
      status: 404,
      body: refusal('El manifiesto 905112 no tiene facturas del almacén OAS que usted pueda ver.'),
    },
    {
      name: "another warehouse's invoice → 404",
      request: { path: `facturas/${F2}/impresion`, as: { usuario: 'op-oac' } },
      status: 404,
      body: refusal(`No existe la factura ${F2}.`),
    },
    {
      name: "marking another warehouse's invoice → 404 naming it, nothing written",
      request: { method: 'POST', path: 'impresiones', body: { facturas: [F1, F2] }, as: { usuario: 'op-oac' } },
      status: 404,
      body: refusal(`No existe la factura ${F2}.`),
      database: nothingWritten(),
    },
    {
      name: 'a manifest in route order (9 before 118), with the fields as sent',
      request: { path: 'manifiestos/905112/impresion' },
      status: 200,
      body: {
        manifiesto: '905112',
        estado: 'imported',
        fecha_ingreso: NOW_LOCAL,
        almacenes: ['OAC', 'OAS'],
        facturas: [
          containing({ factura: '001-001-01-00912003', ruta: '9' }),
          F1_PRINT,
          containing({ factura: F2, almacen: 'OAS', cajas: 0, unidades_sueltas: 8 }),
        ],
      },
    },
    {
      name: "a person sees their warehouses' part only",
      request: { path: 'manifiestos/905112/impresion', as: { usuario: 'op-oac' } },
      status: 200,
      body: containing({
        almacenes: ['OAC'],
        facturas: [containing({ factura: '001-001-01-00912003' }), containing({ factura: F1 })],
      }),
    },
    {
      name: 'one invoice',
      request: { path: `facturas/${F1}/impresion`, as: { usuario: 'op-oac' } },
      status: 200,
      body: F1_PRINT,
    },
    {
      name: 'the first print is the original: marked, audited',
      request: { method: 'POST', path: 'impresiones', body: { facturas: [F1] }, as: { usuario: 'op-oac' } },
      status: 200,
      body: {
        impresas: [
          {
            factura: F1,
            copia: false,
            impresa: {
              primera_en: NOW_LOCAL,
              primera_por: 'Olga Pérez',
              ultima_en: NOW_LOCAL,
              ultima_por: 'Olga Pérez',
              copias: 0,
            },
          },
        ],
      },
      database: [
        printed([
          { nfactura: F1, first_at: NOW, first_by: 'Olga Pérez', last_at: NOW, last_by: 'Olga Pérez', copies: 0 },
        ]),
        audited([
          {
            actor: 'Olga Pérez',
            actor_usuario: 'op-oac',
            action: 'factura.impresa',
            subject_type: 'factura',
            subject_id: F1,
            detail: '{"manifiesto":"905112"}',
          },
        ]),
      ],
    },
    {
      name: 'a reprint is a copy, an invoice never printed beside it the original',
      setup: markAs({ usuario: 'op-oac' }, [F1]),
      request: { method: 'POST', path: 'impresiones', body: { facturas: [F1, F2] } },
      status: 200,
      body: {
        impresas: [
          {
            factura: F1,
            copia: true,
            impresa: {
              primera_en: NOW_LOCAL,
              primera_por: 'Olga Pérez',
              ultima_en: NOW_LOCAL,
              ultima_por: OPERATOR,
              copias: 1,
            },
          },
          {
            factura: F2,
            copia: false,
            impresa: {
              primera_en: NOW_LOCAL,
              primera_por: OPERATOR,
              ultima_en: NOW_LOCAL,
              ultima_por: OPERATOR,
              copias: 0,
            },
          },
        ],
      },
      database: [
        printed([
          { nfactura: F1, first_at: NOW, first_by: 'Olga Pérez', last_at: NOW, last_by: OPERATOR, copies: 1 },
          { nfactura: F2, first_at: NOW, first_by: OPERATOR, last_at: NOW, last_by: OPERATOR, copies: 0 },
        ]),
        audited([
          {
            actor: 'Olga Pérez',
            actor_usuario: 'op-oac',
            action: 'factura.impresa',
            subject_type: 'factura',
            subject_id: F1,
            detail: '{"manifiesto":"905112"}',
          },
          {
            actor: OPERATOR,
            actor_usuario: null,
            action: 'factura.reimpresa',
            subject_type: 'factura',
            subject_id: F1,
            detail: '{"manifiesto":"905112","copia":1}',
          },
          {
            actor: OPERATOR,
            actor_usuario: null,
            action: 'factura.impresa',
            subject_type: 'factura',
            subject_id: F2,
            detail: '{"manifiesto":"905112"}',
          },
        ]),
      ],
    },
    {
      name: 'the print view then says it was printed',
      setup: markAs({ usuario: 'op-oac' }, [F1]),
      request: { path: `facturas/${F1}/impresion` },
      status: 200,
      body: containing({
        impresa: {
          primera_en: NOW_LOCAL,
          primera_por: 'Olga Pérez',
          ultima_en: NOW_LOCAL,
          ultima_por: 'Olga Pérez',
          copias: 0,
        },
      }),
    },
    {
      name: "the products of a manifest, a person's warehouses only",
      request: { path: 'productos?manifiesto=905112', as: { usuario: 'op-oac' } },
      status: 200,
      body: {
        manifiesto: '905112',
        desde: null,
        hasta: null,
        almacen: null,
        productos: [
          {
            producto_id: '30110205',
            producto: 'ACEITE VEGETAL 410 mL 1/24',
            uni_venta: 'UN',
            factor_conversion: 24,
            unidades: 24,
            cantidad: '24 unid.',
            importe: 861.12,
            facturas: 2,
          },
          {
            producto_id: '52480038',
            producto: 'JABON LIMON 115GRX72',
            uni_venta: 'CJ',
            factor_conversion: 72,
            unidades: 164,
            cantidad: '2 cajas + 20 unid.',
            importe: 785.7,
            facturas: 2,
          },
          {
            producto_id: '81800012',
            producto: 'SALSA DE TOMATE 8X12X87GR',
            uni_venta: 'CJ',
            factor_conversion: 96,
            unidades: 384,
            cantidad: '4 cajas',
            importe: 2953.54,
            facturas: 2,
          },
        ],
        totales: { facturas: 2, importe: 4600.36 },
      },
    },
    {
      name: 'the products of the manifests received in a range, one warehouse',
      request: { path: 'productos?desde=2026-11-22&hasta=2026-11-22&almacen=OAS' },
      status: 200,
      body: containing({
        almacen: 'OAS',
        productos: [
          containing({ producto_id: '50491313', unidades: 8, cantidad: '8 unid.', importe: 188.97, facturas: 1 }),
        ],
        totales: { facturas: 1, importe: 188.97 },
      }),
    },
  ],
  { as: 'operator', setup: seed },
)
