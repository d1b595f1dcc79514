import { sql } from 'kysely'
import type { Db } from './create-db.js'
import { engineOf } from './postgres-db.js'
import { VIEW_HEADER_LIMITS } from './storage/stored-headers.js'

export interface ViewHeader {
  name: string
  value: string
  truncated: boolean
}

type HeaderRow = { name: string | null; value: string | null }

/**
 * The first VIEW_HEADER_LIMITS.count header lines of a message, each cut to VIEW_HEADER_LIMITS.valueChars, and whether
 * more lines follow. The database walks the stored JSON (`[[name, value], …]`, or `{name, value}` objects in older rows)
 * and hands back only the cut pieces, so a multi-MB headers blob is never parsed in JavaScript nor sent.
 */
export async function findViewHeaders(db: Db, messageContentId: number): Promise<{ headers: ViewHeader[]; more: boolean }> {
  const { valueChars, count } = VIEW_HEADER_LIMITS
  let rows: HeaderRow[]
  try {
    rows = (await (engineOf(db) === 'postgres' ? postgresViewHeaders : sqliteViewHeaders)(db, messageContentId)).rows
  } catch {
    // Headers that are not valid JSON (none are written so): show none rather than fail the whole view.
    return { headers: [], more: false }
  }
  const more = rows.length > count
  const headers = rows.slice(0, count).flatMap((r): ViewHeader[] => {
    if (r.name === null) return []
    const value = r.value === null ? '' : String(r.value)
    return [{ name: String(r.name), value: value.slice(0, valueChars), truncated: value.length > valueChars }]
  })
  return { headers, more }
}

function sqliteViewHeaders(db: Db, messageContentId: number) {
  const { valueChars, count } = VIEW_HEADER_LIMITS
  return sql<HeaderRow>`
    select
      substr(case h.type when 'array' then h.value ->> 0 else h.value ->> '$.name' end, 1, ${valueChars}) as name,
      substr(case h.type when 'array' then h.value ->> 1 else h.value ->> '$.value' end, 1, ${valueChars + 1}) as value
    from message_content c, json_each(c.headers) h
    where c.id = ${messageContentId} and h.type in ('array', 'object')
    limit ${count + 1}`.execute(db)
}

function postgresViewHeaders(db: Db, messageContentId: number) {
  const { valueChars, count } = VIEW_HEADER_LIMITS
  return sql<HeaderRow>`
    select
      substr(case json_typeof(h) when 'array' then h ->> 0 else h ->> 'name' end, 1, ${valueChars}) as name,
      substr(case json_typeof(h) when 'array' then h ->> 1 else h ->> 'value' end, 1, ${valueChars + 1}) as value
    from message_content c, json_array_elements(c.headers::json) h
    where c.id = ${messageContentId} and json_typeof(h) in ('array', 'object')
    limit ${count + 1}`.execute(db)
}
