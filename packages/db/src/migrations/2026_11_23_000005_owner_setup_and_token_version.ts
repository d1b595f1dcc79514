import { sql, type Kysely } from 'kysely'

/**
 * - `site_fact`: facts about the site that, once true, stay true. `owner_setup_done` closes owner setup for good, so
 *   deleting the last owner's account can't reopen it (issue 13). A site that already has an owner is marked done.
 * - `user.token_version`: every token carries the version it was signed with; raising it (password change, sign out
 *   everywhere) makes every older token fail on its next request. Read with the user row each request already loads.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('site_fact')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute()
  await sql`
    INSERT INTO site_fact (name, created_at)
    SELECT 'owner_setup_done', CAST(strftime('%s', 'now') AS INTEGER) * 1000 WHERE EXISTS (SELECT 1 FROM user WHERE role = 'owner')
  `.execute(db)
  await db.schema.alterTable('user').addColumn('token_version', 'integer', (c) => c.notNull().defaultTo(0)).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('user').dropColumn('token_version').execute()
  await db.schema.dropTable('site_fact').execute()
}
