import type { Storage } from '@tempbox/db'
import { smtpError } from './smtp-error.js'

export interface StorageLimits {
  databasePath: string
  /** 0: no cap but the disk's. */
  maxDatabaseBytes: number
  minFreeDiskBytes: number
}

type StorageUse = Pick<Storage, 'databaseBytes' | 'freeDiskBytes'>

/** Why the store cannot take more mail now, or null. */
export async function storageFullReason(limits: StorageLimits, storage: StorageUse): Promise<string | null> {
  if ((await storage.freeDiskBytes()) < limits.minFreeDiskBytes) return 'the disk is almost full'
  if (limits.maxDatabaseBytes > 0 && (await storage.databaseBytes()) >= limits.maxDatabaseBytes) return 'the database is at its size limit'
  return null
}

/** How often RCPT looks at the disk and the database size again: a statfs and two pragmas, once a second at most. */
const CHECK_EVERY_MS = 1000

/**
 * The store's state as RCPT sees it: a full store refuses recipients with 452 4.3.1 (temporary: the sender keeps the
 * message and retries) rather than taking mail it would fail to write. The store worker checks again before writing.
 */
export function createStorageGuard(limits: StorageLimits, storage: StorageUse) {
  let checkedAt = -Infinity
  let reason: Promise<string | null> = Promise.resolve(null)
  return {
    /** Recipients asking together while a check is under way share it. */
    refusal: async (): Promise<Error | null> => {
      const now = Date.now()
      if (now - checkedAt >= CHECK_EVERY_MS) {
        checkedAt = now
        reason = storageFullReason(limits, storage)
      }
      const why = await reason
      return why ? smtpError(452, `4.3.1 Insufficient system storage (${why}), try again later`) : null
    },
  }
}

export type StorageGuard = ReturnType<typeof createStorageGuard>
