import type { Db } from './create-db.js'

/** The row mail-ingest keeps fresh while it is up and able to write the file. */
export const INGEST_SERVICE = 'mail-ingest'

export interface Heartbeat {
  beatAt: number
  staleAt: number
}

/** A service that misses three beats in a row is down or cannot write: one slow beat is not enough to say so. */
export async function writeHeartbeat(db: Db, service: string, now: number, intervalMs: number): Promise<void> {
  const values = { beat_at: now, stale_at: now + 3 * intervalMs }
  await db
    .insertInto('service_heartbeat')
    .values({ service, ...values })
    .onConflict((oc) => oc.column('service').doUpdateSet(values))
    .execute()
}

/** The service's last heartbeat, or null if it never wrote one. */
export async function lastHeartbeat(db: Db, service: string): Promise<Heartbeat | null> {
  const row = await db.selectFrom('service_heartbeat').select(['beat_at', 'stale_at']).where('service', '=', service).executeTakeFirst()
  return row ? { beatAt: row.beat_at, staleAt: row.stale_at } : null
}
