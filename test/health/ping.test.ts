import { renameSync, writeFileSync } from 'node:fs'
import { VERSION } from '../../src/core/version.ts'
import { refusal, testScenarios } from '../support/scenarios.ts'

const UNREADABLE = {
  ...refusal('La base de datos no se puede leer.'),
  status: 'error',
  service: 'manifiesto',
  version: VERSION,
  timestamp: '2026-11-22T10:00-06:00',
  database: 'error',
}

testScenarios('ping', [
  {
    name: '503 when the database file was moved away',
    setup: (service) => renameSync(service.db.path, `${service.db.path}.movido`),
    request: { path: '/api/v1/ping' },
    status: 503,
    body: UNREADABLE,
  },
  {
    name: '503 when the database file was replaced by something else',
    setup: (service) => writeFileSync(service.db.path, 'esto no es SQLite'),
    request: { path: '/api/v1/ping' },
    status: 503,
    body: UNREADABLE,
  },
  {
    name: '200 with the service, version, Honduras timestamp and database ok',
    service: { now: '2026-11-23T05:30:00.000Z' },
    request: { path: '/api/v1/ping' },
    status: 200,
    body: {
      success: true,
      status: 'ok',
      service: 'manifiesto',
      version: VERSION,
      timestamp: '2026-11-22T23:30-06:00',
      database: 'ok',
    },
  },
])
