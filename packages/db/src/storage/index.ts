export type { ActiveInbox, CommitSignal, Storage, StorageConfig, StoredVerdict } from './storage.js'
export {
  NO_LIMITS, refusalKindOf, StoreRefusal,
  type IncomingAttachment, type IncomingMessage, type RefusalKind, type WriteMessages, type WriterLimits,
} from './incoming-message.js'
export { openSqliteStorage } from './sqlite/open.js'
export { UNICODE_LOWER } from './text-functions.js'

import { openSqliteStorage } from './sqlite/open.js'
import type { Storage, StorageConfig } from './storage.js'

/** Opens the storage the configuration names. Today the embedded SQLite file; PostgreSQL slots in here. */
export function openStorage(config: StorageConfig): Storage {
  return openSqliteStorage(config)
}
