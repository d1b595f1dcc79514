import { isUtf8 } from 'node:buffer'
import pg from 'pg'
import { NO_LIMITS, StoreRefusal, type MessageToStore, type WriteMessages, type WriterLimits } from '../message-to-store.js'
import { storedHeaders } from '../stored-headers.js'
import { searchCopyFor } from '../search-text.js'
import { IDS_PER_NOTIFICATION, NEW_MAIL_CHANNEL } from './notify.js'
import { DEFAULT_DELIVERY_LOG_ENTRIES } from '../../delivery-log.js'

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

/** A message's content row, after its batch position (`ord`, from 1): what the statement's VALUES list takes per message. */
const CONTENT_COLUMNS = [
  ['raw_body_is_text', 'int'], ['recipients', 'text'], ['headers', 'text'], ['text', 'text'], ['html', 'text'], ['raw', 'bytea'],
  ['derived_version', 'int'], ['preview', 'text'], ['html_text', 'text'], ['codes', 'text'], ['links', 'text'], ['safe_html', 'text'],
  ['has_remote_content', 'int'], ['html_withheld', 'text'],
] as const

const ATTACHMENT_COLUMNS = [
  ['position', 'int'], ['filename', 'text'], ['content_type', 'text'], ['size', 'bigint'], ['content_id', 'text'], ['is_inline', 'int'], ['content', 'bytea'],
] as const

function contentValues(ord: number, { parsed, source, derived }: MessageToStore): unknown[] {
  // In CONTENT_COLUMNS' order.
  return [
    ord, source.bodyIsText ? 1 : 0, JSON.stringify(parsed.recipients), pgText(JSON.stringify(storedHeaders(parsed.headers))), pgText(parsed.text), pgText(parsed.html), source.raw,
    derived.version, pgText(derived.preview), pgText(derived.htmlText), JSON.stringify(derived.codes), JSON.stringify(derived.links), pgText(derived.safeHtml),
    derived.hasRemoteContent ? 1 : 0, pgText(derived.htmlWithheld),
  ]
}

/**
 * `rows` rows of `(ord, column…)` placeholders from `$first`, each cast to its column's type. Large values (raw, text,
 * HTML, attachments) are parameters of their own: a Buffer is sent in binary, never hex-escaped into an array.
 */
function valuesList(rows: number, columns: readonly (readonly [string, string])[], first: number): string {
  const types = ['int', ...columns.map(([, type]) => type)]
  const out: string[] = []
  for (let r = 0; r < rows; r++) out.push(`(${types.map((type, c) => `$${first + r * types.length + c}::${type}`).join(', ')})`)
  return out.join(', ')
}

/** The smallest power of two ≥ n: a batch's rows are padded to it, so few statement shapes exist (each parsed and planned once per connection). */
function roundedUp(n: number): number {
  return n <= 1 ? 1 : 2 ** Math.ceil(Math.log2(n))
}

/** Attachment rows the batch statement takes at most (a statement takes at most 65,535 parameters); more go in statements of their own. */
const ATTACHMENTS_IN_STATEMENT = 1024
/** Attachment rows per further statement. */
const ATTACHMENTS_PER_STATEMENT = 256

/** The batch statement's parameters before its VALUES lists. */
const FIXED_PARAMETERS = 21

/**
 * The whole batch as ONE statement, which commits by itself: a batch costs one round trip and one parse and plan per
 * connection and shape (a named statement), whatever its size. In order:
 * - `locked` takes the batch's inboxes in id order (two ingest nodes never wait on each other in a cycle) and reads
 *   what they hold, as committed by whoever held them before: no other writer can add to them until this commits, so
 *   the quota check is exact across nodes;
 * - `refused` is the first message that would take one of its inboxes past its quota, counting what the batch's earlier
 *   messages add (`full_inboxes`: how many of its inboxes), checked before anything is written (the window sorts all of
 *   `locked` first); with one, `drawn` is empty and nothing is inserted;
 * - `drawn` gives each message its content id, and the inserts join on it: contents, attachments, a listing row per
 *   inbox (in batch order, so listing ids rise with it), the sender checks' `checking` rows;
 * - `logged` writes each pair's `accepted` delivery_log entry (when it has a reason: `$18`–`$19`, per pair), and
 *   `trimmed` drops the older entries of the inboxes due a trim (`$21`) so that, with the new ones, `$20` are left (it
 *   sees the table as before);
 * - `notified` NOTIFYs the listing ids (delivered at commit, in chunks a payload can hold: see notify.ts).
 * Message-level values are arrays (`$2`–`$9` and the search copies' `$14`–`$17`, by position in the batch); large values are in the VALUES lists, padded
 * to a power of two with rows of NULLs, which join nothing.
 */
function batchStatement(messageRows: number, attachmentRows: number): pg.QueryConfig {
  const name = `tempbox_write_batch_${messageRows}_${attachmentRows}`
  let statement = statements.get(name)
  if (!statement) statements.set(name, (statement = { name, text: batchStatementText(messageRows, attachmentRows) }))
  return statement
}

/** The batch statements built so far, by name: one per power of two of messages and of attachments (9 × 12 up to 256 and 1,024). */
const statements = new Map<string, pg.QueryConfig>()

function batchStatementText(messageRows: number, attachmentRows: number): string {
  const contentsFrom = FIXED_PARAMETERS + 1
  const attachmentsFrom = contentsFrom + messageRows * (CONTENT_COLUMNS.length + 1)
  const attachments = attachmentRows === 0 ? '' : `
    attached AS (
      INSERT INTO attachment (message_content_id, ${ATTACHMENT_COLUMNS.map(([name]) => name).join(', ')})
      SELECT d.id, ${ATTACHMENT_COLUMNS.map(([name]) => `a.${name}`).join(', ')}
      FROM (VALUES ${valuesList(attachmentRows, ATTACHMENT_COLUMNS, attachmentsFrom)}) AS a (ord, ${ATTACHMENT_COLUMNS.map(([name]) => name).join(', ')})
      JOIN drawn d ON d.ord = a.ord
    ),`
  return `WITH locked AS MATERIALIZED (
      SELECT id, message_count, bytes_used FROM inbox WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE
    ), batch AS MATERIALIZED (
      SELECT * FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::bigint[], $8::int[], $9::bool[])
        WITH ORDINALITY AS b (size, from_name, from_address, subject, sent_at, received_at, attachment_count, checking, ord)
    ), pair AS MATERIALIZED (
      SELECT * FROM unnest($10::int[], $11::bigint[], $18::text[], $19::text[]) AS p (ord, inbox_id, tag, reason)
    ), refused AS MATERIALIZED (
      SELECT ord, count(*) AS full_inboxes FROM (
        SELECT p.ord, l.message_count + count(*) OVER w AS messages, l.bytes_used + sum(b.size) OVER w AS bytes
        FROM pair p JOIN locked l ON l.id = p.inbox_id JOIN batch b ON b.ord = p.ord
        WINDOW w AS (PARTITION BY p.inbox_id ORDER BY p.ord)
      ) counted
      WHERE messages > $12 OR bytes > $13
      GROUP BY ord ORDER BY ord LIMIT 1
    ), drawn AS MATERIALIZED (
      SELECT ord, nextval(pg_get_serial_sequence('message_content', 'id'))::bigint AS id FROM batch WHERE NOT EXISTS (SELECT FROM refused)
    ), contents AS (
      INSERT INTO message_content (id, ${CONTENT_COLUMNS.map(([name]) => name).join(', ')})
      SELECT d.id, ${CONTENT_COLUMNS.map(([name]) => `c.${name}`).join(', ')}
      FROM (VALUES ${valuesList(messageRows, CONTENT_COLUMNS, contentsFrom)}) AS c (ord, ${CONTENT_COLUMNS.map(([name]) => name).join(', ')})
      JOIN drawn d ON d.ord = c.ord
    ), searched AS (
      INSERT INTO message_search (message_content_id, subject, from_name, from_address, body)
      SELECT d.id, s.subject, s.from_name, s.from_address, s.body
      FROM unnest($14::text[], $15::text[], $16::text[], $17::text[]) WITH ORDINALITY AS s (subject, from_name, from_address, body, ord)
      JOIN drawn d ON d.ord = s.ord
    ),${attachments}
    listed AS (
      INSERT INTO message (inbox_id, message_content_id, from_name, from_address, subject, sent_at, received_at, size, attachment_count, rcpt_tag)
      SELECT p.inbox_id, d.id, b.from_name, b.from_address, b.subject, b.sent_at, b.received_at, b.size, b.attachment_count, p.tag
      FROM pair p JOIN batch b ON b.ord = p.ord JOIN drawn d ON d.ord = p.ord ORDER BY p.ord
      RETURNING id, inbox_id, message_content_id
    ), logged AS (
      INSERT INTO delivery_log (inbox_id, at, result, reply_code, enhanced_status, reason, size, tag, message_id)
      SELECT l.inbox_id, b.received_at, 'accepted', 250, '2.0.0', p.reason, b.size, p.tag, l.id
      FROM listed l JOIN drawn d ON d.id = l.message_content_id JOIN pair p ON p.ord = d.ord AND p.inbox_id = l.inbox_id
      JOIN batch b ON b.ord = d.ord WHERE p.reason IS NOT NULL ORDER BY l.id
    ), trimmed AS (
      DELETE FROM delivery_log x USING (
        SELECT t.inbox_id, (SELECT y.id FROM delivery_log y WHERE y.inbox_id = t.inbox_id ORDER BY y.id DESC OFFSET greatest($20::int - t.n, 0) LIMIT 1) AS cut
        FROM (
          SELECT p.inbox_id, count(*) AS n FROM pair p
          WHERE p.reason IS NOT NULL AND p.inbox_id = ANY($21::bigint[]) AND EXISTS (SELECT FROM drawn) GROUP BY p.inbox_id
        ) t
      ) c
      WHERE x.inbox_id = c.inbox_id AND x.id <= c.cut
    ), checking AS (
      INSERT INTO message_auth (message_content_id, status) SELECT d.id, 'checking' FROM batch b JOIN drawn d ON d.ord = b.ord WHERE b.checking
    ), notified AS MATERIALIZED (
      SELECT pg_notify('${NEW_MAIL_CHANNEL}', json_build_object('m', json_agg(json_build_array(id, inbox_id)))::text)
      FROM (SELECT id, inbox_id, (row_number() OVER () - 1) / ${IDS_PER_NOTIFICATION} AS chunk FROM listed) l GROUP BY chunk
    )
    SELECT (SELECT array_agg(id ORDER BY ord) FROM drawn) AS ids, (SELECT ord FROM refused) AS refused, (SELECT full_inboxes FROM refused) AS full_inboxes,
      (SELECT count(*) FROM notified) AS notifications`
}

/** The big statement's attachment rows beyond ATTACHMENTS_IN_STATEMENT, once the content ids are known. */
const INSERT_ATTACHMENTS_SQL = (rows: number) =>
  `INSERT INTO attachment (message_content_id, ${ATTACHMENT_COLUMNS.map(([name]) => name).join(', ')}) VALUES ${
    Array.from({ length: rows }, (_, r) => `(${Array.from({ length: 8 }, (_, c) => `$${r * 8 + c + 1}`).join(', ')})`).join(', ')}`

/** How long a measured database size is trusted: pg_database_size stats every file of the database. */
const SIZE_TTL_MS = 1000

/**
 * The ingest writer on PostgreSQL, with SQLite's semantics (storage/sqlite/write-messages.ts): a batch in ONE
 * transaction, a message's content and attachments stored once however many of our addresses it went to, per-inbox
 * quotas refused as StoreRefusal (the inbox counters are kept by triggers), and the content ids given only after the
 * commit returned — with synchronous_commit on, once the WAL is flushed to disk. On 2 cores the round trips and pg's
 * per-query CPU cost more than PostgreSQL's own work, so a batch is one statement (see batchStatement), committed as it
 * ends; only a batch with more attachments than it takes becomes a transaction of several.
 */
export function createPostgresMessageWriter(pool: pg.Pool, limits: WriterLimits = NO_LIMITS, databaseBytes: () => Promise<number>): WriteMessages {
  let measured = { bytes: 0, at: -Infinity }
  const storeFull = async (incoming: number) => {
    if (limits.maxDatabaseBytes <= 0) return false
    if (Date.now() - measured.at > SIZE_TTL_MS) measured = { bytes: await databaseBytes(), at: Date.now() }
    return measured.bytes + incoming > limits.maxDatabaseBytes
  }

  const trims = trimCadence(limits.deliveryLogEntries ?? DEFAULT_DELIVERY_LOG_ENTRIES)

  return async (messages) => {
    if (messages.length === 0) return []
    const incoming = messages.reduce((sum, m) => sum + m.source.size, 0)
    if (await storeFull(incoming)) throw new StoreRefusal('storage_full', 'the database reached its size cap')
    const trim = trims.plan(messages)
    const { statement, rest } = batchOf(messages, limits, trim.due)
    const client = await pool.connect()
    let broken: Error | undefined
    try {
      // A batch whose attachments do not all fit in the statement is a transaction of several (rare: over a thousand attachments).
      if (rest.length === 0) {
        const contentIds = await runBatch(client, messages, statement)
        trim.committed()
        return contentIds
      }
      await client.query('BEGIN')
      try {
        const contentIds = await runBatch(client, messages, statement)
        for (const row of rest) row[0] = contentIds[(row[0] as number) - 1]
        for (let start = 0; start < rest.length; start += ATTACHMENTS_PER_STATEMENT) {
          const chunk = rest.slice(start, start + ATTACHMENTS_PER_STATEMENT)
          await client.query(INSERT_ATTACHMENTS_SQL(chunk.length), chunk.flat())
        }
        await client.query('COMMIT')
        trim.committed()
        return contentIds
      } catch (error) {
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

/**
 * Which inboxes a batch trims the delivery log of: each once per tenth of `keep` entries it gets, not at every batch.
 * A trim's DELETE reads the index entries of the inbox's earlier trims until VACUUM takes their dead rows away: trimmed
 * at every batch, it cost the server ~2 ms of CPU a message and ingest ran at ~400 msg/s instead of ~1,600. An inbox so
 * holds at most `keep` + 2 × `keep` / 10 entries (past 10,000 inboxes counted, the counts start over).
 */
function trimCadence(keep: number) {
  const slack = Math.max(1, Math.ceil(keep / 10))
  let untrimmed = new Map<number, number>()
  return {
    plan(messages: MessageToStore[]): { due: number[]; committed: () => void } {
      const next = new Map<number, number>()
      for (const m of messages) m.inboxIds.forEach((inboxId, i) => {
        if (m.deliveries?.[i]?.reason) next.set(inboxId, (next.get(inboxId) ?? untrimmed.get(inboxId) ?? 0) + 1)
      })
      const due = [...next].filter(([, count]) => count >= slack).map(([inboxId]) => inboxId)
      return {
        due,
        committed: () => {
          if (untrimmed.size > 10_000) untrimmed = new Map()
          for (const [inboxId, count] of next) untrimmed.set(inboxId, count)
          for (const inboxId of due) untrimmed.delete(inboxId)
        },
      }
    },
  }
}

/** The batch statement with its values, and the attachment rows (`[ord, …]`) beyond what it takes. */
function batchOf(messages: MessageToStore[], limits: WriterLimits, trimmed: number[]): { statement: pg.QueryConfig; rest: unknown[][] } {
  const inboxIds = [...new Set(messages.flatMap((m) => m.inboxIds))]
  const attachments = messages.flatMap((m, i) =>
    m.parsed.attachments.map((a, position) => [i + 1, position, pgText(a.filename), pgText(a.contentType), a.size, pgText(a.contentId), a.isInline ? 1 : 0, a.content]),
  )
  const inStatement = attachments.slice(0, ATTACHMENTS_IN_STATEMENT)
  const messageRows = roundedUp(messages.length)
  const attachmentRows = inStatement.length === 0 ? 0 : roundedUp(inStatement.length)

  const pairOrd: number[] = []
  const pairInbox: number[] = []
  messages.forEach(({ inboxIds: to }, i) => {
    for (const inboxId of to) {
      pairOrd.push(i + 1)
      pairInbox.push(inboxId)
    }
  })
  // In the order of the statement's $1–$21.
  const values: unknown[] = [
    inboxIds,
    messages.map((m) => m.source.size),
    messages.map((m) => pgText(m.parsed.from.name)),
    messages.map((m) => pgText(m.parsed.from.address)),
    messages.map((m) => pgText(m.parsed.subject)),
    messages.map((m) => m.parsed.sentAt),
    messages.map((m) => m.receivedAt),
    messages.map((m) => m.parsed.attachments.length),
    messages.map((m) => m.envelope !== undefined),
    pairOrd,
    pairInbox,
    // No limit: NULL, which no count exceeds.
    Number.isFinite(limits.maxMessagesPerInbox) ? limits.maxMessagesPerInbox : null,
    Number.isFinite(limits.maxInboxBytes) ? limits.maxInboxBytes : null,
    ...searchArrays(messages),
    messages.flatMap((m) => m.inboxIds.map((_, i) => m.deliveries?.[i]?.tag ?? null)),
    messages.flatMap((m) => m.inboxIds.map((_, i) => m.deliveries?.[i]?.reason ?? null)),
    limits.deliveryLogEntries ?? DEFAULT_DELIVERY_LOG_ENTRIES,
    trimmed,
  ]
  messages.forEach((m, i) => values.push(...contentValues(i + 1, m)))
  values.length += (messageRows - messages.length) * (CONTENT_COLUMNS.length + 1)
  for (const row of inStatement) values.push(...row)
  values.length += (attachmentRows - inStatement.length) * (ATTACHMENT_COLUMNS.length + 1)
  return { statement: { ...batchStatement(messageRows, attachmentRows), values: Array.from(values, (v) => v ?? null) }, rest: attachments.slice(ATTACHMENTS_IN_STATEMENT) }
}

/** The batch's search copies as the statement's $14–$17: subjects, sender names, sender addresses, bodies. */
function searchArrays(messages: MessageToStore[]): string[][] {
  const copies = messages.map(searchCopyFor)
  return [copies.map((c) => pgText(c.subject)), copies.map((c) => pgText(c.fromName)), copies.map((c) => pgText(c.fromAddress)), copies.map((c) => pgText(c.body))]
}

/** Runs the batch statement: the content ids in batch order, or the quota's refusal. */
async function runBatch(client: pg.PoolClient, messages: MessageToStore[], statement: pg.QueryConfig): Promise<number[]> {
  const { rows } = await client.query<{ ids: string[] | null; refused: number | null; full_inboxes: number | null }>(statement)
  const { ids, refused, full_inboxes: full } = rows[0]!
  if (refused !== null) {
    const to = messages[refused - 1]!.inboxIds.length
    throw new StoreRefusal(full === to ? 'mailbox_full' : 'some_mailboxes_full', `${full} of ${to} inboxes full`)
  }
  return ids!.map(Number)
}
