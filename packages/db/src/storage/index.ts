export type { CommitSignal, Storage } from './storage.js'
export { openSqliteStorage } from './sqlite/open.js'
export { UNICODE_LOWER } from './text-functions.js'

import { openSqliteStorage } from './sqlite/open.js'
import type { Storage } from './storage.js'

/** Opens the storage the configuration names. Today the embedded SQLite file; PostgreSQL slots in here. */
export function openStorage(config: { path: string; busyTimeoutMs?: number }): Storage {
  return openSqliteStorage(config)
}
