import { sql, type Kysely } from 'kysely'

/**
 * A message sent to several of our addresses is stored once. `message_content` holds what is the same for every
 * recipient (source, text, HTML, headers, the To/Cc list, attachments, and what is derived from them: preview, codes,
 * links, sanitized HTML); `message` keeps one small row per
 * inbox that received it (what an inbox listing shows), pointing at the content. The content goes when its last
 * message row goes, whichever way: deleted by a reader, or with an expired inbox (ON DELETE CASCADE fires the
 * trigger too). Existing rows are copied over, each message's content keeping the message's id.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // Small columns first: SQLite reads a row's columns in order through its overflow pages.
  await sql`
    CREATE TABLE message_content (
      id integer PRIMARY KEY AUTOINCREMENT,
      derived_version integer,
      preview text NOT NULL DEFAULT '',
      codes text NOT NULL DEFAULT '[]',
      links text NOT NULL DEFAULT '[]',
      has_remote_content integer NOT NULL DEFAULT 0,
      html_withheld text,
      raw_body_is_text integer NOT NULL DEFAULT 0,
      recipients text NOT NULL DEFAULT '[]',
      headers text NOT NULL DEFAULT '[]',
      text text,
      html_text text,
      html text,
      safe_html text,
      raw blob NOT NULL
    )
  `.execute(db)
  await sql`
    INSERT INTO message_content (id, derived_version, preview, codes, links, has_remote_content, html_withheld,
      raw_body_is_text, recipients, headers, text, html_text, html, safe_html, raw)
    SELECT id, derived_version, preview, codes, links, has_remote_content, html_withheld,
      raw_body_is_text, recipients, headers, text, html_text, html, safe_html, raw FROM message WHERE true
  `.execute(db)

  await sql`
    CREATE TABLE attachment_new (
      id integer PRIMARY KEY AUTOINCREMENT,
      message_content_id integer NOT NULL REFERENCES message_content (id) ON DELETE CASCADE,
      position integer NOT NULL,
      filename text NOT NULL,
      content_type text NOT NULL,
      size integer NOT NULL,
      content_id text,
      is_inline integer NOT NULL DEFAULT 0,
      content blob NOT NULL,
      CONSTRAINT attachment_content_position UNIQUE (message_content_id, position)
    )
  `.execute(db)
  await sql`
    INSERT INTO attachment_new (id, message_content_id, position, filename, content_type, size, content_id, is_inline, content)
    SELECT id, message_id, position, filename, content_type, size, content_id, is_inline, content FROM attachment WHERE true
  `.execute(db)
  await sql`DROP TABLE attachment`.execute(db)
  await sql`ALTER TABLE attachment_new RENAME TO attachment`.execute(db)

  await sql`
    CREATE TABLE message_new (
      id integer PRIMARY KEY AUTOINCREMENT,
      inbox_id integer NOT NULL REFERENCES inbox (id) ON DELETE CASCADE,
      message_content_id integer NOT NULL REFERENCES message_content (id),
      from_name text NOT NULL DEFAULT '',
      from_address text NOT NULL DEFAULT '',
      subject text NOT NULL DEFAULT '',
      sent_at integer,
      received_at integer NOT NULL,
      size integer NOT NULL,
      attachment_count integer NOT NULL DEFAULT 0
    )
  `.execute(db)
  await sql`
    INSERT INTO message_new (id, inbox_id, message_content_id, from_name, from_address, subject, sent_at, received_at, size, attachment_count)
    SELECT id, inbox_id, id, from_name, from_address, subject, sent_at, received_at, size, attachment_count FROM message WHERE true
  `.execute(db)
  await sql`DROP TABLE message`.execute(db)
  await sql`ALTER TABLE message_new RENAME TO message`.execute(db)
  await db.schema.createIndex('message_inbox_id').on('message').columns(['inbox_id', 'id']).execute()
  await db.schema.createIndex('message_message_content_id').on('message').column('message_content_id').execute()

  await sql`
    CREATE TRIGGER message_content_release AFTER DELETE ON message
    WHEN NOT EXISTS (SELECT 1 FROM message WHERE message_content_id = OLD.message_content_id)
    BEGIN
      DELETE FROM message_content WHERE id = OLD.message_content_id;
    END
  `.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('message_content_stored_once cannot be undone: messages shared by several inboxes would have to be copied')
}
