import { randomBytes } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import { addressHash, DEFAULT_REUSE_BLOCK_MS } from '../issued-addresses.js'

/**
 * `issued_address`: an HMAC of every address ever handed out (issue 26), so a name once issued is never issued again
 * while its block lasts, and mail-ingest can tell an address that expired from one that never existed. The key is a
 * random row of `issued_address_key`, made here: both apps and every node read the same one from the database, and a
 * copy of the hash list alone reveals no address. Addresses that exist now were issued too: they are entered here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await createIssuedAddressTables(db, 'blob')
}

/** The same statements on both engines but for the bytes type (`blob` on SQLite, `bytea` on PostgreSQL). */
export async function createIssuedAddressTables(db: Kysely<any>, bytes: 'blob' | 'bytea'): Promise<void> {
  await sql.raw(`CREATE TABLE issued_address_key (id integer PRIMARY KEY CHECK (id = 1), secret ${bytes} NOT NULL)`).execute(db)
  await sql.raw(`CREATE TABLE issued_address (hash ${bytes} PRIMARY KEY, issued_at bigint NOT NULL, block_until bigint NOT NULL)`).execute(db)
  await sql`CREATE INDEX issued_address_block_until ON issued_address (block_until)`.execute(db)
  const secret = randomBytes(32)
  await db.insertInto('issued_address_key').values({ id: 1, secret }).execute()
  // Keyset pages keep memory flat however many addresses exist; ADDRESS_REUSE_BLOCK_DAYS is not known here: its default.
  for (let after = 0; ; ) {
    const rows: { id: number; address: string; created_at: number; expires_at: number }[] = await db
      .selectFrom('inbox').select(['id', 'address', 'created_at', 'expires_at']).where('id', '>', after).orderBy('id').limit(1000).execute()
    if (rows.length === 0) break
    await db
      .insertInto('issued_address')
      .values(rows.map((r) => ({ hash: addressHash(secret, r.address), issued_at: Number(r.created_at), block_until: Number(r.expires_at) + DEFAULT_REUSE_BLOCK_MS })))
      .onConflict((oc) => oc.column('hash').doNothing())
      .execute()
    after = Number(rows[rows.length - 1]!.id)
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE issued_address`.execute(db)
  await sql`DROP TABLE issued_address_key`.execute(db)
}
