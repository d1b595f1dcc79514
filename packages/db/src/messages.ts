import type { Db } from './create-db.js'
import type { NewAttachment, NewMessage, NewMessageContent } from './schema.js'
import { DEFAULT_SEARCH_TEXT_MAX_CHARS, searchCopyOf } from './storage/search-text.js'

/** A message as `insertMessage` stores it: its content once, a listing row per inbox. */
export interface MessageToInsert {
  content: NewMessageContent
  /** The per-inbox row, without the inbox and content it points at. */
  listing: Omit<NewMessage, 'inbox_id' | 'message_content_id'>
  attachments?: Omit<NewAttachment, 'message_content_id'>[]
}

/**
 * Stores one message for each of `inboxIds` in one transaction, its content and attachments once; returns the new
 * message ids in the order of `inboxIds`. For tests, tools and benchmarks: mail-ingest writes the same rows with
 * the storage writer's prepared statements (storage/sqlite/write-messages.ts).
 */
export async function insertMessage(db: Db, inboxIds: number[], message: MessageToInsert): Promise<number[]> {
  return db.transaction().execute(async (trx) => {
    const content = await trx.insertInto('message_content').values(message.content).returning('id').executeTakeFirstOrThrow()
    const { listing, content: c } = message
    const copy = searchCopyOf(
      { subject: listing.subject, fromName: listing.from_name, fromAddress: listing.from_address, text: c.text ?? null, htmlText: c.html_text ?? null },
      DEFAULT_SEARCH_TEXT_MAX_CHARS,
    )
    await trx
      .insertInto('message_search')
      .values({ message_content_id: content.id, subject: copy.subject, from_name: copy.fromName, from_address: copy.fromAddress, body: copy.body })
      .execute()
    for (const attachment of message.attachments ?? []) {
      await trx.insertInto('attachment').values({ ...attachment, message_content_id: content.id }).execute()
    }
    const ids: number[] = []
    for (const inboxId of inboxIds) {
      const row = await trx
        .insertInto('message')
        .values({ ...message.listing, inbox_id: inboxId, message_content_id: content.id })
        .returning('id')
        .executeTakeFirstOrThrow()
      ids.push(row.id)
    }
    return ids
  })
}

/** Columns of `message_content` read with a message (everything but its id). */
export const CONTENT_COLUMNS = [
  'recipients', 'headers', 'text', 'html', 'raw', 'raw_body_is_text', 'derived_version', 'preview', 'html_text', 'codes', 'links',
  'safe_html', 'has_remote_content', 'html_withheld',
] as const

/**
 * Messages joined to their content: select `message` columns and any of CONTENT_COLUMNS (by name, or
 * `message_content.x`) from it; filter on `message.` columns.
 */
export function selectMessagesWithContent(db: Db) {
  return db.selectFrom('message').innerJoin('message_content', 'message_content.id', 'message.message_content_id')
}
