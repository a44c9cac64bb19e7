import assert from 'node:assert/strict'
import { renameSync, writeFileSync } from 'node:fs'
import { test } from 'node:test'
import { VERSION } from '../../src/core/version.ts'
import { withService } from '../support/service.ts'

test('ping: 200 with the service, version, Honduras timestamp and database ok', () =>
  withService({ now: '2026-11-23T05:30:00.000Z' }, async (service) => {
    const response = await service.fetch('/api/v1/ping')
    assert.equal(response.status, 200)
    assert.deepEqual(await response.json(), {
      success: true,
      status: 'ok',
      service: 'manifiesto',
      version: VERSION,
      timestamp: '2026-11-22T23:30-06:00',
      database: 'ok',
    })
  }))

const brokenDatabase: Array<{ name: string; breakIt: (path: string) => void }> = [
  { name: 'the database file was moved away', breakIt: (path) => renameSync(path, `${path}.movido`) },
  { name: 'the database file was replaced by something else', breakIt: (path) => writeFileSync(path, 'esto no es SQLite') },
]

for (const scenario of brokenDatabase) {
  test(`ping: 503 when ${scenario.name}`, () =>
    withService({}, async (service) => {
      scenario.breakIt(service.db.path)
      const response = await service.fetch('/api/v1/ping')
      assert.equal(response.status, 503)
      const body = (await response.json()) as Record<string, unknown>
      assert.deepEqual(
        { success: body.success, status: body.status, database: body.database, message: body.message },
        { success: false, status: 'error', database: 'error', message: 'La base de datos no se puede leer.' },
      )
    }))
}
