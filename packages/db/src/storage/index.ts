export type { ActiveInbox, ChangeEvent, CommitSignal, DeleteEvent, NewMail, Storage, StorageConfig, StoredVerdict } from './storage.js'
export {
  NO_LIMITS, refusalKindOf, StoreRefusal,
  type AcceptedDelivery, type AttachmentToStore, type MessageToStore, type RefusalKind, type WriteMessages, type WriterLimits,
} from './message-to-store.js'
export { openSqliteStorage } from './sqlite/open.js'
export { openPostgresStorage } from './postgres/open.js'
export { UNICODE_LOWER } from './text-functions.js'
export { DEFAULT_SEARCH_TEXT_MAX_CHARS, foldForSearch, searchCopyOf, type SearchCopy } from './search-text.js'

import { isPostgresUrl } from '../postgres-db.js'
import { openPostgresStorage } from './postgres/open.js'
import { openSqliteStorage } from './sqlite/open.js'
import type { Storage, StorageConfig } from './storage.js'

/** Opens the storage the configuration names: PostgreSQL for a postgres:// `url`, otherwise the SQLite file at `path`. */
export function openStorage(config: StorageConfig): Storage {
  return isPostgresUrl(config.url) ? openPostgresStorage({ ...config, url: config.url }) : openSqliteStorage(config)
}
