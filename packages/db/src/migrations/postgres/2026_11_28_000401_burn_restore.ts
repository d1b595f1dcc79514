import { sql, type Kysely } from 'kysely'

/**
 * `inbox.unburned_expires_at` as on SQLite (see ../2026_11_28_000401_burn_restore.ts), and `address_limit_slot.
 * address_key`: an HMAC of the address a slot counts, so the slot follows every change of that address's end (burn,
 * extend, release) whoever makes it (issue 26). Slots from before have none and end at the expiry they were made with.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE inbox ADD COLUMN unburned_expires_at bigint`.execute(db)
  await sql`ALTER TABLE address_limit_slot ADD COLUMN address_key bytea`.execute(db)
  await sql`CREATE INDEX address_limit_slot_address_key ON address_limit_slot (address_key)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX address_limit_slot_address_key`.execute(db)
  await sql`ALTER TABLE address_limit_slot DROP COLUMN address_key`.execute(db)
  await sql`ALTER TABLE inbox DROP COLUMN unburned_expires_at`.execute(db)
}
