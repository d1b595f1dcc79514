import { sql, type Kysely } from 'kysely'

/**
 * SQLite's 2026_11_30_000101 on PostgreSQL: the unread count on the inbox row, kept by the quota triggers (the
 * statement-level one of 2026_11_25_001001 for inserts, the baseline's row trigger for deletions) and by a row trigger
 * on `read_at`, in place of the partial index `message_unread`.
 */
/** The quota triggers' functions (2026_11_25_001001, the baseline), counting unread rows too when `unread`. */
function quotaFunctions(unread: boolean): string[] {
  return [
    `CREATE OR REPLACE FUNCTION inbox_quota_add() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE inbox SET message_count = message_count + added.messages, bytes_used = bytes_used + added.bytes${unread ? ', unread_count = unread_count + added.unread' : ''}
      FROM (
        SELECT inbox_id, count(*) AS messages, sum(size) AS bytes${unread ? ', count(*) FILTER (WHERE read_at IS NULL) AS unread' : ''}
        FROM new_message GROUP BY inbox_id
      ) AS added
      WHERE inbox.id = added.inbox_id;
      RETURN NULL;
    END $$`,
    `CREATE OR REPLACE FUNCTION inbox_quota_remove() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE inbox SET message_count = message_count - 1, bytes_used = bytes_used - OLD.size${unread ? ', unread_count = unread_count - (OLD.read_at IS NULL)::int' : ''}
      WHERE id = OLD.inbox_id;
      RETURN NULL;
    END $$`,
  ]
}

const UP = [
  `ALTER TABLE inbox ADD COLUMN unread_count bigint NOT NULL DEFAULT 0`,
  `UPDATE inbox SET unread_count = unread.messages
    FROM (SELECT inbox_id, count(*) AS messages FROM message WHERE read_at IS NULL GROUP BY inbox_id) AS unread
    WHERE inbox.id = unread.inbox_id`,
  ...quotaFunctions(true),
  `CREATE FUNCTION inbox_unread_count() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE inbox SET unread_count = unread_count + (NEW.read_at IS NULL)::int - (OLD.read_at IS NULL)::int WHERE id = NEW.inbox_id;
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER inbox_unread_count AFTER UPDATE OF read_at ON message
    FOR EACH ROW WHEN ((OLD.read_at IS NULL) IS DISTINCT FROM (NEW.read_at IS NULL)) EXECUTE FUNCTION inbox_unread_count()`,
  `DROP INDEX message_unread`,
]

/** The index of the baseline and the counters' functions as they were. */
const DOWN = [
  `CREATE INDEX message_unread ON message (inbox_id, id) WHERE read_at IS NULL`,
  `DROP TRIGGER inbox_unread_count ON message`,
  `DROP FUNCTION inbox_unread_count()`,
  ...quotaFunctions(false),
  `ALTER TABLE inbox DROP COLUMN unread_count`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db)
}
