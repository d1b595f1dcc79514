import { sql, type Kysely } from 'kysely'

/**
 * `inbox.unburned_expires_at`: the end an address had before a burn timer shortened it, so turning the timer off
 * gives back that end and never a later one (issue 26). NULL when no timer has shortened it (or it was made with one).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE inbox ADD COLUMN unburned_expires_at INTEGER`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('inbox').dropColumn('unburned_expires_at').execute()
}
