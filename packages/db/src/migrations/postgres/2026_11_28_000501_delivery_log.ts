import type { Kysely } from 'kysely'
import { createDeliveryLog } from '../2026_11_28_000501_delivery_log.js'

/** PostgreSQL's `delivery_log` and `message.rcpt_tag` (see the SQLite migration of the same name): bigserial and bigint keys. */
export async function up(db: Kysely<any>): Promise<void> {
  await createDeliveryLog(db, 'bigserial PRIMARY KEY', 'bigint')
}

export { down } from '../2026_11_28_000501_delivery_log.js'
