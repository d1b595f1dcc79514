import { sql, type Kysely } from 'kysely'

/**
 * An address can burn itself once it has served: `burn` is 'read' (deleted when its reader marks a message read) or
 * 'timer' (deleted at `expires_at`, set shorter than the usual lifetime, by the same sweep that deletes expired
 * addresses). NULL is an ordinary address. A timer needs no column of its own: the expiry it shortens already drives
 * the sweep and mail-ingest's refusal; the column only says why the address ends early, for the reader.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE inbox ADD COLUMN burn TEXT CHECK (burn IN ('read', 'timer'))`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('inbox').dropColumn('burn').execute()
}
