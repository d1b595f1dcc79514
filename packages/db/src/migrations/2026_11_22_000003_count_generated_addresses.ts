import { sql, type Kysely } from 'kysely'

/**
 * Addresses are deleted 24 hours after creation, so the analytics "Emails Generated" over 7–90 days needs its own
 * per-day counter. A trigger keeps it exact whichever code path inserts an inbox.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('inbox_created_daily')
    .addColumn('day', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await sql`
    CREATE TRIGGER inbox_created_daily_count AFTER INSERT ON inbox
    BEGIN
      INSERT INTO inbox_created_daily (day, count)
      VALUES (strftime('%Y-%m-%d', NEW.created_at / 1000, 'unixepoch'), 1)
      ON CONFLICT (day) DO UPDATE SET count = count + 1;
    END
  `.execute(db)
  await sql`
    INSERT INTO inbox_created_daily (day, count)
    SELECT strftime('%Y-%m-%d', created_at / 1000, 'unixepoch'), count(*) FROM inbox WHERE true GROUP BY 1
  `.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS inbox_created_daily_count`.execute(db)
  await db.schema.dropTable('inbox_created_daily').execute()
}
