import { sql, type RawBuilder } from 'kysely'
import type { WarehouseScope } from './actor.ts'

/**
 * The SQL condition "this warehouse column is one of the actor's warehouses" (always true for an
 * actor of every warehouse). One statement text for any list of codes (json_each), so the
 * prepared-statement cache does not grow with the lists.
 */
export function inWarehouses(column: string, scope: WarehouseScope): RawBuilder<boolean> {
  if (scope === null) return sql<boolean>`1`
  return sql<boolean>`${sql.ref(column)} IN (SELECT value FROM json_each(${JSON.stringify(scope)}))`
}
