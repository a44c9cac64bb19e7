import assert from 'node:assert/strict'
import { test } from 'node:test'
import { closeDatabase, openDatabase } from '../../src/db/database.ts'
import { migrateDatabase } from '../../src/db/migrate.ts'
import { DERIVED_VALUES } from '../../src/app/derived-values.ts'
import { matchesSearch, searchMatchQuery, searchTerms } from '../../src/shared/search-terms.ts'

/**
 * One matching everywhere (issue 41): the words a search is cut into, and the same answer from the
 * invoice search index (FTS5, migration 12) and from `matchesSearch` (what the console and the
 * audit log use over a few rows). Each row: a client's name as stored, a search, whether it finds it.
 */
const NAME = 'FARMACIA DILCIA ESPINAL MEJÍA'
const rows: Array<{ name: string; text: string; search: string; terms?: string[]; found: boolean }> = [
  {
    name: 'no accents, another word order',
    text: NAME,
    search: 'mejia espinal',
    terms: ['mejia', 'espinal'],
    found: true,
  },
  {
    name: 'capitals and accents as stored',
    text: NAME,
    search: 'ESPINAL MEJÍA',
    terms: ['espinal', 'mejia'],
    found: true,
  },
  { name: 'the beginnings of words', text: NAME, search: 'farm dil mej', terms: ['farm', 'dil', 'mej'], found: true },
  { name: 'a word that is not there', text: NAME, search: 'mejia lopez', found: false },
  { name: 'a word in the middle of another does not match', text: NAME, search: 'macia', found: false },
  {
    name: 'punctuation separates words',
    text: 'SUPER "EL AHORRO", S. DE R.L.',
    search: 'ahorro s.',
    terms: ['ahorro', 's'],
    found: true,
  },
  { name: 'ñ is n', text: 'PULPERÍA ÑANDÚ', search: 'nandu', terms: ['nandu'], found: true },
  {
    name: 'an accent typed as a separate mark',
    text: 'JOSÉ PÉREZ',
    search: 'Jose\u0301',
    terms: ['jose'],
    found: true,
  },
  { name: 'a repeated word counts once', text: NAME, search: 'mejia MEJIA', terms: ['mejia'], found: true },
  {
    name: 'digits are words: a part of an invoice number',
    text: '001-001-01-00912001',
    search: '01 0091',
    terms: ['01', '0091'],
    found: true,
  },
  { name: 'digits must begin the word', text: '001-001-01-00912001', search: '912001', found: false },
  {
    name: 'nine words: the ninth is left out',
    text: 'A B C D E F G H',
    search: 'a b c d e f g h zzz',
    terms: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'],
    found: true,
  },
]

for (const row of rows) {
  test(`search matching: ${row.name}`, () => {
    const terms = searchTerms(row.search)
    if (row.terms) assert.deepEqual(terms, row.terms)
    assert.equal(matchesSearch(row.text, terms), row.found, 'matchesSearch')
    const db = openDatabase(':memory:')
    try {
      migrateDatabase(db, DERIVED_VALUES)
      db.sqlite.prepare('INSERT INTO invoice_search (rowid, cliente) VALUES (1, ?)').run(row.text)
      const hits = db.sqlite
        .prepare('SELECT rowid FROM invoice_search WHERE invoice_search MATCH ?')
        .pluck()
        .all(searchMatchQuery(terms))
      assert.deepEqual(hits, row.found ? [1] : [], 'the search index')
    } finally {
      closeDatabase(db)
    }
  })
}

test('search matching: a search without a letter or a digit has no words', () => {
  assert.deepEqual(searchTerms(' %-_" '), [])
})
