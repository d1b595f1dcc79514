import { createHmac } from 'node:crypto'
import type { Kysely, Transaction } from 'kysely'
import type { Database } from './schema.js'

/** ADDRESS_REUSE_BLOCK_DAYS's default, 365 days: also what the migration gives the addresses that existed before it. */
export const DEFAULT_REUSE_BLOCK_MS = 365 * 24 * 3_600_000

/** HMAC-SHA256 of a lower-cased address under the database's secret: the list of these reveals no address. */
export function addressHash(secret: Buffer, address: string): Buffer {
  return createHmac('sha256', secret).update(address).digest()
}

type Queryable = Kysely<Database> | Transaction<Database>

/** The issued-address list as both apps read it; the secret is read once per process (it never changes). */
export interface IssuedAddresses {
  /** The address's HMAC under the database's secret (the `issued_address` key). */
  hash(address: string): Promise<Buffer>
  /** True while the address may not be issued again: it was issued once and its block lasts past `now`. */
  isBlocked(address: string, now: number): Promise<boolean>
  /** A key for another purpose derived from the same secret (`purpose` names it, so the keys differ). */
  derivedKey(purpose: string): Promise<Buffer>
}

export function openIssuedAddresses(db: Kysely<Database>): IssuedAddresses {
  let secret: Promise<Buffer> | null = null
  const readSecret = () => {
    secret ??= db
      .selectFrom('issued_address_key').select('secret').where('id', '=', 1).executeTakeFirstOrThrow()
      .then((row) => Buffer.from(row.secret))
    // A failed read (database down at start) is tried again next time rather than remembered.
    secret.catch(() => (secret = null))
    return secret
  }
  const hash = async (address: string) => addressHash(await readSecret(), address)
  return {
    hash,
    isBlocked: async (address, now) => {
      const row = await db.selectFrom('issued_address').select('block_until').where('hash', '=', await hash(address)).executeTakeFirst()
      return row !== undefined && Number(row.block_until) > now
    },
    derivedKey: async (purpose) => createHmac('sha256', await readSecret()).update(`tempbox:${purpose}`).digest(),
  }
}

/**
 * Enters an issued address (call it in the transaction that creates the inbox). False, and nothing written, when the
 * address is blocked already; an entry whose block has ended is taken over.
 */
export async function recordIssuedAddress(db: Queryable, entry: { hash: Buffer; issuedAt: number; blockUntil: number }): Promise<boolean> {
  const row = await db
    .insertInto('issued_address')
    .values({ hash: entry.hash, issued_at: entry.issuedAt, block_until: entry.blockUntil })
    .onConflict((oc) =>
      oc.column('hash').doUpdateSet({ issued_at: entry.issuedAt, block_until: entry.blockUntil }).where('issued_address.block_until', '<=', entry.issuedAt),
    )
    .returning('hash')
    .executeTakeFirst()
  return row !== undefined
}

/** Entries whose block has ended (the sweep); gives how many went. */
export async function purgeIssuedAddresses(db: Queryable, now: number): Promise<number> {
  const result = await db.deleteFrom('issued_address').where('block_until', '<=', now).executeTakeFirst()
  return Number(result.numDeletedRows)
}
