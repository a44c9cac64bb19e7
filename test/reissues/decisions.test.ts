import assert from 'node:assert/strict'
import { test } from 'node:test'
import { all } from '../../src/db/database.ts'
import { databaseState, invoice, postBatch, type Answer } from '../support/batches.ts'
import { asPerson, createAccount, sessionOf } from '../support/accounts.ts'
import { OPERATOR, operator } from '../support/operator.ts'
import { withService, type TestService } from '../support/service.ts'
import { CLOSE_UNSETTLED } from '../support/settlement.ts'

/**
 * The warehouse's decision on a possible re-issue (issue 16). Seed: A-1 (customer C1) in 905100
 * yesterday; today B-1 (the same economic invoice) and N-1 (another customer, Total 100) in
 * 905101 — possible re-issue 1 is B-1 repeating A-1.
 */
async function seed(service: TestService): Promise<string> {
  service.clock.set('2026-11-21T16:00:00Z')
  await postBatch(service, [invoice('A-1', '905100', { Clienteid: 'C1' }, '2026-11-21')])
  service.clock.set('2026-11-22T16:00:00Z')
  const batch = await postBatch(service, [
    invoice('B-1', '905101', { Clienteid: 'C1' }),
    invoice('N-1', '905101', { Clienteid: 'C9', Total: 100 }),
  ])
  assert.equal(batch.status, 200)
  assert.equal(
    (await operator(service, 'POST', 'conceptos', { codigo: 'DANADO', descripcion: 'Producto dañado' })).status,
    201,
  )
  return batch.body.batch_uuid as string
}

const returnOn = (service: TestService, factura: string) =>
  operator(service, 'POST', 'devoluciones', {
    factura,
    concepto: 'DANADO',
    fecha: '2026-11-22T09:30:00',
    lineas: [{ numeroLinea: 1, unidades: 1 }],
  })

const pendingView = (batchUuid: string) => ({
  id: '1',
  estado: 'pending',
  detectada_en: '2026-11-22 10:00:00',
  batch_uuid: batchUuid,
  dias_diferencia: 1,
  factura: {
    factura: 'B-1',
    manifiesto: '905101',
    fecha_factura: '2026-11-22',
    almacen: 'OAC',
    clienteid: 'C1',
    cliente: 'PULPERIA LA ESPERANZA',
    total: 2300.18,
    anulada: false,
  },
  identica_a: {
    oculta: false,
    factura: 'A-1',
    manifiesto: '905100',
    fecha_factura: '2026-11-21',
    almacen: 'OAC',
    clienteid: 'C1',
    cliente: 'PULPERIA LA ESPERANZA',
    total: 2300.18,
    anulada: false,
  },
  decidida_por: null,
  decidida_en: null,
  nota: null,
})

const listings: Array<{ query: string; ids: string[] }> = [
  { query: '', ids: ['1'] },
  { query: '?estado=pending', ids: ['1'] },
  { query: '?estado=confirmed', ids: [] },
  { query: '?estado=discarded', ids: [] },
]

for (const listing of listings) {
  test(`re-issue decisions: list ${listing.query || '(all)'}`, () =>
    withService({}, async (service) => {
      const batchUuid = await seed(service)
      const { status, body } = await operator(service, 'GET', `reemisiones${listing.query}`)
      assert.equal(status, 200)
      assert.deepEqual(
        body,
        listing.ids.map(() => pendingView(batchUuid)),
      )
    }))
}

test('re-issue decisions: a bad estado filter → 422 naming the parameter', () =>
  withService({}, async (service) => {
    assert.deepEqual(await operator(service, 'GET', 'reemisiones?estado=abierta'), {
      status: 422,
      body: { success: false, message: 'El parámetro estado tiene un valor no admitido (se recibió "abierta").' },
    })
  }))

interface Refusal {
  name: string
  setup?: (service: TestService) => Promise<unknown> | unknown
  path: string
  body?: unknown
  status: number
  message: string
}

const refusals: Refusal[] = [
  {
    name: 'an unknown re-issue → 404',
    path: 'reemisiones/99/confirmar',
    status: 404,
    message: 'No existe la posible re-emisión 99.',
  },
  {
    name: 'an id that is not a number → 404',
    path: 'reemisiones/abc/descartar',
    status: 404,
    message: 'No existe la posible re-emisión abc.',
  },
  {
    name: 'a blank nota → 422',
    path: 'reemisiones/1/confirmar',
    body: { nota: '  ' },
    status: 422,
    message: 'Cuerpo inválido: nota: no puede estar en blanco ni tener caracteres de control.',
  },
  {
    name: 'confirming a discarded one → 422',
    setup: (service) => operator(service, 'POST', 'reemisiones/1/descartar'),
    path: 'reemisiones/1/confirmar',
    status: 422,
    message: 'La posible re-emisión 1 ya fue descartada.',
  },
  {
    name: 'discarding a confirmed one → 422',
    setup: (service) => operator(service, 'POST', 'reemisiones/1/confirmar'),
    path: 'reemisiones/1/descartar',
    status: 422,
    message: 'La posible re-emisión 1 ya fue confirmada.',
  },
  {
    name: 'deciding on a closed manifest → 422',
    setup: (service) => operator(service, 'POST', 'manifiestos/905101/cerrar'),
    path: 'reemisiones/1/descartar',
    status: 422,
    message: 'El manifiesto 905101 está cerrado: reábralo para decidir la posible re-emisión 1.',
  },
  {
    name: 'confirming while the copy holds a pending return → 422',
    setup: (service) => returnOn(service, 'B-1'),
    path: 'reemisiones/1/confirmar',
    status: 422,
    message:
      'La factura B-1 tiene 1 devolución(es) pendientes o aprobadas: recházelas o anúlelas (y regístrelas en la factura A-1) antes de confirmar la re-emisión.',
  },
  {
    name: 'confirming while the copy holds an approved return → 422',
    setup: async (service) => {
      await returnOn(service, 'B-1')
      await operator(service, 'POST', 'devoluciones/1/aprobar')
    },
    path: 'reemisiones/1/confirmar',
    status: 422,
    message:
      'La factura B-1 tiene 1 devolución(es) pendientes o aprobadas: recházelas o anúlelas (y regístrelas en la factura A-1) antes de confirmar la re-emisión.',
  },
]

function decisionState(service: TestService) {
  return {
    ...databaseState(service.db),
    reissues: service.db.sqlite.prepare('SELECT estado, decided_by FROM invoice_reissues').all(),
    annulled: service.db.sqlite.prepare('SELECT nfactura FROM invoices WHERE annulled_at IS NOT NULL').pluck().all(),
  }
}

for (const refusal of refusals) {
  test(`re-issue decisions: ${refusal.name}, nothing changes`, () =>
    // Closing is part of a refusal's setup here, not the subject: the manifest closes unsettled.
    withService({ config: CLOSE_UNSETTLED }, async (service) => {
      await seed(service)
      await refusal.setup?.(service)
      const before = decisionState(service)
      const { status, body } = await operator(service, 'POST', refusal.path, refusal.body)
      assert.deepEqual({ status, body }, { status: refusal.status, body: { success: false, message: refusal.message } })
      assert.deepEqual(decisionState(service), before)
    }))
}

function auditOf(service: TestService) {
  return all(
    service.db,
    service.db.query.selectFrom('audit_log').selectAll().where('action', 'like', 'reemision.%').orderBy('id'),
  ).map((row) => ({
    actor: row.actor,
    action: row.action,
    subject: `${row.subject_type}:${row.subject_id}`,
    detail: JSON.parse(row.detail!) as unknown,
    before: (JSON.parse(row.before!) as Answer).estado,
    after: (JSON.parse(row.after!) as Answer).estado,
  }))
}

const totalsOf = async (service: TestService, numero: string) => {
  const listed = ((await operator(service, 'GET', 'manifiestos')).body as Answer[]).find(
    (view) => view.numero === numero,
  )!
  const detail = (await operator(service, 'GET', `manifiestos/${numero}`)).body
  const status = (await service
    .client(`/api/v1/manifiestos/${numero}/estado`)
    .then((response) => response.json())) as Answer
  return {
    list: [listed.total_facturas, listed.total_importe],
    detail: [detail.total_facturas, detail.total_importe],
    status: [status.resumen.total_facturas, status.resumen.total_importe],
  }
}

test('re-issue decisions: confirming annuls the copy — out of its manifest’s totals everywhere, no returns — and audits it', () =>
  withService({}, async (service) => {
    const batchUuid = await seed(service)
    assert.deepEqual(await totalsOf(service, '905101'), {
      list: [2, 2400.18],
      detail: [2, 2400.18],
      status: [2, 2400.18],
    })
    const { status, body } = await operator(service, 'POST', 'reemisiones/1/confirmar', {
      nota: 'Jaremar confirmó que es copia',
    })
    assert.equal(status, 200)
    const pending = pendingView(batchUuid)
    assert.deepEqual(body, {
      ...pending,
      estado: 'confirmed',
      factura: { ...pending.factura, anulada: true },
      decidida_por: OPERATOR,
      decidida_en: '2026-11-22 10:00:00',
      nota: 'Jaremar confirmó que es copia',
    })
    assert.deepEqual(await totalsOf(service, '905101'), { list: [1, 100], detail: [1, 100], status: [1, 100] })

    const detail = (await operator(service, 'GET', 'manifiestos/905101')).body
    assert.deepEqual(
      (detail.facturas as Answer[]).map((entry) => [entry.factura, entry.anulada, entry.reemision]),
      [
        [
          'B-1',
          true,
          { id: '1', estado: 'confirmed', identica_a: 'A-1', manifiesto_original: '905100', original_oculta: false },
        ],
        ['N-1', false, null],
      ],
    )
    const view = (await operator(service, 'GET', 'facturas/B-1')).body
    assert.deepEqual(
      [view.anulada, view.admite_devoluciones, view.reemision],
      [
        true,
        false,
        { id: '1', estado: 'confirmed', identica_a: 'A-1', manifiesto_original: '905100', original_oculta: false },
      ],
    )
    assert.deepEqual(await returnOn(service, 'B-1'), {
      status: 422,
      body: {
        success: false,
        message:
          'La factura B-1 fue anulada como re-emisión de la factura A-1: no admite devoluciones; regístrelas en esa factura.',
      },
    })
    assert.equal((await returnOn(service, 'A-1')).status, 201, 'the original takes the returns')
    assert.deepEqual(auditOf(service), [
      {
        actor: OPERATOR,
        action: 'reemision.confirmada',
        subject: 'factura:B-1',
        detail: { reemision: '1', identica_a: 'A-1', nota: 'Jaremar confirmó que es copia' },
        before: 'pending',
        after: 'confirmed',
      },
    ])
  }))

test('re-issue decisions: an annulled copy is never taken for an original; a later copy repeats the original', () =>
  withService({}, async (service) => {
    await seed(service)
    assert.equal((await operator(service, 'POST', 'reemisiones/1/confirmar')).status, 200)
    assert.equal((await postBatch(service, [invoice('C-1', '905102', { Clienteid: 'C1' })])).status, 200)
    const listed = (await operator(service, 'GET', 'reemisiones?estado=pending')).body as Answer[]
    assert.deepEqual(
      listed.map((entry) => [entry.factura.factura, entry.identica_a.factura, entry.dias_diferencia]),
      [['C-1', 'A-1', 1]],
    )
  }))

test('re-issue decisions: a copy whose returns were rejected can be confirmed (they hold no units)', () =>
  withService({}, async (service) => {
    await seed(service)
    await returnOn(service, 'B-1')
    assert.equal(
      (await operator(service, 'POST', 'devoluciones/1/rechazar', { motivo: 'Va en la factura A-1' })).status,
      200,
    )
    const { status, body } = await operator(service, 'POST', 'reemisiones/1/confirmar')
    assert.deepEqual([status, body.estado, body.factura.anulada], [200, 'confirmed', true])
  }))

test('re-issue decisions: discarding keeps the invoice as it is (a legitimate repeat order) and audits it', () =>
  withService({}, async (service) => {
    const batchUuid = await seed(service)
    const { status, body } = await operator(service, 'POST', 'reemisiones/1/descartar', {
      nota: 'Pedido repetido del cliente',
    })
    assert.equal(status, 200)
    assert.deepEqual(body, {
      ...pendingView(batchUuid),
      estado: 'discarded',
      decidida_por: OPERATOR,
      decidida_en: '2026-11-22 10:00:00',
      nota: 'Pedido repetido del cliente',
    })
    assert.deepEqual(await totalsOf(service, '905101'), {
      list: [2, 2400.18],
      detail: [2, 2400.18],
      status: [2, 2400.18],
    })
    assert.equal((await returnOn(service, 'B-1')).status, 201)
    assert.deepEqual(auditOf(service), [
      {
        actor: OPERATOR,
        action: 'reemision.descartada',
        subject: 'factura:B-1',
        detail: { reemision: '1', identica_a: 'A-1', nota: 'Pedido repetido del cliente' },
        before: 'pending',
        after: 'discarded',
      },
    ])
  }))

/** People see and decide the possible re-issues of their warehouses' invoices (B-1 is OAC's). */
const people: Array<{
  usuario: string
  rol: 'operador' | 'supervisor'
  almacenes: string[]
  listed: string[]
  confirm: number
}> = [
  { usuario: 'op-oac', rol: 'operador', almacenes: ['OAC'], listed: ['1'], confirm: 403 },
  { usuario: 'sup-oac', rol: 'supervisor', almacenes: ['OAC'], listed: ['1'], confirm: 200 },
  { usuario: 'sup-oas', rol: 'supervisor', almacenes: ['OAS'], listed: [], confirm: 404 },
]

for (const person of people) {
  test(`re-issue decisions: ${person.rol} of ${person.almacenes.join(',')} lists ${JSON.stringify(person.listed)} and confirming answers ${person.confirm}`, () =>
    withService({}, async (service) => {
      await seed(service)
      await createAccount(service, person.usuario, person.rol, person.almacenes)
      const cookie = await sessionOf(service, person.usuario)
      const listed = await asPerson(service, cookie, 'GET', 'reemisiones')
      assert.deepEqual(
        (listed.body as Answer[]).map((entry) => entry.id),
        person.listed,
      )
      const decided = await asPerson(service, cookie, 'POST', 'reemisiones/1/confirmar')
      assert.equal(decided.status, person.confirm, JSON.stringify(decided.body))
      const decidedBy = service.db.sqlite.prepare('SELECT decided_by FROM invoice_reissues').pluck().get()
      const audited = service.db.sqlite
        .prepare("SELECT actor_usuario FROM audit_log WHERE action = 'reemision.confirmada'")
        .pluck()
        .all()
      assert.deepEqual(
        [decidedBy, audited],
        person.confirm === 200 ? [`Nombre de ${person.usuario}`, [person.usuario]] : [null, []],
      )
    }))
}
