import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { test } from 'node:test'
import { hashPassword } from '../../src/accounts/passwords.ts'
import type { Database } from '../../src/db/database.ts'
import { migrateDatabase } from '../../src/db/migrate.ts'
import { MIGRATIONS } from '../../src/db/migrations/index.ts'
import { DERIVED_VALUES } from '../../src/app/derived-values.ts'
import { asPerson, PASSWORD, sessionOf } from '../support/accounts.ts'
import { insertBatchRow, insertManifestRow } from '../support/fixtures.ts'
import { operator } from '../support/operator.ts'
import { TEST_PASSWORD_COST, withService } from '../support/service.ts'

/**
 * Migration 11 (issue 40) on a database of version 10 with data: no deposits nor adjustments; a
 * closed manifest stays closed; each part's pending returns are back-filled into manifest_totals;
 * users and their sessions are kept through the rebuild that lets a user be of finanzas.
 */
const TOKEN = 'token-de-una-sesion-abierta-antes-de-migrar'

const HASH = await hashPassword(PASSWORD, TEST_PASSWORD_COST)

function version10(db: Database): void {
  migrateDatabase(
    db,
    DERIVED_VALUES,
    MIGRATIONS.filter((migration) => migration.version <= 10),
  )
  const batchId = insertBatchRow(db, 'lote-viejo')
  const closed = insertManifestRow(db, {
    numero: '905100',
    createdAt: '2026-11-20T16:00:00.000Z',
    estado: 'closed',
    batchId,
  })
  const open = insertManifestRow(db, { numero: '905112', createdAt: '2026-11-22T16:00:00.000Z', batchId })
  const invoice = db.sqlite.prepare(
    "INSERT INTO invoices (nfactura, manifest_id, batch_id, fecha_factura, almacen, vendedor_id, cliente_id, cliente, total, original, created_at) VALUES (?, ?, ?, '2026-11-22', ?, 'V1', 'C1', 'Cliente', ?, '{}', '2026-11-22T16:00:00.000Z')",
  )
  invoice.run('F-0', closed, batchId, 'OAC', 75)
  const oac = Number(invoice.run('F-1', open, batchId, 'OAC', 100).lastInsertRowid)
  const oas = Number(invoice.run('F-2', open, batchId, 'OAS', 50).lastInsertRowid)
  db.sqlite
    .prepare(
      "INSERT INTO return_reasons (codigo, descripcion, created_at) VALUES ('DANADO', 'Dañado', '2026-11-22T16:00:00.000Z')",
    )
    .run()
  const ret = db.sqlite.prepare(
    "INSERT INTO returns (invoice_id, reason_codigo, fecha, estado, total_cents, listed_lines, listed_lines_units, registered_at, registered_date, registered_by, invoice_date) VALUES (?, 'DANADO', '2026-11-22T09:00:00', ?, ?, '[]', '[]', '2026-11-22T16:00:00.000Z', '2026-11-22', 'Ana', '2026-11-22')",
  )
  ret.run(oac, 'pending', 1000)
  ret.run(oac, 'pending', 500)
  ret.run(oac, 'approved', 2000)
  ret.run(oas, 'rejected', 700)
  // A user of version 10, with a session open across the upgrade.
  const user = db.sqlite
    .prepare(
      "INSERT INTO users (usuario, nombre, rol, almacenes, password_hash, created_at) VALUES ('sofia', 'Sofía', 'supervisor', '\"todos\"', ?, '2026-11-22T16:00:00.000Z')",
    )
    .run(HASH)
  db.sqlite
    .prepare(
      "INSERT INTO sessions (token_hash, user_id, created_at, last_used_at, ip) VALUES (?, ?, '2026-11-22T16:00:00.000Z', '2026-11-22T16:00:00.000Z', '127.0.0.1')",
    )
    .run(createHash('sha256').update(TOKEN).digest('hex'), user.lastInsertRowid)
}

test('migration 11: an existing database migrates — no deposits, closed manifests stay closed, pending returns back-filled, users and sessions kept', () =>
  withService({ beforeMigrate: version10 }, async (service) => {
    const db = service.db
    assert.deepEqual(db.sqlite.prepare('SELECT count(*) AS d FROM deposits').get(), { d: 0 })
    assert.deepEqual(db.sqlite.prepare('SELECT count(*) AS a FROM settlement_adjustments').get(), { a: 0 })
    assert.deepEqual(db.sqlite.prepare('SELECT numero, estado FROM manifests ORDER BY numero').all(), [
      { numero: '905100', estado: 'closed' },
      { numero: '905112', estado: 'imported' },
    ])
    assert.deepEqual(
      db.sqlite
        .prepare(
          'SELECT almacen, pending_returns, deposited_cents, justified_deposits, adjusted_cents FROM manifest_totals ORDER BY manifest_id, almacen',
        )
        .all(),
      [
        { almacen: 'OAC', pending_returns: 0, deposited_cents: 0, justified_deposits: 0, adjusted_cents: 0 },
        { almacen: 'OAC', pending_returns: 2, deposited_cents: 0, justified_deposits: 0, adjusted_cents: 0 },
        { almacen: 'OAS', pending_returns: 0, deposited_cents: 0, justified_deposits: 0, adjusted_cents: 0 },
      ],
    )
    const closed = await operator(service, 'GET', 'manifiestos/905100')
    assert.deepEqual(
      [
        closed.body.estado,
        closed.body.liquidacion.lista_para_cerrar,
        closed.body.liquidacion.falta,
        closed.body.liquidacion.diferencia,
      ],
      ['closed', false, null, 75],
    )
    const open = await operator(service, 'GET', 'manifiestos/905112')
    assert.equal(
      open.body.liquidacion.falta,
      'Falta depositar L 80.00 del almacén OAC y L 50.00 del almacén OAS; hay 2 devoluciones pendientes.',
    )
    assert.deepEqual((await operator(service, 'GET', 'manifiestos/905112/depositos')).body, [])
    // The session opened before the upgrade still works, and the user logs in as before.
    assert.equal((await asPerson(service, `manifiesto_sesion=${TOKEN}`, 'GET', 'manifiestos')).status, 200)
    await sessionOf(service, 'sofia')
    // finanzas is a role now; any other is still refused by the table itself.
    db.sqlite.prepare("UPDATE users SET rol = 'finanzas' WHERE usuario = 'sofia'").run()
    assert.throws(
      () => db.sqlite.prepare("UPDATE users SET rol = 'jefe' WHERE usuario = 'sofia'").run(),
      /CHECK constraint failed/,
    )
    assert.deepEqual(db.sqlite.pragma('foreign_key_check'), [])
  }))
