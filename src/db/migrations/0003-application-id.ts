import { MANIFIESTO_APPLICATION_ID, type Migration } from './migration.ts'

export const migration0003: Migration = {
  version: 3,
  name: "the file's header names it a manifiesto database (application_id)",
  sql: `PRAGMA application_id = ${MANIFIESTO_APPLICATION_ID};`,
}
