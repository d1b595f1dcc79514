import type pg from 'pg'
import type { StoredVerdict } from '../storage.js'

/** Named: parsed and planned once per connection, as the message batches on the same pool are. */
const WRITE_VERDICTS: pg.QueryConfig = {
  name: 'tempbox_write_verdicts',
  text: `WITH relaxed AS MATERIALIZED (SELECT set_config('synchronous_commit', 'off', true) AS setting)
     UPDATE message_auth AS a SET status = v.status, details = v.details, authentication_results = v.results, checked_at = $5
     FROM relaxed, unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) AS v (id, status, details, results)
     WHERE a.message_content_id = v.id AND relaxed.setting = 'off'`,
}

/**
 * A batch of verdicts as ONE statement (so one transaction, one commit): the batch's columns as arrays, joined to
 * their `checking` rows. A message deleted meanwhile has no row left to join.
 *
 * It runs on the ingest writer's pool (durable: synchronous_commit on), yet a verdict is worth less than mail — lost in a
 * crash, its row reads `checking` until the next start settles it as unknown — so its commit does not wait for the WAL
 * flush: `relaxed` sets synchronous_commit off for this statement's own transaction (set_config's is_local), as SQLite's
 * verdicts skip their fsync. Waiting for it put a second WAL flush beside each batch of mail, on the cores ingest needs.
 * The setting ends with the transaction: the next batch of mail on this connection commits durably again.
 */
export async function writeVerdicts(pool: pg.Pool, batch: readonly (readonly [number, StoredVerdict])[], at: number): Promise<void> {
  if (batch.length === 0) return
  await pool.query({
    ...WRITE_VERDICTS,
    values: [batch.map(([id]) => id), batch.map(([, v]) => v.status), batch.map(([, v]) => v.details), batch.map(([, v]) => v.authenticationResults), at],
  })
}
