import assert from 'node:assert/strict'
import { test } from 'node:test'
import { withService } from '../support/service.ts'
import {
  acceptBatch,
  as,
  createPeople,
  deposit,
  depositBody,
  lineInvoice,
  settlementOf,
  type Who,
} from '../support/settlement.ts'

/**
 * Deposits registered at the same moment for the last L 100 of a part (issue 40): each is decided
 * in its own write transaction against what is deposited when it runs, so exactly one is taken and
 * every other is an overpayment without a justification (422) — never L 100 deposited twice.
 */
for (const count of [2, 8]) {
  test(`concurrency: ${count} deposits at the same moment for the last L 100 → one 201, ${count - 1} × 422; L 200.00 deposited`, () =>
    withService({}, async (service) => {
      await acceptBatch(service, [lineInvoice('F-1', '905112', 'OAC', 200)])
      await createPeople(service)
      await deposit(service, '905112', depositBody(100))
      const people: Who[] = ['sup-oac', 'fin-oac', 'admin', 'clave']
      for (const who of people) await as(service, who, 'GET', 'resumen') // sessions first: the deposits race, not the logins
      const answers = await Promise.all(
        Array.from({ length: count }, (_, i) =>
          as(service, people[i % people.length]!, 'POST', 'manifiestos/905112/depositos', depositBody(100)),
        ),
      )
      assert.deepEqual(answers.map((answer) => answer.status).sort(), [201, ...Array<number>(count - 1).fill(422)])
      for (const refused of answers.filter((answer) => answer.status === 422))
        assert.match(
          refused.body.message,
          /^justificacion: El depósito de L 100.00 deja el almacén OAC del manifiesto 905112 con L 100.00 depositados de más/,
        )
      const liquidacion = await settlementOf(service, '905112')
      assert.deepEqual([liquidacion.depositado, liquidacion.diferencia, liquidacion.lista_para_cerrar], [200, 0, true])
      assert.equal(service.db.sqlite.prepare("SELECT count(*) FROM deposits WHERE estado = 'active'").pluck().get(), 2)
    }))
}

test('concurrency: the same slip sent twice at the same moment is registered once', () =>
  withService({}, async (service) => {
    await acceptBatch(service, [lineInvoice('F-1', '905112', 'OAC', 200)])
    const body = depositBody(50)
    const answers = await Promise.all([
      as(service, 'clave', 'POST', 'manifiestos/905112/depositos', body),
      as(service, 'clave', 'POST', 'manifiestos/905112/depositos', body),
    ])
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [201, 422])
    assert.equal(service.db.sqlite.prepare('SELECT count(*) FROM deposits').pluck().get(), 1)
  }))
