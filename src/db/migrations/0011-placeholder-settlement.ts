import type { Migration } from './migration.ts'

/**
 * Version 11 belongs to settlement (issue 40), built on another branch. This branch (issue 41)
 * numbers its own migration 12 and holds 11's place with nothing, so that versions grow one at a
 * time; the merge takes settlement's file in place of this one.
 */
export const migration0011: Migration = {
  version: 11,
  name: 'placeholder for settlement (issue 40): changes nothing',
  sql: '',
}
