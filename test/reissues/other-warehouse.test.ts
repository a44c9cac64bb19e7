import assert from 'node:assert/strict'
import { test } from 'node:test'
import { invoice, postBatch, type Answer } from '../support/batches.ts'
import { asPerson, createAccount, sessionOf } from '../support/accounts.ts'
import { operator } from '../support/operator.ts'
import { withService, type TestService } from '../support/service.ts'

/**
 * A re-issue across warehouses (issue 38): OAC's invoice B-1 (manifest 905101, today) repeats
 * OAS's invoice ORIG-OAS-77 (manifest 905177, yesterday, another customer name). Of the OAS
 * invoice an OAC person learns only that it exists — "otra factura de otro almacén" — never its
 * number, manifest, date, warehouse, customer or amount. An OAS person does not see the re-issue
 * at all: it is a decision about B-1, which is not theirs (and their invoice shows nothing of
 * it). The integration (OperatorKey) sees everything.
 */
const ORIGINAL = 'ORIG-OAS-77'
const ORIGINAL_MANIFEST = '905177'
const ORIGINAL_CLIENT = 'ABARROTERIA SAN ISIDRO'
/** What an OAC person must never read, anywhere. */
const SECRETS = [ORIGINAL, ORIGINAL_MANIFEST, ORIGINAL_CLIENT, '2026-11-21', 'OAS']

type Who = 'sup-oac' | 'sup-oas' | 'clave'

async function seed(service: TestService): Promise<void> {
  service.clock.set('2026-11-21T16:00:00Z')
  assert.equal(
    (
      await postBatch(service, [
        invoice(
          ORIGINAL,
          ORIGINAL_MANIFEST,
          { Clienteid: 'C1', Cliente: ORIGINAL_CLIENT, Almacen: 'OAS' },
          '2026-11-21',
        ),
      ])
    ).status,
    200,
  )
  service.clock.set('2026-11-22T16:00:00Z')
  assert.equal((await postBatch(service, [invoice('B-1', '905101', { Clienteid: 'C1', Almacen: 'OAC' })])).status, 200)
  assert.equal(
    (await operator(service, 'POST', 'conceptos', { codigo: 'DANADO', descripcion: 'Producto dañado' })).status,
    201,
  )
  await createAccount(service, 'sup-oac', 'supervisor', ['OAC'])
  await createAccount(service, 'sup-oas', 'supervisor', ['OAS'])
}

async function call(
  service: TestService,
  who: Who,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Answer }> {
  if (who === 'clave') return operator(service, method, path, body)
  return asPerson(service, await sessionOf(service, who), method, path, body)
}

const returnOnCopy = {
  factura: 'B-1',
  concepto: 'DANADO',
  fecha: '2026-11-22T09:30:00',
  lineas: [{ numeroLinea: 1, unidades: 1 }],
}
const confirm = (service: TestService) => operator(service, 'POST', 'reemisiones/1/confirmar')
const registerOnCopy = (service: TestService) => operator(service, 'POST', 'devoluciones', returnOnCopy)

const COPY = {
  factura: 'B-1',
  manifiesto: '905101',
  fecha_factura: '2026-11-22',
  almacen: 'OAC',
  clienteid: 'C1',
  cliente: 'PULPERIA LA ESPERANZA',
  total: 2300.18,
  anulada: false,
}
const SHOWN = {
  oculta: false,
  factura: ORIGINAL,
  manifiesto: ORIGINAL_MANIFEST,
  fecha_factura: '2026-11-21',
  almacen: 'OAS',
  clienteid: 'C1',
  cliente: ORIGINAL_CLIENT,
  total: 2300.18,
  anulada: false,
}
const HIDDEN = {
  oculta: true,
  factura: null,
  manifiesto: null,
  fecha_factura: null,
  almacen: null,
  clienteid: null,
  cliente: null,
  total: null,
  anulada: null,
}
const SUMMARY_SHOWN = {
  id: '1',
  estado: 'pending',
  identica_a: ORIGINAL,
  manifiesto_original: ORIGINAL_MANIFEST,
  original_oculta: false,
}
const SUMMARY_HIDDEN = {
  id: '1',
  estado: 'pending',
  identica_a: null,
  manifiesto_original: null,
  original_oculta: true,
}

/** The reissue's answer, reduced to what the row asserts. */
const pair = (entry: Answer) => ({ factura: entry.factura, identica_a: entry.identica_a })
const reemisionOf = (nfactura: string) => (body: Answer) =>
  (body.facturas as Answer[]).find((entry) => entry.factura === nfactura)?.reemision
const auditOfCopy = (body: Answer) =>
  (body as Answer[])
    .filter((entry) => entry.accion.startsWith('reemision.'))
    .map((entry) => ({
      sujeto: entry.sujeto,
      identica_a: [entry.antes.identica_a, entry.despues.identica_a],
      detalle: entry.detalle,
    }))

interface Row {
  name: string
  who: Who
  setup?: (service: TestService) => Promise<unknown>
  method?: string
  path: string
  body?: unknown
  status: number
  /** What of the answer is compared (the whole body when absent). */
  pick?: (body: Answer) => unknown
  expect: unknown
}

const rows: Row[] = [
  // The list of possible re-issues.
  {
    name: 'OAC lists the re-issue; the OAS original is hidden',
    who: 'sup-oac',
    path: 'reemisiones',
    status: 200,
    pick: (body) => body.map(pair),
    expect: [{ factura: COPY, identica_a: HIDDEN }],
  },
  { name: 'OAS does not list the OAC re-issue at all', who: 'sup-oas', path: 'reemisiones', status: 200, expect: [] },
  {
    name: 'the integration lists it with both invoices',
    who: 'clave',
    path: 'reemisiones',
    status: 200,
    pick: (body) => body.map(pair),
    expect: [{ factura: COPY, identica_a: SHOWN }],
  },
  // A decision answers the re-issue too.
  {
    name: 'OAC discards it: the answer hides the original',
    who: 'sup-oac',
    method: 'POST',
    path: 'reemisiones/1/descartar',
    status: 200,
    pick: (body) => [body.estado, body.identica_a],
    expect: ['discarded', HIDDEN],
  },
  {
    name: 'OAS cannot decide it (404, not theirs)',
    who: 'sup-oas',
    method: 'POST',
    path: 'reemisiones/1/descartar',
    status: 404,
    expect: { success: false, message: 'No existe la posible re-emisión 1.' },
  },
  {
    name: 'OAC confirming while the copy holds a return: the message does not name the original',
    who: 'sup-oac',
    setup: registerOnCopy,
    method: 'POST',
    path: 'reemisiones/1/confirmar',
    status: 422,
    expect: {
      success: false,
      message:
        'La factura B-1 tiene 1 devolución(es) pendientes o aprobadas: recházelas o anúlelas (y regístrelas en otra factura de otro almacén) antes de confirmar la re-emisión.',
    },
  },
  {
    name: 'the integration confirming while the copy holds a return: the message names the original',
    who: 'clave',
    setup: registerOnCopy,
    method: 'POST',
    path: 'reemisiones/1/confirmar',
    status: 422,
    expect: {
      success: false,
      message: `La factura B-1 tiene 1 devolución(es) pendientes o aprobadas: recházelas o anúlelas (y regístrelas en la factura ${ORIGINAL}) antes de confirmar la re-emisión.`,
    },
  },
  // The invoice and the manifest that show the flag.
  {
    name: 'OAC’s invoice B-1 says it may repeat another warehouse’s invoice',
    who: 'sup-oac',
    path: 'facturas/B-1',
    status: 200,
    pick: (body) => body.reemision,
    expect: SUMMARY_HIDDEN,
  },
  {
    name: 'the integration’s invoice B-1 names the original',
    who: 'clave',
    path: 'facturas/B-1',
    status: 200,
    pick: (body) => body.reemision,
    expect: SUMMARY_SHOWN,
  },
  {
    name: 'OAS’s original shows nothing of the copy',
    who: 'sup-oas',
    path: `facturas/${ORIGINAL}`,
    status: 200,
    pick: (body) => body.reemision,
    expect: null,
  },
  {
    name: 'OAC’s manifest 905101 hides the original',
    who: 'sup-oac',
    path: 'manifiestos/905101',
    status: 200,
    pick: reemisionOf('B-1'),
    expect: SUMMARY_HIDDEN,
  },
  {
    name: 'OAC’s page of 905101’s invoices hides the original',
    who: 'sup-oac',
    path: 'manifiestos/905101/facturas',
    status: 200,
    pick: (body) => body.facturas.find((entry: Answer) => entry.factura === 'B-1')?.reemision,
    expect: SUMMARY_HIDDEN,
  },
  {
    name: 'the integration’s manifest 905101 names the original',
    who: 'clave',
    path: 'manifiestos/905101',
    status: 200,
    pick: reemisionOf('B-1'),
    expect: SUMMARY_SHOWN,
  },
  // The returns refused on the annulled copy.
  {
    name: 'OAC registering a return on the confirmed copy: refused without naming the original',
    who: 'sup-oac',
    setup: confirm,
    method: 'POST',
    path: 'devoluciones',
    body: returnOnCopy,
    status: 422,
    expect: {
      success: false,
      message:
        'La factura B-1 fue anulada como re-emisión de otra factura de otro almacén: no admite devoluciones; regístrelas en esa factura.',
    },
  },
  {
    name: 'the integration registering a return on the confirmed copy: refused naming the original',
    who: 'clave',
    setup: confirm,
    method: 'POST',
    path: 'devoluciones',
    body: returnOnCopy,
    status: 422,
    expect: {
      success: false,
      message: `La factura B-1 fue anulada como re-emisión de la factura ${ORIGINAL}: no admite devoluciones; regístrelas en esa factura.`,
    },
  },
  // The audit log of the decision.
  {
    name: 'OAC’s audit shows the decision with the original hidden',
    who: 'sup-oac',
    setup: confirm,
    path: 'auditoria',
    status: 200,
    pick: auditOfCopy,
    expect: [
      {
        sujeto: 'B-1',
        identica_a: [HIDDEN, HIDDEN],
        detalle: { reemision: '1', identica_a: 'otra factura de otro almacén' },
      },
    ],
  },
  {
    name: 'OAS’s audit does not list the decision on OAC’s invoice',
    who: 'sup-oas',
    setup: confirm,
    path: 'auditoria',
    status: 200,
    pick: auditOfCopy,
    expect: [],
  },
  {
    name: 'the integration’s audit shows the decision whole',
    who: 'clave',
    setup: confirm,
    path: 'auditoria',
    status: 200,
    pick: auditOfCopy,
    expect: [{ sujeto: 'B-1', identica_a: [SHOWN, { ...SHOWN }], detalle: { reemision: '1', identica_a: ORIGINAL } }],
  },
  // Counts name nothing, but they follow the list.
  {
    name: 'OAC’s dashboard counts the pending re-issue',
    who: 'sup-oac',
    path: 'resumen',
    status: 200,
    pick: (body) => body.reemisiones_pendientes,
    expect: 1,
  },
  {
    name: 'OAS’s dashboard does not',
    who: 'sup-oas',
    path: 'resumen',
    status: 200,
    pick: (body) => body.reemisiones_pendientes,
    expect: 0,
  },
]

for (const row of rows) {
  test(`re-issue of another warehouse: ${row.name}`, () =>
    withService({}, async (service) => {
      await seed(service)
      await row.setup?.(service)
      const { status, body } = await call(service, row.who, row.method ?? 'GET', row.path, row.body)
      assert.equal(status, row.status, JSON.stringify(body))
      assert.deepEqual(row.pick ? row.pick(body) : body, row.expect)
      if (row.who === 'sup-oac') {
        const text = JSON.stringify(body)
        for (const secret of SECRETS) assert.ok(!text.includes(secret), `the OAC answer reveals ${secret}: ${text}`)
      }
    }))
}
