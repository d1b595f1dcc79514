import { sql, type Kysely } from 'kysely'

/**
 * The triggers that run for every stored message become statement-level on PostgreSQL, so a batch of ingest pays for
 * them once rather than per row (PL/pgSQL ran an UPDATE of the inbox and a webhook look-up for every listing row): the quota
 * counters are added per inbox from the statement's new rows (one UPDATE per statement), and webhook deliveries are
 * looked for once per statement — row by row, in id order, only for rows whose inbox has a webhook, so the caps count
 * exactly as before. Same trigger names, same effects as SQLite's row triggers (which cost little there: no planner,
 * no executor per statement). Deletion keeps its row triggers.
 */

/** The baseline's delivery for one stored message `row` (under the caps as they stand: its own trigger counts it). */
const enqueue = (row: string) => `INSERT INTO webhook_delivery (delivery_id, webhook_id, message_id, state, created_at, next_attempt_at)
    SELECT replace(gen_random_uuid()::text, '-', ''), w.id, ${row}.id,
      CASE WHEN w.pending < q.max_pending_per_inbox AND q.pending < q.max_pending THEN 'pending' ELSE 'dropped' END,
      ${row}.received_at, ${row}.received_at
    FROM webhook w JOIN webhook_queue q ON q.id = 1
    WHERE w.inbox_id = ${row}.inbox_id;`

const UP = [
  `DROP TRIGGER inbox_quota_add ON message`,
  `CREATE OR REPLACE FUNCTION inbox_quota_add() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE inbox SET message_count = message_count + added.messages, bytes_used = bytes_used + added.bytes
    FROM (SELECT inbox_id, count(*) AS messages, sum(size) AS bytes FROM new_message GROUP BY inbox_id) AS added
    WHERE inbox.id = added.inbox_id;
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER inbox_quota_add AFTER INSERT ON message REFERENCING NEW TABLE AS new_message
    FOR EACH STATEMENT EXECUTE FUNCTION inbox_quota_add()`,
  `DROP TRIGGER message_webhook_enqueue ON message`,
  `CREATE OR REPLACE FUNCTION message_webhook_enqueue() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE
    m record;
  BEGIN
    -- One row at a time: each INSERT's own trigger counts the delivery before the next row's caps are read.
    FOR m IN SELECT n.id, n.inbox_id, n.received_at FROM new_message n WHERE EXISTS (SELECT FROM webhook w WHERE w.inbox_id = n.inbox_id) ORDER BY n.id LOOP
      ${enqueue('m')}
    END LOOP;
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER message_webhook_enqueue AFTER INSERT ON message REFERENCING NEW TABLE AS new_message
    FOR EACH STATEMENT EXECUTE FUNCTION message_webhook_enqueue()`,
  // A content row up to a page (8,160 bytes) stays whole in the table. From 2 KB on (TOAST_TUPLE_THRESHOLD), the default
  // target made the server try to compress the small columns one after another and then move the text out to the TOAST
  // table: a second heap row and index entry for every small mail. Larger bodies still go out of line, uncompressed
  // (2026_11_24_003101). Applies to rows written from now on.
  `ALTER TABLE message_content SET (toast_tuple_target = 8160)`,
]

/** The baseline's row triggers (2026_11_24_001400). */
const DOWN = [
  `ALTER TABLE message_content RESET (toast_tuple_target)`,
  `DROP TRIGGER inbox_quota_add ON message`,
  `CREATE OR REPLACE FUNCTION inbox_quota_add() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE inbox SET message_count = message_count + 1, bytes_used = bytes_used + NEW.size WHERE id = NEW.inbox_id;
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER inbox_quota_add AFTER INSERT ON message FOR EACH ROW EXECUTE FUNCTION inbox_quota_add()`,
  `DROP TRIGGER message_webhook_enqueue ON message`,
  `CREATE OR REPLACE FUNCTION message_webhook_enqueue() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    ${enqueue('NEW')}
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER message_webhook_enqueue AFTER INSERT ON message FOR EACH ROW EXECUTE FUNCTION message_webhook_enqueue()`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db)
}
