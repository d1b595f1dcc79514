import { foldForSearch } from '../storage/search-text.js'

/** A trigram index can only narrow a search by terms of at least this many characters (Unicode code points). */
export const MIN_INDEXED_CHARS = 3

/**
 * The folded terms a message must contain that are long enough for the trigram index (message_search_index on SQLite,
 * message_search_trgm on PostgreSQL). Negated and shorter terms narrow nothing: the scan checks those alone.
 */
export function indexedTerms(terms: readonly { value: string; negate?: boolean }[]): string[] {
  const folded = terms.filter((t) => !t.negate).map((t) => foldForSearch(t.value))
  return [...new Set(folded.filter((t) => Array.from(t).length >= MIN_INDEXED_CHARS))]
}

/**
 * An FTS5 query for rows holding every trigram of every term: a superset of the matches, each string one trigram
 * (SQLite's trigram tokenizer splits by code point, as Array.from does); the caller checks the real substrings after.
 */
export function trigramQuery(terms: readonly string[]): string {
  const grams = new Set<string>()
  for (const term of terms) {
    const points = Array.from(term)
    for (let i = 0; i + MIN_INDEXED_CHARS <= points.length; i++) grams.add(points.slice(i, i + MIN_INDEXED_CHARS).join(''))
  }
  return [...grams].map((g) => `"${g.replaceAll('"', '""')}"`).join(' AND ')
}

/** A LIKE pattern for the substring `term`, its `\`, `%` and `_` taken literally (PostgreSQL's default escape is `\`). */
export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}
