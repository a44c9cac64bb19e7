import assert from 'node:assert/strict'
import { test } from 'node:test'
import { exampleBatch, postBatch, type Answer, type Invoice } from '../support/batches.ts'
import { createAccount } from '../support/accounts.ts'
import { requestAs, type ConsoleWho } from '../support/console.ts'
import { containing, refusal, testScenarios } from '../support/scenarios.ts'
import { withService, type TestService } from '../support/service.ts'

/**
 * GET conflictos/{id}: both versions, the changed fields, and the lines that differ, matched by
 * NumeroLinea. The example batch is stored, then sent again with `change` applied to F1 (OAC):
 * conflict 1 is F1's (and conflict 2 F2's when F2 changes too).
 */
type Lines = Array<Record<string, unknown>>
/** Every field of the example's lines, in order. */
const LINE_FIELDS = Object.keys((exampleBatch()[0]!.LineasFactura as Lines)[0]!)
const withLines =
  (change: (lines: Lines) => Lines) =>
  (entry: Invoice): Invoice => ({ ...entry, LineasFactura: change(structuredClone(entry.LineasFactura as Lines)) })

async function seedConflict(service: TestService, change: (entry: Invoice) => Invoice, alsoF2 = false): Promise<void> {
  assert.equal((await postBatch(service, exampleBatch())).status, 200)
  const resent = exampleBatch().map((entry, index) =>
    index === 0 ? change(entry) : alsoF2 ? { ...entry, Tel: '00000000' } : entry,
  )
  const answer = await postBatch(service, resent)
  assert.equal(answer.status, 200, JSON.stringify(answer.body))
  await createAccount(service, 'op-oac', 'operador', ['OAC'])
  await createAccount(service, 'sup-oac', 'supervisor', ['OAC'])
}

const changes: Array<{ name: string; change: (entry: Invoice) => Invoice; campos: string[]; lineas: Answer[] }> = [
  {
    name: 'a header field only: no line differs',
    change: (entry) => ({ ...entry, Tel: '00000000' }),
    campos: ['Tel'],
    lineas: [],
  },
  {
    name: 'two fields of line 2',
    change: withLines((lines) =>
      lines.map((line) => (line.NumeroLinea === 2 ? { ...line, CantidadCaja: 1, Total: 738.39 } : line)),
    ),
    campos: ['LineasFactura'],
    lineas: [{ numero_linea: 2, cambio: 'modificada', campos: ['CantidadCaja', 'Total'] }],
  },
  {
    name: 'a line added and a line removed',
    change: withLines((lines) => [
      ...lines.filter((line) => line.NumeroLinea !== 1),
      { ...lines[0]!, NumeroLinea: 4, Id: 5100009 },
    ]),
    campos: ['LineasFactura'],
    lineas: [
      { numero_linea: 1, cambio: 'quitada', campos: LINE_FIELDS },
      { numero_linea: 4, cambio: 'agregada', campos: LINE_FIELDS },
    ],
  },
  {
    name: 'lines in another order and a field that appears: only that line',
    change: withLines((lines) =>
      [...lines].reverse().map((line) => (line.NumeroLinea === 3 ? { ...line, Lote: 'L-77' } : line)),
    ),
    campos: ['LineasFactura'],
    lineas: [{ numero_linea: 3, cambio: 'modificada', campos: ['Lote'] }],
  },
]

for (const row of changes) {
  test(`conflict detail: ${row.name}`, () =>
    withService({}, async (service) => {
      await seedConflict(service, row.change)
      const { status, body } = await requestAs(service, 'clave', 'GET', 'conflictos/1')
      assert.equal(status, 200, JSON.stringify(body))
      const listed = (await requestAs(service, 'clave', 'GET', 'conflictos')).body[0]
      assert.deepEqual(body, { ...listed, lineas_con_cambio: row.lineas }, 'the list item plus the line differences')
      assert.deepEqual(body.campos_con_cambio, row.campos)
    }))
}

const get = (who: ConsoleWho, path: string) => ({
  path,
  as: who === 'clave' ? ('operator' as const) : { usuario: who },
})

testScenarios(
  'conflict detail',
  [
    {
      name: 'op-oac → GET conflictos/1 → 403',
      request: get('op-oac', 'conflictos/1'),
      status: 403,
      body: refusal(
        'Su rol (operador) no permite revisar ni decidir conflictos de facturas, ni decidir posibles re-emisiones; pídaselo a un supervisor.',
      ),
    },
    {
      name: 'sup-oac → GET conflictos/2 → 404',
      request: get('sup-oac', 'conflictos/2'),
      status: 404,
      body: refusal('No existe el conflicto 2.'),
    },
    {
      name: 'clave → GET conflictos/99 → 404',
      request: get('clave', 'conflictos/99'),
      status: 404,
      body: refusal('No existe el conflicto 99.'),
    },
    {
      name: 'clave → GET conflictos/abc → 404',
      request: get('clave', 'conflictos/abc'),
      status: 404,
      body: refusal('No existe el conflicto abc.'),
    },
    {
      name: 'sup-oac → GET conflictos/1 → 200',
      request: get('sup-oac', 'conflictos/1'),
      status: 200,
      body: containing({ id: '1', factura: exampleBatch()[0]!.Nfactura }),
    },
    {
      name: 'clave → GET conflictos/2 → 200',
      request: get('clave', 'conflictos/2'),
      status: 200,
      body: containing({ id: '2', factura: exampleBatch()[1]!.Nfactura }),
    },
  ],
  { setup: (service) => seedConflict(service, (entry) => ({ ...entry, Tel: '00000000' }), true) },
)
