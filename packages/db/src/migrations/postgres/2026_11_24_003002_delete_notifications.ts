import { sql, type Kysely } from 'kysely'

/**
 * Deleted messages and inboxes NOTIFY `tempbox_deletes` (storage/postgres/notify.ts reads it), whoever deletes them —
 * a user, burn after reading, the expiry sweep, a cascade — so every API node tells its readers. Statement-level with
 * a transition table: one notification per statement, sent at commit, none on rollback. Ids only, never content;
 * past 150 rows the payload is `{}` ("re-read"), as a NOTIFY payload must stay under 8,000 bytes.
 * PostgreSQL only: on SQLite every deleter is an API process, and they tell each other directly.
 */
/** A statement-level trigger function that NOTIFYs `{"<key>": [<row>…]}` of the rows the statement deleted. */
function notifyFunction(name: string, key: string, row: string, columns: string): string {
  return `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE
    ids json;
    n bigint;
  BEGIN
    SELECT json_agg(${row}), count(*) INTO ids, n FROM (SELECT ${columns} FROM gone LIMIT 151) g;
    IF n > 0 THEN
      PERFORM pg_notify('tempbox_deletes', CASE WHEN n > 150 THEN '{}' ELSE json_build_object('${key}', ids)::text END);
    END IF;
    RETURN NULL;
  END $$`
}

const STATEMENTS = [
  notifyFunction('message_deleted_notify', 'm', 'json_build_array(id, inbox_id)', 'id, inbox_id'),
  `CREATE TRIGGER message_deleted_notify AFTER DELETE ON message REFERENCING OLD TABLE AS gone
    FOR EACH STATEMENT EXECUTE FUNCTION message_deleted_notify()`,
  notifyFunction('inbox_deleted_notify', 'i', 'id', 'id'),
  `CREATE TRIGGER inbox_deleted_notify AFTER DELETE ON inbox REFERENCING OLD TABLE AS gone
    FOR EACH STATEMENT EXECUTE FUNCTION inbox_deleted_notify()`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER inbox_deleted_notify ON inbox`.execute(db)
  await sql`DROP FUNCTION inbox_deleted_notify()`.execute(db)
  await sql`DROP TRIGGER message_deleted_notify ON message`.execute(db)
  await sql`DROP FUNCTION message_deleted_notify()`.execute(db)
}
