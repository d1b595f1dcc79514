import { sql, type AliasedRawBuilder, type Expression, type RawBuilder, type SqlBool } from 'kysely'
import type { Db } from './create-db.js'
import { engineOf } from './postgres-db.js'
import { matchAll, type MessageCondition } from './search/message-filter.js'

/**
 * The SQL that differs by engine, as expressions the apps' queries take: the apps never ask which engine runs.
 */

/**
 * Whether the message's content has HTML, without reading it: SQLite answers typeof() from the record header, whereas
 * `html IS NOT NULL` loads the whole value first (5 ms for 9 MB). PostgreSQL answers IS NOT NULL from the null bitmap.
 */
export function hasHtml(db: Db): AliasedRawBuilder<number, 'has_html'> {
  return engineOf(db) === 'sqlite'
    ? sql<number>`typeof(message_content.html) != 'null'`.as('has_html')
    : sql<number>`cast(message_content.html is not null as integer)`.as('has_html')
}

/**
 * A text value as UTF-8 bytes. SQLite hands a BLOB over as a Buffer without decoding it; node-postgres decodes every
 * text result, so there it stays a string (the caller takes either).
 */
export function asUtf8Bytes(db: Db, value: RawBuilder<string | null>): RawBuilder<string | null> {
  return engineOf(db) === 'sqlite' ? sql<string | null>`cast(${value} as blob)` : value
}

/** True where the message matches every condition (search/message-filter.ts), for any query over `message` joined to its content. */
export function matchesAll(db: Db, conditions: readonly MessageCondition[]): Expression<SqlBool> {
  return matchAll(conditions, engineOf(db))
}

/** `column` is none of `ids`, bound as one parameter however many: thousands of placeholders cost more to bind than the read. */
export function notAmongIds(db: Db, column: string, ids: readonly number[]): RawBuilder<boolean> {
  return engineOf(db) === 'postgres'
    ? sql<boolean>`${sql.ref(column)} <> all(cast(${[...ids]} as bigint[]))`
    : sql<boolean>`${sql.ref(column)} NOT IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`
}

/** A column of jsonRecords: its SQL type on PostgreSQL (SQLite keeps each JSON value's own type). */
export type JsonRecordType = 'bigint' | 'integer' | 'text'

/**
 * The objects of a JSON array as the rows of a FROM item `alias`, one column per key: a batch as one parameter, so the
 * statement's text is the same for every batch (prepared once).
 */
export function jsonRecords(db: Db, json: string, alias: string, columns: Readonly<Record<string, JsonRecordType>>): RawBuilder<unknown> {
  const names = Object.keys(columns)
  if (engineOf(db) === 'postgres') {
    const types = sql.join(names.map((name) => sql`${sql.id(name)} ${sql.raw(columns[name]!)}`))
    return sql`jsonb_to_recordset(cast(${json} as jsonb)) AS ${sql.id(alias)}(${types})`
  }
  const values = sql.join(names.map((name) => sql`value ->> ${sql.lit(name)} AS ${sql.id(name)}`))
  return sql`(SELECT ${values} FROM json_each(${json})) AS ${sql.id(alias)}`
}

/**
 * Whether a row can commit with an id below one a reader already saw: PostgreSQL takes sequence values before commit,
 * in any order; SQLite's one writer takes them inside its transaction, so they commit in order.
 */
export function lateCommits(db: Db): boolean {
  return engineOf(db) === 'postgres'
}
