import { sql } from 'kysely'
import type { Db, SharedStateTables } from '@tempbox/db'

/** PostgreSQL only: the per-client address limits every API node counts against (tables of migration 2026_11_24_004001). */

const HOUR_MS = 3_600_000

export type Reservation = 'reserved' | 'hourly_limit' | 'active_limit'

export interface SlotLimits {
  maxActive: number
  maxPerHour: number
}

/**
 * Counts one address (`addressKey`, an HMAC of it) for `clientKey` unless a limit is reached. The upsert of the client's row locks it until the
 * commit, so reservations of one client are decided one at a time by every node; the count that follows is a new
 * statement, so it sees every slot a reservation before this one committed (READ COMMITTED).
 */
export async function reserveSlot(db: Db, clientKey: Buffer, addressKey: Buffer, limits: SlotLimits, expiresAt: number, now: number): Promise<Reservation> {
  return db.transaction().execute(async (trx) => {
    await trx
      .withTables<SharedStateTables>()
      .insertInto('address_limit_client')
      .values({ client_key: clientKey, until: Math.max(now + HOUR_MS, expiresAt) })
      .onConflict((oc) => oc.column('client_key').doUpdateSet({ until: sql`greatest(address_limit_client.until, excluded.until)` }))
      .execute()
    const { rows } = await sql<{ hourly: number; active: number; added: number }>`
      WITH counts AS (
        SELECT count(*) FILTER (WHERE created_at > ${now - HOUR_MS}::bigint) AS hourly,
               count(*) FILTER (WHERE expires_at > ${now}::bigint) AS active
        FROM address_limit_slot WHERE client_key = ${clientKey}
      ), added AS (
        INSERT INTO address_limit_slot (client_key, address_key, created_at, expires_at)
        SELECT ${clientKey}, ${addressKey}, ${now}::bigint, ${expiresAt}::bigint FROM counts
        WHERE hourly < ${limits.maxPerHour}::int AND active < ${limits.maxActive}::int
        RETURNING 1
      )
      SELECT hourly, active, (SELECT count(*) FROM added) AS added FROM counts`.execute(trx)
    const row = rows[0]!
    if (Number(row.added) === 1) return 'reserved'
    return Number(row.hourly) >= limits.maxPerHour ? 'hourly_limit' : 'active_limit'
  })
}

/** Removes the slot reserved at `createdAt` for an address that was never made. */
export async function deleteSlot(db: Db, clientKey: Buffer, addressKey: Buffer, createdAt: number): Promise<void> {
  const t = db.withTables<SharedStateTables>()
  await t
    .deleteFrom('address_limit_slot')
    .where('id', '=', (eb) =>
      eb
        .selectFrom('address_limit_slot')
        .select('id')
        .where('client_key', '=', clientKey)
        .where('created_at', '=', createdAt)
        .where('address_key', '=', addressKey)
        .orderBy('id', 'desc')
        .limit(1),
    )
    .execute()
}

/**
 * Moves the active part of an address's slot to its new end (`now` once released); it still counts for the hourly
 * limit. Whoever changes the end, the slot of the client that made the address follows.
 */
export async function moveSlotEnd(db: Db, addressKey: Buffer, expiresAt: number): Promise<void> {
  await db.withTables<SharedStateTables>().updateTable('address_limit_slot').set({ expires_at: expiresAt }).where('address_key', '=', addressKey).execute()
}

/** Deletes slots and client rows that no longer limit anything; returns how many rows went. */
export async function deleteSpentSlots(db: Db, now: number): Promise<number> {
  const t = db.withTables<SharedStateTables>()
  const slots = await t
    .deleteFrom('address_limit_slot')
    .where('created_at', '<=', now - HOUR_MS)
    .where('expires_at', '<=', now)
    .executeTakeFirst()
  const clients = await t.deleteFrom('address_limit_client').where('until', '<=', now).executeTakeFirst()
  return Number(slots.numDeletedRows) + Number(clients.numDeletedRows)
}
