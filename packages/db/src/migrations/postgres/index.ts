import type { Migration } from 'kysely'
import type { POSTGRES_MIGRATION_NAMES } from '../names.js'
import * as baseline from './2026_11_24_001400_baseline.js'
import * as m2101 from '../2026_11_24_002101_message_text_head_table.js'
import * as m3001 from './2026_11_24_003001_unicode_lower.js'
import * as m3002 from './2026_11_24_003002_delete_notifications.js'
import * as m3101 from './2026_11_24_003101_bodies_stored_uncompressed.js'
import * as m4001 from './2026_11_24_004001_shared_service_state.js'
import * as m6001 from './2026_11_24_006001_change_notifications.js'
import * as m11001 from './2026_11_25_001001_ingest_statement_triggers.js'
import * as m281301 from '../2026_11_28_000301_auth_sessions.js'
import * as m280201 from './2026_11_28_000201_issued_addresses.js'
import * as m280202 from './2026_11_28_000202_smtp_guess_window.js'
import * as m280101 from './2026_11_28_000101_message_search_text.js'
import * as m280401 from './2026_11_28_000401_burn_restore.js'
import * as m280501 from './2026_11_28_000501_delivery_log.js'
import * as m280502 from './2026_11_28_000502_smtp_fault_state.js'
import * as m280601 from './2026_11_28_000601_message_search_index.js'
import * as m280801 from '../2026_11_28_000801_derive_stored_views.js'
import * as m300101 from './2026_11_30_000101_inbox_unread_count.js'

/**
 * PostgreSQL's migrations (see ../index.ts). The baseline is SQLite's schema as of 2026_11_24_001201; later changes
 * are added after it, a shared module where Kysely's schema builder says it for both engines.
 */
export const POSTGRES_MIGRATIONS: Record<(typeof POSTGRES_MIGRATION_NAMES)[number], Migration> = {
  '2026_11_24_001400_baseline': baseline,
  // Plain SQL that reads the same on both engines.
  '2026_11_24_002101_message_text_head_table': m2101,
  // PostgreSQL only: SQLite's connections define the function in JavaScript.
  '2026_11_24_003001_unicode_lower': m3001,
  // PostgreSQL only: change notification (SQLite's readers watch data_version).
  '2026_11_24_003002_delete_notifications': m3002,
  // PostgreSQL only: how the server stores big values (SQLite never compresses).
  '2026_11_24_003101_bodies_stored_uncompressed': m3101,
  // PostgreSQL only (no SQLite counterpart: there the API holds this state in memory).
  '2026_11_24_004001_shared_service_state': m4001,
  // PostgreSQL only: change notification of read state and inbox updates (SQLite's readers watch data_version).
  '2026_11_24_006001_change_notifications': m6001,
  // PostgreSQL only: the per-message triggers run once per statement there (SQLite keeps its row triggers: same effect).
  '2026_11_25_001001_ingest_statement_triggers': m11001,
  // Plain SQL that reads the same on both engines.
  '2026_11_28_000301_auth_sessions': m281301,
  // Its own file: bytea where SQLite has blob.
  '2026_11_28_000201_issued_addresses': m280201,
  // PostgreSQL only: the SMTP guess window several ingest nodes share (one ingest keeps it in memory on SQLite).
  '2026_11_28_000202_smtp_guess_window': m280202,
  // Its own file: bigint keys; both engines fill it through search-copy-backfill.ts.
  '2026_11_28_000101_message_search_text': m280101,
  // The inbox column as on SQLite, and which address each per-client slot counts.
  '2026_11_28_000401_burn_restore': m280401,
  // Its own file: bigserial and bigint where SQLite has INTEGER.
  '2026_11_28_000501_delivery_log': m280501,
  // PostgreSQL only: the fault tags' tries several ingest nodes share (one ingest keeps them in memory on SQLite).
  '2026_11_28_000502_smtp_fault_state': m280502,
  // Its own file: pg_trgm GIN where SQLite has an FTS5 trigram table.
  '2026_11_28_000601_message_search_index': m280601,
  // The same file as SQLite's: views stored once for rows from before (derive-backfill.ts).
  '2026_11_28_000801_derive_stored_views': m280801,
  '2026_11_30_000101_inbox_unread_count': m300101,
}
