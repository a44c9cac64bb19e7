/**
 * How every search of the service and the console matches text (issue 41): case and accents do
 * not count, nor does word order, and a word typed in part matches (`mejia espin` finds
 * "FARMACIA DILCIA ESPINAL MEJÍA"). Text is cut into words the way SQLite's FTS5 tokenizer
 * `unicode61 remove_diacritics 2` cuts it — letters, digits and private-use characters make words,
 * everything else separates them — and each word is folded: lower case, accents removed. A search
 * matches when each of its words begins a word of the text.
 *
 * The invoice search index (migration 12) is that tokenizer, queried with the same words as
 * prefixes (`searchMatchQuery`); searches over a few rows (a list the console already holds, the
 * audit log's people) use `matchesSearch`. test/search/matching.test.ts holds both to one answer.
 * Runs in the browser too: no Node, no imports.
 */

/** A search is cut to its first words: a longer one is a pasted paragraph, not a search. */
export const MAX_SEARCH_TERMS = 8

const WORD = /[\p{L}\p{N}\p{M}\p{Co}]+/gu
const MARKS = /\p{M}/gu

/** One word folded as FTS5 folds it: lower case, without accents (`MEJÍA` → `mejia`, `Ñ` → `n`). */
export function foldWord(word: string): string {
  return word.toLowerCase().normalize('NFD').replace(MARKS, '').normalize('NFC')
}

/** The folded words of a text, in order (repeated ones too). */
export function wordsOf(text: string): string[] {
  const words: string[] = []
  for (const match of text.normalize('NFC').matchAll(WORD)) {
    const folded = foldWord(match[0])
    if (folded !== '') words.push(folded)
  }
  return words
}

/** The words a search looks for: folded, each once, at most MAX_SEARCH_TERMS; empty when it has none. */
export function searchTerms(text: string): string[] {
  return [...new Set(wordsOf(text))].slice(0, MAX_SEARCH_TERMS)
}

/** Whether every term begins some word of one of the texts (null texts have no words). */
export function matchesSearch(
  texts: string | ReadonlyArray<string | null | undefined>,
  terms: readonly string[],
): boolean {
  if (terms.length === 0) return true
  const words = (typeof texts === 'string' ? [texts] : texts).flatMap((text) => (text == null ? [] : wordsOf(text)))
  return terms.every((term) => words.some((word) => word.startsWith(term)))
}

/**
 * The FTS5 query for the terms: each a prefix (`"mejia"* AND "espinal"*`), optionally within one
 * column. Terms hold only word characters (searchTerms made them), so quoting each is enough.
 */
export function searchMatchQuery(terms: readonly string[], column?: string): string {
  const quoted = terms.map((term) => `"${term.replace(/"/g, '""')}"*`).join(' AND ')
  return column === undefined ? quoted : `{${column}} : (${quoted})`
}

/** The FTS5 query "these words, whole, in this column" (a manifest's number among an invoice's words). */
export function exactWordsQuery(text: string, column: string): string {
  const words = [...new Set(wordsOf(text))]
  return words.length === 0
    ? ''
    : `{${column}} : (${words.map((word) => `"${word.replace(/"/g, '""')}"`).join(' AND ')})`
}
