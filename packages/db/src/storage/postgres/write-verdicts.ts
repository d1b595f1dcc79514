import type pg from 'pg'
import type { StoredVerdict } from '../storage.js'

/**
 * A batch of verdicts as ONE statement (so one transaction, one commit): the batch's columns as arrays, joined to
 * their `checking` rows. A message deleted meanwhile has no row left to join.
 */
export async function writeVerdicts(pool: pg.Pool, batch: readonly (readonly [number, StoredVerdict])[], at: number): Promise<void> {
  if (batch.length === 0) return
  await pool.query(
    `UPDATE message_auth AS a SET status = v.status, details = v.details, authentication_results = v.results, checked_at = $5
     FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) AS v (id, status, details, results)
     WHERE a.message_content_id = v.id`,
    [batch.map(([id]) => id), batch.map(([, v]) => v.status), batch.map(([, v]) => v.details), batch.map(([, v]) => v.authenticationResults), at],
  )
}
