import type pg from 'pg'
import type { ActiveInbox } from '../storage.js'

/**
 * The RCPT look-up as a named statement: parsed and planned once per connection rather than on every call (Kysely's
 * queries are unnamed, so PostgreSQL parses and plans each one again). With more recipients than the ingest's short
 * inbox cache holds, every accepted RCPT asks once; under the benchmark's load a tenth of the server's CPU went to
 * parsing and planning this one SELECT. Same answer as queries.ts's findActiveInbox (SQLite's).
 */
const FIND_ACTIVE_INBOX: pg.QueryConfig = {
  name: 'tempbox_find_active_inbox',
  text: 'SELECT id, expires_at, message_count, bytes_used, burn FROM inbox WHERE address = $1 AND expires_at > $2',
}

interface Row {
  id: number
  expires_at: number
  message_count: number
  bytes_used: number
  burn: string | null
}

export async function findActiveInbox(pool: pg.Pool, address: string, now: number): Promise<ActiveInbox | null> {
  const { rows } = await pool.query<Row>({ ...FIND_ACTIVE_INBOX, values: [address, now] })
  const row = rows[0]
  if (!row) return null
  return { id: row.id, expiresAt: row.expires_at, messageCount: row.message_count, bytesUsed: row.bytes_used, burnsOnRead: row.burn === 'read' }
}
