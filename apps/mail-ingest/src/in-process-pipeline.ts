import type { Storage } from '@tempbox/db'
import type { Config } from './config.js'
import type { IngestPipeline } from './ingest-pipeline.js'
import { sendAuthJobs } from './mail-auth/job.js'
import { startAuthChecker } from './mail-auth/start.js'
import { storeVerdictsFrom } from './mail-auth/store-verdicts.js'
import { parseForStore } from './parse-for-store.js'
import { startSearchIndexer } from './search-indexer.js'
import { createMessageStore } from './store-message.js'
import { writerLimits } from './writer-limits.js'

/** SMTP_PARSE_WORKERS=0: every message parsed, derived and committed on the SMTP thread itself. */
export function createInProcessPipeline(storage: Storage, config: Config): IngestPipeline {
  const auth = startAuthChecker(config, storage, authCrashed)
  if (auth) storeVerdictsFrom(auth.verdicts, storage)
  const store = createMessageStore(storage.messageWriter(writerLimits(config)), {
    maxBatchMessages: config.maxBatchMessages,
    onCommitted: auth ? (messages, contentIds) => sendAuthJobs(auth.jobs, messages, contentIds) : undefined,
  })
  // No checkpoint worker here: this thread fills the search index too (steps of at most a few hundred copies).
  const indexer = startSearchIndexer(storage)
  let pending = 0
  return {
    ready: auth?.ready ?? Promise.resolve(),
    pending: () => pending,
    accept: async (raw, inboxIds, receivedAt, envelope, deliveries) => {
      pending++
      try {
        await store.store(await parseForStore(raw, { inboxIds, receivedAt, ...(auth ? { envelope } : {}), deliveries }, config.searchTextMaxChars))
      } finally {
        pending--
      }
    },
    close: async () => {
      await store.drain()
      indexer?.stop()
      await auth?.stop()
    },
  }
}

/** The sender check is worth less than mail: ingest goes on without it (messages then stay "checking" until a restart). */
function authCrashed(error: Error): void {
  console.error('[mail-auth] the worker stopped; messages are no longer checked:', error.message)
}
