import { statfsSync } from 'node:fs'
import { dirname } from 'node:path'
import { smtpError } from './smtp-error.js'
import type { SqliteHandle } from './store-message.js'

export interface StorageLimits {
  databasePath: string
  /** 0: no cap but the disk's. */
  maxDatabaseBytes: number
  minFreeDiskBytes: number
}

/** Free bytes (for an unprivileged writer) on the disk holding the database; Infinity for ':memory:'. */
export function freeDiskBytes(databasePath: string): number {
  if (databasePath === ':memory:') return Infinity
  const stats = statfsSync(dirname(databasePath))
  return Number(stats.bavail) * Number(stats.bsize)
}

/** Bytes the database's pages take (free pages are reused before the file grows, so they do not count). */
export function databaseBytes(sqlite: SqliteHandle): number {
  const pages = Number(sqlite.pragma('page_count', { simple: true })) - Number(sqlite.pragma('freelist_count', { simple: true }))
  return pages * Number(sqlite.pragma('page_size', { simple: true }))
}

/** Why the store cannot take more mail now, or null. */
export function storageFullReason(limits: StorageLimits, sqlite: SqliteHandle): string | null {
  if (freeDiskBytes(limits.databasePath) < limits.minFreeDiskBytes) return 'the disk is almost full'
  if (limits.maxDatabaseBytes > 0 && databaseBytes(sqlite) >= limits.maxDatabaseBytes) return 'the database is at its size limit'
  return null
}

/** How often RCPT looks at the disk and the database size again: a statfs and two pragmas, once a second at most. */
const CHECK_EVERY_MS = 1000

/**
 * The store's state as RCPT sees it: a full store refuses recipients with 452 4.3.1 (temporary: the sender keeps the
 * message and retries) rather than taking mail it would fail to write. The store worker checks again before writing.
 */
export function createStorageGuard(limits: StorageLimits, sqlite: SqliteHandle) {
  let checkedAt = -Infinity
  let reason: string | null = null
  return {
    refusal: (): Error | null => {
      const now = Date.now()
      if (now - checkedAt >= CHECK_EVERY_MS) {
        checkedAt = now
        reason = storageFullReason(limits, sqlite)
      }
      return reason ? smtpError(452, `4.3.1 Insufficient system storage (${reason}), try again later`) : null
    },
  }
}

export type StorageGuard = ReturnType<typeof createStorageGuard>
