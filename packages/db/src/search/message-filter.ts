import { sql, type Expression, type SqlBool } from 'kysely'
import type { Engine } from '../create-db.js'
import { foldForSearch } from '../storage/search-text.js'

/** One condition on a message; all of a filter's conditions apply (AND). Text matches are case-insensitive substrings. */
export type MessageCondition =
  | { kind: 'words' | 'from' | 'subject' | 'text'; value: string; negate?: boolean }
  | { kind: 'has_attachment' | 'has_code' | 'unread'; negate?: boolean }
  | { kind: 'before' | 'after'; at: number; negate?: boolean }
  /** Delivered to the inbox's `+tag` sub-address (`to:+tag`): the tag as stored, lower case. */
  | { kind: 'to_tag'; tag: string; negate?: boolean }

export type TextCondition = Extract<MessageCondition, { value: string }>
type OtherCondition = Exclude<MessageCondition, TextCondition>

/**
 * Text conditions are looked for in the message's search copy (message_search: subject, sender and text folded at
 * ingest, each cut at SEARCH_TEXT_MAX_CHARS), terms folded the same way: the database's own instr()/strpos(), no
 * function of ours per row, and never more than the copy's characters read per message.
 */
export const COLUMNS: Record<TextCondition['kind'], string[]> = {
  subject: ['subject'],
  from: ['from_name', 'from_address'],
  text: ['body'],
  words: ['subject', 'from_name', 'from_address', 'body'],
}

function contains(engine: Engine, c: TextCondition): Expression<SqlBool> {
  const term = foldForSearch(c.value)
  const found = COLUMNS[c.kind].map((column) =>
    engine === 'postgres' ? sql<SqlBool>`strpos(s.${sql.raw(column)}, ${term}) > 0` : sql<SqlBool>`instr(s.${sql.raw(column)}, ${term}) > 0`,
  )
  const any = sql<SqlBool>`(${sql.join(found, sql` or `)})`
  return c.negate ? sql<SqlBool>`not ${any}` : any
}

/**
 * All text conditions as one scalar subquery on the content's primary key: it fits any query over `message`, runs per
 * row scanned (PostgreSQL made an EXISTS a semi-join testing every inbox's rows), and reads the copy once for all terms:
 * on PostgreSQL `|| ''` under OFFSET 0 fetches each out-of-line value once, where each strpos() fetched it again.
 */
function containsAll(engine: Engine, conditions: TextCondition[]): Expression<SqlBool> {
  const all = sql.join(conditions.map((c) => contains(engine, c)), sql` and `)
  if (engine === 'sqlite') {
    return sql<SqlBool>`coalesce((select ${all} from message_search s where s.message_content_id = message.message_content_id), false)`
  }
  return sql<SqlBool>`coalesce((select ${all} from (
    select subject || '' as subject, from_name || '' as from_name, from_address || '' as from_address, body || '' as body
    from message_search where message_content_id = message.message_content_id offset 0) s), false)`
}

function conditionSql(c: OtherCondition): Expression<SqlBool> {
  switch (c.kind) {
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
    case 'to_tag':
      return sql<SqlBool>`coalesce(message.rcpt_tag = ${c.tag}, false)`
  }
}

export const isText = (c: MessageCondition): c is TextCondition => 'value' in c

/**
 * The SQL for all conditions (true when there are none), over `message` joined to `message_content`
 * (selectMessagesWithContent). Always used with an inbox_id condition, so it scans one inbox at most — which its quota caps;
 * a listing's search scans it in slices (message-search.ts).
 */
export function matchAll(conditions: readonly MessageCondition[], engine: Engine): Expression<SqlBool> {
  if (conditions.length === 0) return sql<SqlBool>`true`
  const parts = conditions.flatMap((c) => (isText(c) ? [] : [c.negate ? sql<SqlBool>`not (${conditionSql(c)})` : conditionSql(c)]))
  const text = conditions.filter(isText)
  if (text.length > 0) parts.push(containsAll(engine, text))
  return sql<SqlBool>`(${sql.join(parts, sql` and `)})`
}
