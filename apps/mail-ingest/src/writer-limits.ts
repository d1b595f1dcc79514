import type { WriterLimits } from '@tempbox/db'
import type { Config } from './config.js'

/** The store's caps, as the configuration names them, for whichever thread commits. */
export function writerLimits(config: Config): WriterLimits {
  return {
    databasePath: config.databasePath,
    maxDatabaseBytes: config.maxDatabaseBytes,
    minFreeDiskBytes: config.minFreeDiskBytes,
    maxMessagesPerInbox: config.maxMessagesPerInbox,
    maxInboxBytes: config.maxInboxBytes,
    textHeadChars: config.messageTextMaxChars,
    deliveryLogEntries: config.deliveryLogEntries,
  }
}
