import { sql, type Kysely } from 'kysely'

/**
 * `delivery_log`: the last SMTP transactions that named each inbox, accepted or not (issue 31), so a user can see why
 * mail did not arrive. Written by mail-ingest (the accepted entry in the message's own commit), trimmed to the newest
 * DELIVERY_LOG_ENTRIES per inbox, gone with the inbox. No client IP. `message.rcpt_tag`: the +tag the mail came to.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // No AUTOINCREMENT: its sqlite_sequence update cost every commit a write; ids still rise, since the trim deletes
  // an inbox's oldest entries only and a reused id (the newest row's inbox gone) is no one's cursor.
  await createDeliveryLog(db, 'INTEGER PRIMARY KEY', 'INTEGER')
}

/** The same statements on both engines but for the key and integer types. */
export async function createDeliveryLog(db: Kysely<any>, key: string, integer: string): Promise<void> {
  await sql.raw(`
    CREATE TABLE delivery_log (
      id ${key},
      inbox_id ${integer} NOT NULL REFERENCES inbox (id) ON DELETE CASCADE,
      at ${integer} NOT NULL,
      result text NOT NULL,
      reply_code integer NOT NULL,
      enhanced_status text NOT NULL,
      reason text NOT NULL,
      size ${integer},
      tag text,
      message_id ${integer}
    )`).execute(db)
  await sql`CREATE INDEX delivery_log_inbox ON delivery_log (inbox_id, id)`.execute(db)
  await sql`ALTER TABLE message ADD COLUMN rcpt_tag text`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE message DROP COLUMN rcpt_tag`.execute(db)
  await sql`DROP TABLE delivery_log`.execute(db)
}
