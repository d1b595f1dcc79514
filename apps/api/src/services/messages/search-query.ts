import { MAX_SEARCH_CHARS, MAX_SEARCH_TERMS } from '@tempbox/types'
import { AppError } from '../../errors.js'
import type { MessageCondition } from '../../repositories/message-filter.js'

/** Splits a query into terms in one pass: whitespace separates, double quotes group, a leading `-` negates. */
function tokenize(query: string): { raw: string; phrase: boolean; negate: boolean }[] {
  const tokens: { raw: string; phrase: boolean; negate: boolean }[] = []
  let i = 0
  while (i < query.length) {
    while (i < query.length && /\s/.test(query[i]!)) i++
    if (i >= query.length) break
    let negate = false
    if (query[i] === '-' && i + 1 < query.length && !/\s/.test(query[i + 1]!)) {
      negate = true
      i++
    }
    let raw = ''
    let quoted = false
    // A term that starts with a quote is a phrase, operators and all: `"from:me"` looks for that text.
    const phrase = query[i] === '"'
    // A quote opens a phrase anywhere in a term (`subject:"two words"`); an unclosed one runs to the end.
    while (i < query.length && (quoted || !/\s/.test(query[i]!))) {
      if (query[i] === '"') quoted = !quoted
      else raw += query[i]
      i++
    }
    tokens.push({ raw, phrase, negate })
  }
  return tokens
}

function day(value: string, operator: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  const at = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : NaN
  // Date.UTC rolls 2026-13-01 over into 2027; a date that does not come back as written was not a real one.
  if (!match || Number.isNaN(at) || new Date(at).toISOString().slice(0, 10) !== value) {
    throw new AppError('invalid_query', `"${operator}:" takes a date written YYYY-MM-DD, such as ${operator}:2026-11-23.`)
  }
  return at
}

/**
 * The conditions of an inbox search (`q`). Throws `invalid_query` (too long, too many terms, a bad date, an unknown
 * `has:` or `is:`) with a sentence saying what to change.
 */
export function parseSearch(query: string): MessageCondition[] {
  if (query.length > MAX_SEARCH_CHARS) {
    throw new AppError('invalid_query', `A search can be at most ${MAX_SEARCH_CHARS} characters long.`)
  }
  const tokens = tokenize(query).filter((t) => t.raw !== '')
  if (tokens.length > MAX_SEARCH_TERMS) {
    throw new AppError('invalid_query', `A search can have at most ${MAX_SEARCH_TERMS} terms.`)
  }
  return tokens.map(({ raw, phrase, negate }): MessageCondition => {
    const colon = phrase ? -1 : raw.indexOf(':')
    const operator = colon > 0 ? raw.slice(0, colon).toLowerCase() : ''
    const value = raw.slice(colon + 1)
    switch (operator) {
      case 'from':
      case 'subject':
        if (value === '') throw new AppError('invalid_query', `"${operator}:" needs something to look for, such as ${operator}:welcome.`)
        return { kind: operator, value, negate }
      case 'has':
        if (value.toLowerCase() === 'attachment') return { kind: 'has_attachment', negate }
        if (value.toLowerCase() === 'code') return { kind: 'has_code', negate }
        throw new AppError('invalid_query', '"has:" can be has:attachment or has:code.')
      case 'is':
        // is:read is not-unread, so `-is:read` and `is:unread` are the same condition.
        if (value.toLowerCase() === 'unread') return { kind: 'unread', negate }
        if (value.toLowerCase() === 'read') return { kind: 'unread', negate: !negate }
        throw new AppError('invalid_query', '"is:" can be is:unread or is:read.')
      case 'to':
        // Every message of an inbox is to its address: only the +tag it was sent to tells them apart.
        if (!value.startsWith('+') || value.length < 2) throw new AppError('invalid_query', '"to:" takes the +tag a message was sent to, such as to:+newsletter.')
        return { kind: 'to_tag', tag: value.slice(1).toLowerCase(), negate }
      case 'before':
        return { kind: 'before', at: day(value, operator), negate }
      case 'after':
        return { kind: 'after', at: day(value, operator), negate }
      default:
        // Not an operator (`http://x`, `10:30`): the whole term is words.
        return { kind: 'words', value: raw, negate }
    }
  })
}
