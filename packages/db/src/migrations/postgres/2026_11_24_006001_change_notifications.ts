import { sql, type Kysely } from 'kysely'

/**
 * What makes an API node's cached address row or first page stale, other than new mail and deletions (which notify
 * already): a message marked read or unread, and an inbox's owner, burn mode or expiry changed. Both NOTIFY
 * `tempbox_changes` (storage/postgres/notify.ts reads it) from the updating transaction, so the notification is sent
 * at commit and never for a change rolled back. Payload: the inbox id, never content.
 *
 * Row-level with a column list and a WHEN: an update that changes none of these columns fires nothing — above all the
 * quota counters' `UPDATE inbox SET message_count …` that every stored message makes (it lists none of them), so
 * ingest pays nothing. PostgreSQL sends identical payloads of one transaction once, so marking many messages of one
 * inbox read sends one notification. (A statement-level trigger with transition tables would need no column list,
 * and would capture every counter update of ingest.)
 * PostgreSQL only: on SQLite every process sees every commit through data_version, and API processes tell each other
 * of read-state changes.
 */
const STATEMENTS = [
  `CREATE FUNCTION message_read_notify() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_notify('tempbox_changes', '{"r":' || NEW.inbox_id || '}');
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER message_read_notify AFTER UPDATE OF read_at ON message
    FOR EACH ROW WHEN (OLD.read_at IS DISTINCT FROM NEW.read_at) EXECUTE FUNCTION message_read_notify()`,
  `CREATE FUNCTION inbox_updated_notify() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_notify('tempbox_changes', '{"i":' || NEW.id || '}');
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER inbox_updated_notify AFTER UPDATE OF user_id, burn, expires_at ON inbox
    FOR EACH ROW WHEN (OLD.user_id IS DISTINCT FROM NEW.user_id OR OLD.burn IS DISTINCT FROM NEW.burn OR OLD.expires_at IS DISTINCT FROM NEW.expires_at)
    EXECUTE FUNCTION inbox_updated_notify()`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER inbox_updated_notify ON inbox`.execute(db)
  await sql`DROP FUNCTION inbox_updated_notify()`.execute(db)
  await sql`DROP TRIGGER message_read_notify ON message`.execute(db)
  await sql`DROP FUNCTION message_read_notify()`.execute(db)
}
