import type { Migration, MigrationProvider } from 'kysely'
import type { SQLITE_MIGRATION_NAMES } from './names.js'
import { POSTGRES_MIGRATIONS } from './postgres/index.js'
import * as m0001 from './2026_11_22_000001_create_inbox_and_message.js'
import * as m0002 from './2026_11_22_000002_create_contact_analytics_links.js'
import * as m0003 from './2026_11_22_000003_count_generated_addresses.js'
import * as m0004 from './2026_11_23_000004_message_body_from_text.js'
import * as m0005 from './2026_11_23_000005_owner_setup_and_token_version.js'
import * as m0006 from './2026_11_23_000006_message_derived_view.js'
import * as m0007 from './2026_11_23_000007_message_inbox_id_index.js'
import * as m0008 from './2026_11_23_000008_short_link_owner_secret.js'
import * as m0009 from './2026_11_23_000009_message_content_stored_once.js'
import * as m0010 from './2026_11_23_000010_service_heartbeat.js'
import * as m0011 from './2026_11_23_000011_webhooks.js'
import * as m0012 from './2026_11_23_000012_inbox_quota_counters.js'
import * as m0101 from './2026_11_24_000101_message_read_state.js'
import * as m0201 from './2026_11_24_000201_message_auth.js'
import * as m1201 from './2026_11_24_001201_message_text_head.js'
import * as m2101 from './2026_11_24_002101_message_text_head_table.js'
import * as m0301 from './2026_11_24_000301_burn_after_use.js'
import * as m281301 from './2026_11_28_000301_auth_sessions.js'
import * as m280201 from './2026_11_28_000201_issued_addresses.js'
import * as m280101 from './2026_11_28_000101_message_search_text.js'
import * as m280401 from './2026_11_28_000401_burn_restore.js'
import * as m280501 from './2026_11_28_000501_delivery_log.js'
import * as m280601 from './2026_11_28_000601_message_search_index.js'
import * as m280701 from './2026_11_28_000701_search_index_apart.js'
import * as m280801 from './2026_11_28_000801_derive_stored_views.js'
import * as m300101 from './2026_11_30_000101_inbox_unread_count.js'

/**
 * Migrations are listed statically (not read from disk) so they survive bundling into each app.
 * Add new ones at the end (and their names in names.ts); never edit or reorder a shipped one. Each engine has its own
 * list: a change written with Kysely's schema builder alone usually runs on both (list the same module in
 * postgres/index.ts); where the dialects differ, postgres/ holds its own file of the same name. The engine-parity test
 * fails until both lists agree.
 */
const SQLITE_MIGRATIONS: Record<(typeof SQLITE_MIGRATION_NAMES)[number], Migration> = {
  '2026_11_22_000001_create_inbox_and_message': m0001,
  '2026_11_22_000002_create_contact_analytics_links': m0002,
  '2026_11_22_000003_count_generated_addresses': m0003,
  '2026_11_23_000004_message_body_from_text': m0004,
  '2026_11_23_000005_owner_setup_and_token_version': m0005,
  '2026_11_23_000006_message_derived_view': m0006,
  '2026_11_23_000007_message_inbox_id_index': m0007,
  '2026_11_23_000008_short_link_owner_secret': m0008,
  '2026_11_23_000009_message_content_stored_once': m0009,
  '2026_11_23_000010_service_heartbeat': m0010,
  '2026_11_23_000011_webhooks': m0011,
  '2026_11_23_000012_inbox_quota_counters': m0012,
  '2026_11_24_000101_message_read_state': m0101,
  '2026_11_24_000201_message_auth': m0201,
  '2026_11_24_001201_message_text_head': m1201,
  '2026_11_24_002101_message_text_head_table': m2101,
  '2026_11_24_000301_burn_after_use': m0301,
  '2026_11_28_000301_auth_sessions': m281301,
  '2026_11_28_000201_issued_addresses': m280201,
  '2026_11_28_000101_message_search_text': m280101,
  '2026_11_28_000401_burn_restore': m280401,
  '2026_11_28_000501_delivery_log': m280501,
  '2026_11_28_000601_message_search_index': m280601,
  // SQLite only: its trigram index moves to a file of its own (PostgreSQL keeps its GIN index in place).
  '2026_11_28_000701_search_index_apart': m280701,
  // Both engines: views stored once for rows from before, so reads never derive (derive-backfill.ts).
  '2026_11_28_000801_derive_stored_views': m280801,
  '2026_11_30_000101_inbox_unread_count': m300101,
}

const PROVIDERS: Record<'sqlite' | 'postgres', MigrationProvider> = {
  sqlite: { getMigrations: async () => SQLITE_MIGRATIONS },
  postgres: { getMigrations: async () => POSTGRES_MIGRATIONS },
}

export function migrationProviderFor(engine: 'sqlite' | 'postgres'): MigrationProvider {
  return PROVIDERS[engine]
}
