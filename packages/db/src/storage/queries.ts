import type { Db } from '../create-db.js'
import type { ActiveInbox } from './storage.js'

/** Storage methods whose SQL reads the same on both engines (Kysely writes it for each). */

export async function findActiveInbox(db: Db, address: string, now: number): Promise<ActiveInbox | null> {
  const row = await db
    .selectFrom('inbox')
    .select(['id', 'expires_at', 'message_count', 'bytes_used', 'burn'])
    .where('address', '=', address)
    .where('expires_at', '>', now)
    .executeTakeFirst()
  if (!row) return null
  return { id: row.id, expiresAt: row.expires_at, messageCount: row.message_count, bytesUsed: row.bytes_used, burnsOnRead: row.burn === 'read' }
}

export async function settleLeftoverChecks(db: Db, now: number): Promise<number> {
  const settled = await db.updateTable('message_auth').set({ status: 'unknown', checked_at: now }).where('status', '=', 'checking').executeTakeFirst()
  return Number(settled.numUpdatedRows)
}
