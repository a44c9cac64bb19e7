import assert from 'node:assert/strict'
import { test } from 'node:test'
import { OPERATOR } from '../support/operator.ts'
import { OPERATOR_KEY, withService, type TestService } from '../support/service.ts'

/**
 * GET auditoria keeps its array answer and tells whether a next page exists in headers
 * (X-Pagina, X-Por-Pagina, X-Hay-Mas). Seed: 1001 entries about concepts, every 10th by user
 * "ana.f" (101 of them), and one about manifest 905112.
 */
function seed(service: TestService): void {
  service.db.sqlite.exec(`
    WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < 1001)
    INSERT INTO audit_log (at, actor, actor_usuario, action, subject_type, subject_id)
    SELECT '2026-11-22T16:00:00.000Z', 'Ana', CASE WHEN k % 10 = 1 THEN 'ana.f' ELSE NULL END, 'concepto.creado', 'concepto', 'C' || k FROM n;
    INSERT INTO audit_log (at, actor, action, subject_type, subject_id) VALUES ('2026-11-22T16:00:00.000Z', 'Ana', 'manifiesto.cerrado', 'manifiesto', '905112');`)
}

const rows: Array<{ query: string; count: number; headers: [string, string, string] }> = [
  { query: '', count: 500, headers: ['1', '500', 'true'] },
  { query: '?pagina=2', count: 500, headers: ['2', '500', 'true'] },
  { query: '?pagina=3', count: 2, headers: ['3', '500', 'false'] },
  { query: '?pagina=4', count: 0, headers: ['4', '500', 'false'] },
  { query: '?usuario=ANA.F', count: 101, headers: ['1', '500', 'false'] },
  { query: '?tipo=manifiesto&sujeto=905112', count: 1, headers: ['1', '500', 'false'] },
]

for (const row of rows) {
  test(`audit paging: auditoria${row.query} → ${row.count} entries, X-Hay-Mas ${row.headers[2]}`, () =>
    withService({}, async (service) => {
      seed(service)
      const response = await service.fetch(`/api/v1/operador/auditoria${row.query}`, {
        headers: { OperatorKey: OPERATOR_KEY, Operador: encodeURIComponent(OPERATOR) },
      })
      assert.equal(response.status, 200)
      assert.deepEqual(
        [response.headers.get('x-pagina'), response.headers.get('x-por-pagina'), response.headers.get('x-hay-mas')],
        row.headers,
      )
      assert.equal(((await response.json()) as unknown[]).length, row.count)
    }))
}

test('audit paging: exactly one full page has no next page', () =>
  withService({}, async (service) => {
    service.db.sqlite.exec(`
      WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < 500)
      INSERT INTO audit_log (at, actor, action, subject_type, subject_id) SELECT '2026-11-22T16:00:00.000Z', 'Ana', 'concepto.creado', 'concepto', 'C' || k FROM n;`)
    const response = await service.fetch('/api/v1/operador/auditoria', { headers: { OperatorKey: OPERATOR_KEY } })
    assert.deepEqual([((await response.json()) as unknown[]).length, response.headers.get('x-hay-mas')], [500, 'false'])
  }))
