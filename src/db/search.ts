import { sql, type RawBuilder } from 'kysely'

/**
 * "Any of these columns contains `text`", ignoring case (SQLite's LIKE folds ASCII letters only:
 * accented letters must match as written). `%`, `_` and `\` in the text are literal.
 */
export function containsText(columns: readonly string[], text: string): RawBuilder<boolean> {
  const pattern = `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`
  const tests = columns.map((column) => sql`${sql.ref(column)} LIKE ${pattern} ESCAPE '\\'`)
  return sql<boolean>`(${sql.join(tests, sql` OR `)})`
}
