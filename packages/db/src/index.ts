export { hasPendingMigrations } from './migrations/pending.js'
export { createDb, openDb, migrateToLatest, PAGE_SIZE, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, type Db, type DbConfig, type Engine, type OpenDbConfig } from './create-db.js'
export { createPostgresDb, engineOf, isPostgresUrl, DEFAULT_POOL_SIZE, type PostgresConfig } from './postgres-db.js'
export { resolveDatabasePath, DEFAULT_DATABASE_PATH } from './database-path.js'
export type * from './schema.js'
export type * from './shared-state-schema.js'
export { fullSource, toStoredSource, type StoredSource } from './message-source.js'
export { storedHeaders, VIEW_HEADER_LIMITS } from './storage/stored-headers.js'
export { convertPageSize, type PageSizeResult } from './page-size.js'
export { CONTENT_COLUMNS, insertMessage, selectMessagesWithContent, type MessageToInsert } from './messages.js'
export { writeHeartbeat, lastHeartbeat, INGEST_SERVICE, type Heartbeat } from './heartbeat.js'
export {
  openStorage, openSqliteStorage, openPostgresStorage, UNICODE_LOWER, NO_LIMITS, refusalKindOf, StoreRefusal,
  DEFAULT_SEARCH_TEXT_MAX_CHARS, foldForSearch, searchCopyOf, type SearchCopy,
  type ActiveInbox, type ChangeEvent, type CommitSignal, type DeleteEvent, type NewMail, type Storage, type StorageConfig, type StoredVerdict,
  type AcceptedDelivery, type AttachmentToStore, type MessageToStore, type RefusalKind, type WriteMessages, type WriterLimits,
} from './storage/index.js'
export { matchAll, type MessageCondition } from './search/message-filter.js'
export { searchInboxPage, type SearchPage } from './search/inbox-search.js'
export { findMatchesAfter } from './search/wait-matches.js'
export { openSearchIndexForReading, searchIndexPath } from './search/index-file.js'
export type { SearchIndexBacklog } from './search/index-backlog.js'
export type { IndexStep } from './search/indexer.js'
export { openIssuedAddresses, recordIssuedAddress, purgeIssuedAddresses, addressHash, DEFAULT_REUSE_BLOCK_MS, type IssuedAddresses } from './issued-addresses.js'
export { postgresGuessWindow, sharedGuessWindow, type GuessCount, type PostgresGuessWindow } from './smtp-guess-window.js'
export {
  recordDeliveries, listDeliveries, trimDeliveries, DEFAULT_DELIVERY_LOG_ENTRIES, type DeliveryEntry, type DeliveryReason, type DeliveryRow,
} from './delivery-log.js'
export { postgresFaultState, sharedFaultState, type FaultTries, type PostgresFaultState } from './smtp-fault-state.js'
export { asUtf8Bytes, hasHtml, jsonRecords, lateCommits, matchesAll, notAmongIds, type JsonRecordType } from './engine-sql.js'
export { findViewHeaders, type ViewHeader } from './view-headers.js'
export { sharedAcrossNodes } from './shared-across-nodes.js'
