import type { Kysely } from 'kysely'
import { createIssuedAddressTables } from '../2026_11_28_000201_issued_addresses.js'

/** PostgreSQL's `issued_address` (see the SQLite migration of the same name): bytea where SQLite has blob. */
export async function up(db: Kysely<any>): Promise<void> {
  await createIssuedAddressTables(db, 'bytea')
}

export { down } from '../2026_11_28_000201_issued_addresses.js'
