import { isUtf8 } from 'node:buffer'
import pg from 'pg'
import { NO_LIMITS, StoreRefusal, type IncomingMessage, type WriteMessages, type WriterLimits } from '../incoming-message.js'
import { IDS_PER_NOTIFICATION, NEW_MAIL_CHANNEL } from './notify.js'

/**
 * PostgreSQL's text cannot hold U+0000 (SQLite's can): a NUL a sender put in a header or body becomes U+FFFD rather than
 * failing the message. Bytes are passed on as they are when they are valid UTF-8 without a NUL: sent in binary, they
 * reach the column without a copy into a JavaScript string.
 */
function pgText<T extends string | Buffer | null>(value: T): T | string {
  if (value === null) return value
  if (typeof value === 'string') return value.includes('\0') ? value.replaceAll('\0', '\uFFFD') : value
  if (value.indexOf(0) === -1 && isUtf8(value)) return value
  return pgText(value.toString('utf8'))
}

const CONTENT_COLUMNS = [
  'id', 'raw_body_is_text', 'recipients', 'headers', 'text', 'html', 'raw', 'derived_version', 'preview', 'html_text', 'codes', 'links',
  'safe_html', 'has_remote_content', 'html_withheld',
] as const

function contentValues(id: number, { parsed, source, derived }: IncomingMessage): unknown[] {
  // In CONTENT_COLUMNS' order.
  return [
    id, source.bodyIsText ? 1 : 0, JSON.stringify(parsed.recipients), pgText(JSON.stringify(parsed.headers)), pgText(parsed.text), pgText(parsed.html), source.raw,
    derived.version, pgText(derived.preview), pgText(derived.htmlText), JSON.stringify(derived.codes), JSON.stringify(derived.links), pgText(derived.safeHtml),
    derived.hasRemoteContent ? 1 : 0, pgText(derived.htmlWithheld),
  ]
}

/** `($1, $2, …), ($16, …)`: `rows` rows of `columns` placeholders. */
function placeholders(rows: number, columns: number): string {
  const out: string[] = []
  for (let r = 0; r < rows; r++) out.push(`(${Array.from({ length: columns }, (_, c) => `$${r * columns + c + 1}`).join(', ')})`)
  return out.join(', ')
}

/** Large values (raw, text, HTML) as parameters of their own: a Buffer is sent in binary, never hex-escaped into an array. */
function insertContents(rows: number): pg.QueryConfig {
  return {
    // Named per row count (at most the ingest's batch size): PostgreSQL parses and plans each shape once per connection.
    name: `tempbox_insert_content_${rows}`,
    text: `INSERT INTO message_content (${CONTENT_COLUMNS.join(', ')}) VALUES ${placeholders(rows, CONTENT_COLUMNS.length)}`,
  }
}

/**
 * The small per-inbox rows as arrays, one statement whatever their number, which also NOTIFYs their ids (delivered at
 * COMMIT, in chunks a payload can hold: see notify.ts) and adds the `checking` rows — one round trip for all three.
 */
const INSERT_LISTINGS = {
  name: 'tempbox_insert_listings',
  // A data-modifying WITH runs whether or not the outer query reads it: the sender checks' `checking` rows ride along.
  text: `WITH checking AS (
      INSERT INTO message_auth (message_content_id, status) SELECT unnest($10::bigint[]), 'checking'
    ), listed AS (
      INSERT INTO message (inbox_id, message_content_id, from_name, from_address, subject, sent_at, received_at, size, attachment_count)
      SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::bigint[], $8::bigint[], $9::int[])
      RETURNING id, inbox_id
    ), numbered AS (SELECT id, inbox_id, (row_number() OVER () - 1) / ${IDS_PER_NOTIFICATION} AS chunk FROM listed)
    SELECT pg_notify('${NEW_MAIL_CHANNEL}', json_build_object('m', json_agg(json_build_array(id, inbox_id)))::text) FROM numbered GROUP BY chunk`,
}

const INSERT_ATTACHMENTS_SQL = (rows: number) =>
  `INSERT INTO attachment (message_content_id, position, filename, content_type, size, content_id, is_inline, content) VALUES ${placeholders(rows, 8)}`

/** Attachment rows per statement: their contents are parameters of their own, and a statement takes at most 65,535. */
const ATTACHMENTS_PER_STATEMENT = 256

/**
 * BEGIN, the lock and the id draw in ONE round trip: a simple-protocol query may hold several statements, and it takes no
 * parameters, so the inbox ids (integers, checked) are written into its text. The lock takes the batch's inboxes in id
 * order (two ingest nodes never wait on each other in a cycle) and reads what they hold: no other writer can add to them
 * before this transaction ends, so the quota check is exact across nodes. Content ids are drawn before the insert, so
 * the rows that point at them go in the same few statements; drawing ids the quota check then refuses only leaves a gap.
 */
function beginLockAndDraw(inboxIds: number[], count: number): string {
  for (const id of [...inboxIds, count]) if (!Number.isSafeInteger(id)) throw new TypeError(`not an integer id: ${id}`)
  return `BEGIN;
    SELECT id, message_count, bytes_used FROM inbox WHERE id = ANY('{${inboxIds.join(',')}}'::bigint[]) ORDER BY id FOR UPDATE;
    SELECT nextval(pg_get_serial_sequence('message_content', 'id'))::bigint AS id FROM generate_series(1, ${count})`
}

/** How long a measured database size is trusted: pg_database_size stats every file of the database. */
const SIZE_TTL_MS = 1000

/**
 * The ingest writer on PostgreSQL, with SQLite's semantics (storage/sqlite/write-messages.ts): a batch in ONE
 * transaction on one pooled connection, a message's content and attachments stored once however many of our
 * addresses it went to, per-inbox quotas refused as StoreRefusal (the inbox counters are kept by triggers), and the
 * content ids given only after COMMIT returned — with synchronous_commit on, once the WAL is flushed to disk.
 * A fixed number of statements per batch, whatever its size: on 2 cores the round trips and pg's per-query CPU
 * cost more than PostgreSQL's own work.
 */
export function createPostgresMessageWriter(pool: pg.Pool, limits: WriterLimits = NO_LIMITS, databaseBytes: () => Promise<number>): WriteMessages {
  let measured = { bytes: 0, at: -Infinity }
  const storeFull = async (incoming: number) => {
    if (limits.maxDatabaseBytes <= 0) return false
    if (Date.now() - measured.at > SIZE_TTL_MS) measured = { bytes: await databaseBytes(), at: Date.now() }
    return measured.bytes + incoming > limits.maxDatabaseBytes
  }

  return async (messages) => {
    if (messages.length === 0) return []
    const incoming = messages.reduce((sum, m) => sum + m.source.size, 0)
    if (await storeFull(incoming)) throw new StoreRefusal('storage_full', 'the database reached its size cap')
    const client = await pool.connect()
    let broken: Error | undefined
    try {
      try {
        const ids = await writeBatch(client, messages, limits)
        await client.query('COMMIT')
        return ids
      } catch (error) {
        // Also after a failure inside the first query: its BEGIN already ran, so the transaction is open (aborted).
        await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError))
        throw error
      }
    } catch (error) {
      // A connection that failed mid-query may be in any state: the pool drops it rather than lend it again.
      if (!(error instanceof StoreRefusal) && !(error instanceof pg.DatabaseError)) broken ??= error as Error
      throw error
    } finally {
      client.release(broken)
    }
  }
}

async function writeBatch(client: pg.PoolClient, messages: IncomingMessage[], limits: WriterLimits): Promise<number[]> {
  const inboxIds = [...new Set(messages.flatMap((m) => m.inboxIds))]
  // pg types a multi-statement query's result as one result; it is one per statement.
  const [, locked, drawn] = (await client.query(beginLockAndDraw(inboxIds, messages.length))) as unknown as pg.QueryResult[]
  const holds = new Map(locked!.rows.map((r: { id: number; message_count: number; bytes_used: number }) => [r.id, { count: r.message_count, bytes: r.bytes_used }]))
  for (const message of messages) checkQuota(message, holds, limits)
  const contentIds = drawn!.rows.map((r: { id: number }) => r.id)

  await client.query({ ...insertContents(messages.length), values: messages.flatMap((m, i) => contentValues(contentIds[i]!, m)) })

  const attachments = messages.flatMap((m, i) =>
    m.parsed.attachments.map((a, position) => [contentIds[i], position, pgText(a.filename), pgText(a.contentType), a.size, pgText(a.contentId), a.isInline ? 1 : 0, a.content]),
  )
  for (let start = 0; start < attachments.length; start += ATTACHMENTS_PER_STATEMENT) {
    const chunk = attachments.slice(start, start + ATTACHMENTS_PER_STATEMENT)
    await client.query(INSERT_ATTACHMENTS_SQL(chunk.length), chunk.flat())
  }

  const listing: unknown[][] = [[], [], [], [], [], [], [], [], []]
  messages.forEach(({ inboxIds: to, parsed, receivedAt, source }, i) => {
    for (const inboxId of to) {
      const row = [inboxId, contentIds[i], pgText(parsed.from.name), pgText(parsed.from.address), pgText(parsed.subject), parsed.sentAt, receivedAt, source.size, parsed.attachments.length]
      row.forEach((value, column) => listing[column]!.push(value))
    }
  })
  const checking = contentIds.filter((_, i) => messages[i]!.envelope)
  await client.query({ ...INSERT_LISTINGS, values: [...listing, checking] })
  return contentIds
}

/**
 * Refuses the message when it would take any of its inboxes past its quota, counting what the batch's earlier messages
 * add (SQLite's triggers count them as they go; here the locked rows were read once).
 */
function checkQuota(message: IncomingMessage, holds: Map<number, { count: number; bytes: number }>, limits: WriterLimits): void {
  let full = 0
  for (const inboxId of message.inboxIds) {
    const h = holds.get(inboxId)
    if (!h) continue
    if (h.count + 1 > limits.maxMessagesPerInbox || h.bytes + message.source.size > limits.maxInboxBytes) full++
  }
  if (full > 0) {
    throw new StoreRefusal(full === message.inboxIds.length ? 'mailbox_full' : 'some_mailboxes_full', `${full} of ${message.inboxIds.length} inboxes full`)
  }
  for (const inboxId of message.inboxIds) {
    const h = holds.get(inboxId)
    if (h) {
      h.count++
      h.bytes += message.source.size
    }
  }
}
