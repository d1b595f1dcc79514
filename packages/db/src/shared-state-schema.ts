import type { Generated } from 'kysely'

/**
 * Tables that exist on PostgreSQL only (migration 2026_11_24_004001): the state several API nodes must share, which
 * on SQLite lives in the API's memory. Not part of `Database`, so no code can query them on SQLite by mistake: a
 * repository that runs on PostgreSQL asks for them with `db.withTables<SharedStateTables>()`.
 */
// A type, not an interface: Kysely's withTables wants a record type.
export type SharedStateTables = {
  address_limit_client: AddressLimitClientTable
  address_limit_slot: AddressLimitSlotTable
  window_counter: WindowCounterTable
  visitor_salt: VisitorSaltTable
}

export interface AddressLimitClientTable {
  /** HMAC of the client's IP (or IPv6 /64): never the IP itself. */
  client_key: Buffer
  /** When none of this client's slots limits anything any more (epoch ms). */
  until: number
}

export interface AddressLimitSlotTable {
  id: Generated<number>
  client_key: Buffer
  created_at: number
  /** The address's end, following every change of it; 0 once released early (it then counts for the hourly limit only). */
  expires_at: number
  /** HMAC of the address it counts (null on slots from before 2026_11_28_000401). */
  address_key: Buffer | null
}

export interface WindowCounterTable {
  /** Whose counter: a route's rate limit, or a guess limiter's scope. */
  scope: string
  client_key: Buffer
  hits: number
  reset_at: number
}

export interface VisitorSaltTable {
  /** UTC day, `YYYY-MM-DD`. */
  day: string
  salt: Buffer
}
