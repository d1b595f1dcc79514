import { UNICODE_LOWER, type Engine } from '@tempbox/db'
import { sql, type Expression, type SqlBool } from 'kysely'

/** One condition on a message; all of a filter's conditions apply (AND). Text matches are case-insensitive substrings. */
export type MessageCondition =
  | { kind: 'words' | 'from' | 'subject' | 'text'; value: string; negate?: boolean }
  | { kind: 'has_attachment' | 'has_code' | 'unread'; negate?: boolean }
  | { kind: 'before' | 'after'; at: number; negate?: boolean }

/** `value` as a LIKE pattern matching it anywhere, its own `%`, `_` and `\` taken literally (ESCAPE '\'). */
export function containsPattern(value: string): string {
  let out = '%'
  for (const ch of value) out += ch === '%' || ch === '_' || ch === '\\' ? `\\${ch}` : ch
  return `${out}%`
}

/**
 * SQLite's LIKE folds case for ASCII only, so a word with any other letter ("Über", "É") is matched on both sides
 * lower-cased by JavaScript's Unicode rules instead. That is a function call per row, so only for such words; ASCII
 * words keep LIKE. Either way the scan is one inbox's, which its quota bounds.
 */
const NON_ASCII = /[^\x00-\x7f]/

/** PostgreSQL's ILIKE folds case by the database's locale, beyond ASCII, so it needs no function of ours. */
const like = (engine: Engine, column: Expression<unknown>, value: string) =>
  engine === 'postgres'
    ? sql<SqlBool>`${column} ilike ${containsPattern(value)} escape '\\'`
    : NON_ASCII.test(value)
      ? sql<SqlBool>`instr(${sql.raw(UNICODE_LOWER)}(${column}), ${value.toLowerCase()}) > 0`
      : sql<SqlBool>`${column} like ${containsPattern(value)} escape '\\'`

// Stored columns only: the text part, or the HTML's text rendering derived at ingest; never a body parsed per request.
const TEXT = sql`coalesce(message_content.text, message_content.html_text, '')`
const SUBJECT = sql.ref('message.subject')
const FROM_NAME = sql.ref('message.from_name')
const FROM_ADDRESS = sql.ref('message.from_address')

function conditionSql(c: MessageCondition, engine: Engine): Expression<SqlBool> {
  switch (c.kind) {
    case 'subject':
      return like(engine, SUBJECT, c.value)
    case 'from':
      return sql<SqlBool>`(${like(engine, FROM_NAME, c.value)} or ${like(engine, FROM_ADDRESS, c.value)})`
    case 'text':
      return like(engine, TEXT, c.value)
    case 'words':
      return sql<SqlBool>`(${like(engine, SUBJECT, c.value)} or ${like(engine, FROM_NAME, c.value)} or ${like(engine, FROM_ADDRESS, c.value)} or ${like(engine, TEXT, c.value)})`
    case 'has_attachment':
      return sql<SqlBool>`message.attachment_count > 0`
    case 'has_code':
      return sql<SqlBool>`message_content.codes <> '[]'`
    case 'unread':
      return sql<SqlBool>`message.read_at is null`
    case 'before':
      return sql<SqlBool>`message.received_at < ${c.at}`
    case 'after':
      return sql<SqlBool>`message.received_at >= ${c.at}`
  }
}

/**
 * The SQL for all conditions (true when there are none), over `message` joined to `message_content`
 * (selectMessagesWithContent). Always used with an inbox_id condition, so it scans one inbox at most — which its quota caps.
 */
export function matchAll(conditions: readonly MessageCondition[], engine: Engine): Expression<SqlBool> {
  if (conditions.length === 0) return sql<SqlBool>`true`
  const parts = conditions.map((c) => (c.negate ? sql<SqlBool>`not (${conditionSql(c, engine)})` : conditionSql(c, engine)))
  return sql<SqlBool>`(${sql.join(parts, sql` and `)})`
}
